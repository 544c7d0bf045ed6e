package dev.fleetfix.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * This machine's kernel THP mode, which every lab container shares: a real-THP lab sets it to
 * {@code always} for its lifetime and puts the mode it found back when it is removed. The mode found
 * is kept in the lab's directory, so {@code lab down} from another process restores it too. Several
 * real-THP labs under one home share it: a later one keeps the mode the first found, and only the
 * last one removed puts it back (labs under other homes are not seen).
 */
final class LabKernelThp {
    static final Path KERNEL = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    static final String SAVED = "kernel-thp.previous";
    private static final Pattern SELECTED = Pattern.compile("\\[(\\w+)]");

    private final Path kernel;

    LabKernelThp(Path kernel) {
        this.kernel = kernel;
    }

    /** The selected mode of a sysfs THP file ({@code always [madvise] never} → {@code madvise}). */
    static Optional<String> selected(String text) {
        Matcher m = SELECTED.matcher(text);
        if (m.find()) {
            return Optional.of(m.group(1));
        }
        String plain = text.strip();
        return plain.matches("always|madvise|never") ? Optional.of(plain) : Optional.empty();
    }

    /**
     * Sets the kernel to {@code always} and records in {@code labDir} the mode it had.
     *
     * @throws LabException naming the file and why, when it cannot be read or written (not root, a
     *     read-only sysfs, a kernel without THP)
     */
    void setAlways(Path labDir) {
        String before;
        try {
            Optional<Path> held = others(labDir).findFirst();
            before = held.isPresent()
                    ? Files.readString(held.get()).strip()
                    : selected(Files.readString(kernel))
                            .orElseThrow(() -> new LabException("real THP: " + kernel + " names no mode"));
        } catch (IOException e) {
            throw new LabException("real THP: the kernel's THP mode cannot be read from " + kernel + " ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); a kernel without transparent huge pages has no such file");
        }
        try {
            Files.createDirectories(labDir);
            Files.writeString(labDir.resolve(SAVED), before + "\n", StandardCharsets.US_ASCII);
            Files.writeString(kernel, "always", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new LabException("real THP: the kernel's THP mode cannot be written here: " + kernel + " ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); it needs root on the machine itself and a writable /sys (a container usually has neither)");
        }
    }

    /** The saved modes of the other real-THP labs under the same home. */
    private static java.util.stream.Stream<Path> others(Path labDir) throws IOException {
        Path home = labDir.toAbsolutePath().getParent();
        if (home == null || !Files.isDirectory(home)) {
            return java.util.stream.Stream.empty();
        }
        try (var dirs = Files.list(home)) {
            return dirs
                    .filter(d -> !d.equals(labDir.toAbsolutePath()))
                    .map(d -> d.resolve(SAVED))
                    .filter(Files::isRegularFile)
                    .toList()
                    .stream();
        }
    }

    /**
     * Puts back the mode {@code labDir} recorded, if any; returns it. Called when the lab goes, so a
     * failure is reported as text rather than thrown.
     */
    Optional<String> restore(Path labDir) {
        Path saved = labDir.resolve(SAVED);
        if (!Files.isRegularFile(saved)) {
            return Optional.empty();
        }
        try {
            String mode = Files.readString(saved).strip();
            if (others(labDir).findAny().isPresent()) {
                Files.delete(saved);
                return Optional.of("kept at always: another real-THP lab still runs");
            }
            if (!mode.matches("always|madvise|never")) {
                return Optional.of("not restored: " + saved + " holds '" + mode + "'");
            }
            Files.writeString(kernel, mode, StandardCharsets.US_ASCII);
            Files.delete(saved);
            return Optional.of(mode);
        } catch (IOException e) {
            return Optional.of("not restored: " + e.getMessage());
        }
    }
}
