package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM the installed launcher ({@code src/cli/src/dist/bin/fleetfix}) starts: short commands on the serial
 * collector with a heap that starts at 64 MiB, {@code apply} and {@code bench} with the JVM's defaults, and no
 * start of the heap of its own when the operator sizes the heap (an {@code -Xmx} below 64m beside {@code -Xms64m}
 * would stop the JVM). A fake Java writes the arguments of the run the launcher hands over to it. The checkout's
 * {@code ./fleetfix} holds the same block ({@code LauncherTrainingIT} compares the two).
 */
class LauncherJvmOptionsTest {
    @TempDir
    Path dir;

    @Test
    void aShortCommandStartsTheHeapAt64MiBOnTheSerialCollector() throws Exception {
        List<String> args = jvmArguments(Map.of(), "audit", "-i", "inventory.yml");

        assertThat(args).contains("-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        assertThat(args.subList(args.indexOf("dev.fleetfix.cli.Main"), args.size()))
                .containsExactly("dev.fleetfix.cli.Main", "audit", "-i", "inventory.yml");
    }

    @Test
    void applyAndBenchKeepTheJvmsDefaults() throws Exception {
        for (String command : List.of("apply", "bench")) {
            List<String> args = jvmArguments(Map.of(), command);

            assertThat(args).as(command).doesNotContain("-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        }
    }

    @Test
    void aHeapTheOperatorSizesIsLeftAsTheOperatorSizedIt() throws Exception {
        for (Map<String, String> env : List.of(
                Map.of("FLEETFIX_JAVA_OPTS", "-Xmx48m"),
                Map.of("FLEETFIX_JAVA_OPTS", "-Dx=1 -Xms16m"),
                Map.of("FLEETFIX_JAVA_OPTS", "-XX:MaxHeapSize=40m"),
                Map.of("FLEETFIX_JAVA_OPTS", "-XX:MaxRAMPercentage=1"),
                Map.of("JDK_JAVA_OPTIONS", "-Xmx32m"),
                Map.of("JAVA_TOOL_OPTIONS", "-XX:InitialHeapSize=8m"))) {
            List<String> args = jvmArguments(env, "audit");

            assertThat(args).as(env.toString()).doesNotContain("-Xms64m").contains("-XX:+UseSerialGC");
        }
    }

    @Test
    void optionsThatDoNotSizeTheHeapKeepTheStart() throws Exception {
        List<String> args = jvmArguments(Map.of("FLEETFIX_JAVA_OPTS", "-Djavax.net.ssl.trustStore=/tmp/Xmx"), "audit");

        assertThat(args).contains("-Xms64m", "-Djavax.net.ssl.trustStore=/tmp/Xmx");
        assertThat(args.indexOf("-Djavax.net.ssl.trustStore=/tmp/Xmx"))
                .as("FLEETFIX_JAVA_OPTS comes after the launcher's own, so it can override them")
                .isGreaterThan(args.indexOf("-Xms64m"));
    }

    /** The arguments of the JVM the launcher ends in (the run of {@code dev.fleetfix.cli.Main}, not the training). */
    private List<String> jvmArguments(Map<String, String> env, String... command) throws Exception {
        Path bundle = bundleWithRecordingJava();
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        Path record = dir.resolve("java-args");
        Files.deleteIfExists(record);
        ProcessBuilder builder = new ProcessBuilder(
                        concat(bundle.resolve("bin/fleetfix").toString(), command))
                .directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> environment = builder.environment();
        environment.remove("XDG_CACHE_HOME");
        environment.remove("FLEETFIX_JAVA_OPTS");
        environment.remove("JDK_JAVA_OPTIONS");
        environment.remove("JAVA_TOOL_OPTIONS");
        environment.put("HOME", home.toString());
        environment.put("JAVA_HOME", bundle.resolve("java").toString());
        environment.putAll(env);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("the launcher ended")
                    .isTrue();
        } finally {
            process.destroyForcibly();
        }
        List<String> runs = Files.readAllLines(record, StandardCharsets.UTF_8);
        String main = runs.stream()
                .filter(line -> line.contains("\u0001dev.fleetfix.cli.Main\u0001"))
                .reduce((first, second) -> second)
                .orElseThrow(() -> new AssertionError("no run of dev.fleetfix.cli.Main among " + runs));
        return Arrays.asList(main.substring(1, main.length() - 1).split("\u0001", -1));
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /**
     * The bundle, with a bin/java that appends one line per run to {@code java-args}: U+0001, then each argument
     * followed by U+0001.
     */
    private Path bundleWithRecordingJava() throws IOException {
        Path bundle = dir.resolve("fleetfix");
        if (Files.exists(bundle)) {
            return bundle;
        }
        return FakeJavaBundle.create(
                dir,
                "line=$(printf '\\001'); for a in \"$@\"; do line=\"$line$a$(printf '\\001')\"; done\n"
                        + "printf '%s\\n' \"$line\" >> '" + dir.resolve("java-args") + "'\n");
    }
}
