package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installed launcher ({@code src/cli/src/dist/bin/fleetfix}) says what its first start does before the training run
 * (many seconds of a JVM writing the start-up archive) begins. A fake Java stands in for the JVM: its training lasts
 * until the test has read the launcher's first line (or a minute), and it leaves a mark when it ends, so a line that
 * came only after the training is seen as such however fast or slow the machine is (a bound of a second to the first
 * line failed on a loaded machine for nothing the launcher did).
 */
class LauncherFirstStartTest {
    /** How long the fake training waits for the test to read the first line before it ends anyway. */
    private static final int TRAINING_AT_MOST_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void theFirstStartSaysBeforeItsTrainingThatItPreparesTheArchiveOnce() throws Exception {
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

        Process process = builder.start();
        String first;
        try (BufferedReader err =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            first = err.readLine();
            boolean trainedBeforeTheLine = Files.exists(dir.resolve("trained"));
            Files.writeString(dir.resolve("go"), "");
            assertThat(process.waitFor(TRAINING_AT_MOST_SECONDS + 30, TimeUnit.SECONDS))
                    .isTrue();

            assertThat(first).contains("preparing the start-up archive").contains("first start of this version only");
            assertThat(trainedBeforeTheLine)
                    .as("the training had ended before the first line: " + first)
                    .isFalse();
            assertThat(dir.resolve("trained")).as("the fake training ran").exists();
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * bin/fleetfix, lib/fleetfix.jar (empty) and java/ whose bin/java, in its training run, waits for the file {@code go}
     * and then leaves the file {@code trained}.
     */
    private Path bundleWithSlowJava() throws IOException {
        return FakeJavaBundle.create(
                dir,
                "case \"$*\" in *DumpLoadedClassList*)\n"
                        + "  i=0; while [ ! -e '" + dir.resolve("go") + "' ] && [ $i -lt "
                        + TRAINING_AT_MOST_SECONDS * 10 + " ]; do sleep 0.1; i=$((i + 1)); done\n"
                        + "  : > '" + dir.resolve("trained") + "' ;;\n"
                        + "esac\n"
                        + "echo 'fleetfix (fake java)'\n");
    }
}
