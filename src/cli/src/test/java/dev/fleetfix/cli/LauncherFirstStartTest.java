package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installed launcher ({@code src/cli/src/dist/bin/fleetfix}) says what its first start does before the training run
 * (many seconds of a JVM writing the start-up archive) begins. A fake Java stands in for the JVM: its training takes
 * three seconds, so a line that came only after the training would come too late.
 */
class LauncherFirstStartTest {
    private static final Duration TRAINING = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    @Test
    void theFirstStartSaysWithinASecondThatItPreparesTheArchiveOnce() throws Exception {
        Path bundle = bundleWithSlowJava();
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder builder = new ProcessBuilder(
                        bundle.resolve("bin/fleetfix").toString(), "--version")
                .directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().remove("XDG_CACHE_HOME");
        builder.environment().remove("FLEETFIX_JAVA_OPTS");
        builder.environment().put("HOME", home.toString());
        builder.environment().put("JAVA_HOME", bundle.resolve("java").toString());

        long start = System.nanoTime();
        Process process = builder.start();
        String first;
        try (BufferedReader err =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            first = err.readLine();
            Duration until = Duration.ofNanos(System.nanoTime() - start);
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

            assertThat(first).contains("preparing the start-up archive").contains("first start of this version only");
            assertThat(until).as("time to the first line: " + first).isLessThan(Duration.ofSeconds(1));
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("the fake training ran")
                    .isGreaterThanOrEqualTo(TRAINING);
        } finally {
            process.destroyForcibly();
        }
    }

    /** bin/fleetfix, lib/fleetfix.jar (empty) and java/ whose bin/java sleeps through its training run. */
    private Path bundleWithSlowJava() throws IOException {
        Path bundle = dir.resolve("fleetfix");
        Path launcher = Files.createDirectories(bundle.resolve("bin")).resolve("fleetfix");
        Files.copy(Path.of("src/cli/src/dist/bin/fleetfix"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(Files.createDirectories(bundle.resolve("lib")).resolve("fleetfix.jar"), "");
        Path java = bundle.resolve("java");
        Files.writeString(Files.createDirectories(java).resolve("release"), "JAVA_VERSION=\"17.0.9\"\n");
        Path bin = Files.createDirectories(java.resolve("bin")).resolve("java");
        Files.writeString(
                bin,
                "#!/bin/sh\n"
                        + "case \"$*\" in *ArchiveClassesAtExit*) sleep " + TRAINING.toSeconds() + " ;; esac\n"
                        + "echo 'fleetfix (fake java)'\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwx------"));
        return bundle;
    }
}
