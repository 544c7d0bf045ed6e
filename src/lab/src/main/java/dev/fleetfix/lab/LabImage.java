package dev.fleetfix.lab;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The lab host images: {@code fleetfix-lab:<hash>} (Debian 12) and {@code fleetfix-lab-trixie:<hash>} (Debian 13),
 * where the hash is that of {@code build-image.sh}, shipped in the jar. The script holds every input of the images,
 * so the same hash means the same image, whether it was built by {@code src/lab/src/lab/prepare.sh} before the tests or
 * here on the first {@code fleetfix lab up} that needs it.
 */
final class LabImage {
    static final String SCRIPT = "build-image.sh";

    /** The Debian release an image is bootstrapped from. */
    enum Suite {
        /** Debian 12: Redis 7.0, and the old builds run on it. */
        BOOKWORM("fleetfix-lab"),
        /** Debian 13: Redis 8.0 and Valkey 8.1. */
        TRIXIE("fleetfix-lab-trixie");

        private final String repository;

        Suite(String repository) {
            this.repository = repository;
        }

        /** The script's argument: {@code bookworm}. */
        String argument() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private LabImage() {}

    /** The Debian 12 image's tag. */
    static String tag() {
        return tag(Suite.BOOKWORM);
    }

    /** The image's name and the first 12 hex digits of the script's SHA-256, as the script computes it. */
    static String tag(Suite suite) {
        return suite.repository + ":"
                + HexFormat.of().formatHex(sha256(script())).substring(0, 12);
    }

    /** Returns the tag, building the image first when Docker does not have it (a minute or two, needs root). */
    static String ensure(LabDocker docker, Path workDir, Consumer<String> progress, Suite suite) {
        String tag = tag(suite);
        if (docker.imageExists(tag)) {
            return tag;
        }
        Path script = workDir.resolve("build-image-" + tag.substring(tag.indexOf(':') + 1) + ".sh");
        try {
            Files.createDirectories(workDir);
            Files.write(script, script());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + script, e);
        }
        if (!isRoot()) {
            throw new LabException("the lab image " + tag + " is not built yet and building it needs root"
                    + " (debootstrap); run once: sudo bash " + script + " " + suite.argument());
        }
        progress.accept("building the lab image " + tag + " (first use; about two minutes)");
        run(script, suite, progress);
        if (!docker.imageExists(tag)) {
            throw new LabException("bash " + script + " finished but Docker has no image " + tag);
        }
        return tag;
    }

    private static void run(Path script, Suite suite, Consumer<String> progress) {
        Deque<String> lastLines = new ArrayDeque<>();
        int exit;
        try {
            Process process = new ProcessBuilder("bash", script.toString(), suite.argument())
                    .redirectErrorStream(true)
                    .start();
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    progress.accept(line);
                    lastLines.addLast(line);
                    if (lastLines.size() > 20) {
                        lastLines.removeFirst();
                    }
                }
            }
            exit = process.waitFor();
        } catch (IOException e) {
            throw new LabException("cannot run bash " + script + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while building the lab image", e);
        }
        if (exit != 0) {
            throw new LabException("building the lab image failed (bash " + script + " " + suite.argument() + ", exit "
                    + exit + "):\n" + String.join("\n", lastLines));
        }
    }

    private static boolean isRoot() {
        try {
            Process process = new ProcessBuilder("id", "-u").start();
            String uid = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.waitFor() == 0 && uid.equals("0");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static byte[] script() {
        try (InputStream in = LabImage.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("resource " + SCRIPT + " missing next to " + LabImage.class.getName());
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
