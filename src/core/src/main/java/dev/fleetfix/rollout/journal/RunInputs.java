package dev.fleetfix.rollout.journal;

import dev.fleetfix.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a run read from disk, as SHA-256 digests by absolute path: the playbook file, and the inventory's files (the
 * inventory file, or every file of an inventory directory, and the {@code group_vars/} and {@code host_vars/} beside
 * it and beside the playbook). The journal keeps them when a run starts, so that {@code --resume} can tell that the
 * playbook or the inventory changed since: the hosts done then were done by another plan than the one it would run.
 *
 * <p>An inventory script counts by its own text, not by what it prints; an inventory given inline ({@code a,b,})
 * counts by that text.
 *
 * @param playbook the playbook's digest, by path
 * @param inventory the inventory files' digests, by path, in path order
 */
public record RunInputs(Map<String, String> playbook, Map<String, String> inventory) {
    /** An inventory directory is a handful of files; a tree larger than this is not one, and is not hashed whole. */
    static final int MAX_FILES = 10_000;

    public RunInputs {
        playbook = Collections.unmodifiableMap(new TreeMap<>(playbook));
        inventory = Collections.unmodifiableMap(new TreeMap<>(inventory));
    }

    /**
     * Digests the playbook and the inventory's files as they are now.
     *
     * @param inventory the inventory's source, when there is one (an inline list is not a path)
     * @throws InputException when a file cannot be read
     */
    public static RunInputs read(Path playbook, Optional<String> inventory) {
        return read(playbook, inventory, Map.of());
    }

    /**
     * As {@link #read(Path, Optional)}, and the extra vars ({@code -e}) count as one more input: a resume given
     * other extra vars than its run would run another plan. Their digest is of their values in name order.
     */
    public static RunInputs read(Path playbook, Optional<String> inventory, Map<String, Object> extraVars) {
        RunInputs files = readFiles(playbook, inventory);
        if (extraVars.isEmpty()) {
            return files;
        }
        Map<String, String> inventoryAndVars = new TreeMap<>(files.inventory);
        inventoryAndVars.put(
                EXTRA_VARS, digest(String.valueOf(new TreeMap<>(extraVars)).getBytes(StandardCharsets.UTF_8)));
        return new RunInputs(files.playbook, inventoryAndVars);
    }

    /** The key of the extra vars' digest among the inventory's. */
    static final String EXTRA_VARS = "(extra vars, -e)";

    private static RunInputs readFiles(Path playbook, Optional<String> inventory) {
        Map<String, String> book = new TreeMap<>();
        Path pb = playbook.toAbsolutePath().normalize();
        book.put(pb.toString(), digest(pb));
        Map<String, String> files = new TreeMap<>();
        List<Path> varsDirs = new ArrayList<>();
        if (pb.getParent() != null) {
            varsDirs.add(pb.getParent());
        }
        if (inventory.isPresent()) {
            String source = inventory.get();
            Path path = Path.of(source).toAbsolutePath().normalize();
            if (Files.isDirectory(path)) {
                walk(path, files);
            } else if (Files.isRegularFile(path)) {
                files.put(path.toString(), digest(path));
                varsDirs.add(path.getParent());
            } else {
                files.put("(inline) " + source, digest(source.getBytes(StandardCharsets.UTF_8)));
            }
        }
        for (Path dir : new LinkedHashSet<>(varsDirs)) {
            for (String vars : List.of("group_vars", "host_vars")) {
                if (Files.isDirectory(dir.resolve(vars))) {
                    walk(dir.resolve(vars), files);
                }
            }
        }
        return new RunInputs(book, files);
    }

    /**
     * What differs from {@code then}, one phrase a file ("the playbook /p.yaml changed", "inventory file
     * /i/group_vars/all.yml added"); empty when nothing does.
     */
    public List<String> changesSince(RunInputs then) {
        Objects.requireNonNull(then, "then");
        List<String> changes = new ArrayList<>();
        compare("the playbook", then.playbook, playbook, changes);
        compare("inventory file", then.inventory, inventory, changes);
        return changes;
    }

    private static void compare(String what, Map<String, String> then, Map<String, String> now, List<String> out) {
        Set<String> paths = new TreeSet<>(then.keySet());
        paths.addAll(now.keySet());
        for (String path : paths) {
            String before = then.get(path);
            String after = now.get(path);
            if (path.equals(EXTRA_VARS)) {
                if (!Objects.equals(before, after)) {
                    out.add("the extra vars (-e) differ from the run's");
                }
            } else if (before == null) {
                out.add(what + " " + path + " added");
            } else if (after == null) {
                out.add(what + " " + path + (what.equals("the playbook") ? " is not the one run" : " removed"));
            } else if (!before.equals(after)) {
                out.add(what + " " + path + " changed");
            }
        }
    }

    private static void walk(Path dir, Map<String, String> files) {
        List<Path> found;
        try (Stream<Path> all = Files.walk(dir)) {
            found = all.filter(Files::isRegularFile).limit(MAX_FILES + 1L).toList();
        } catch (IOException | UncheckedIOException e) {
            throw new InputException("cannot read the inventory directory " + dir + ": " + e.getMessage());
        }
        if (found.size() > MAX_FILES) {
            throw new InputException("the inventory directory " + dir + " holds more than " + MAX_FILES
                    + " files; fleetfix keeps a digest of each for --resume: give the inventory's own directory");
        }
        for (Path f : found) {
            Path file = f.toAbsolutePath().normalize();
            files.put(file.toString(), digest(file));
        }
    }

    private static String digest(Path file) {
        MessageDigest sha = sha256();
        byte[] buffer = new byte[65536];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                sha.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new InputException("cannot read " + file + " to record its digest in the run journal: " + e);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static String digest(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
