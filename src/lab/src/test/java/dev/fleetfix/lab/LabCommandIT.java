package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fleetfix lab up/status/reboot/down} as a user runs them. */
class LabCommandIT {
    @TempDir
    Path home;

    @Test
    void upOutlivesTheJvmAndDownRemovesOnlyTheLab() throws Exception {
        try (LabFleet bystander = LabFleet.start(List.of(LabHostSpec.named("bystander")))) {
            // `lab up` in its own JVM, as a user runs it: the hosts must still be there once it has exited.
            CliRun up = fleetfixJar("lab", "up", "--hosts", "2", "--preset", "mixed", "--home", home.toString());
            assertThat(up.exitCode()).as(up.toString()).isZero();
            Matcher inventory = Pattern.compile("inventory: (\\S+)").matcher(up.stdout());
            assertThat(inventory.find()).as(up.toString()).isTrue();
            assertThat(Path.of(inventory.group(1))).isRegularFile();
            assertThat(up.stdout()).contains("fleetfix audit -i " + inventory.group(1));

            CliRun printed = fleetfix("lab", "inventory", "--home", home.toString());
            assertThat(printed.exitCode()).as(printed.toString()).isZero();
            assertThat(printed.stdout().strip()).isEqualTo(inventory.group(1));

            CliRun status = fleetfix("lab", "status", "--home", home.toString());
            assertThat(status.exitCode()).as(status.toString()).isZero();
            assertThat(status.stdout().lines().filter(l -> l.contains("running") && l.contains("sshd up")))
                    .as(status.toString())
                    .hasSize(2);

            CliRun reboot = fleetfix("lab", "reboot", "lab-2", "--home", home.toString());
            assertThat(reboot.exitCode()).as(reboot.toString()).isZero();
            assertThat(reboot.stdout()).contains("lab-2 rebooted");

            CliRun down = fleetfix("lab", "down", "--home", home.toString());
            assertThat(down.exitCode()).as(down.toString()).isZero();
            assertThat(down.stdout()).contains("removed (2 hosts)");

            assertThat(fleetfix("lab", "status", "--home", home.toString()).stdout())
                    .contains("no lab is up");
            assertThat(bystander.status())
                    .singleElement()
                    .satisfies(host -> assertThat(host.state()).isEqualTo("running"))
                    .satisfies(host -> assertThat(host.redisUp()).isTrue());
        }
    }

    @Test
    void commandsWithoutALabSayHowToStartOne() {
        CliRun down = fleetfix("lab", "down", "--home", home.toString());

        assertThat(down.exitCode()).isEqualTo(2);
        assertThat(down.stderr()).contains("no lab is up", "fleetfix lab up");

        CliRun inventory = fleetfix("lab", "inventory", "--home", home.toString());
        assertThat(inventory.exitCode()).isEqualTo(2);
        assertThat(inventory.stdout()).isEmpty();
        assertThat(inventory.stderr()).contains("no lab is up");
    }

    @Test
    void aSentinelLabOfOneHostIsRefusedBeforeAnythingStarts() {
        CliRun up = fleetfix("lab", "up", "--hosts", "1", "--preset", "sentinel", "--home", home.toString());

        assertThat(up.exitCode()).as(up.toString()).isEqualTo(2);
        assertThat(up.stderr()).contains("--preset sentinel", "2 hosts at least");
        assertThat(LabFleet.find(home)).isEmpty();
    }

    private static CliRun fleetfix(String... args) {
        return CliRun.of(args);
    }

    /**
     * Runs the packaged jar with the lab's plug-in jar beside it, as bin/fleetfix does with lib/plugins, in a JVM of
     * its own, without the Testcontainers variables that failsafe sets.
     */
    private static CliRun fleetfixJar(String... args) throws IOException, InterruptedException {
        Path jar = Path.of("src/cli", "target", "fleetfix.jar");
        Path plugin = Path.of("src/lab", "target", "fleetfix-lab.jar");
        assertThat(jar).as("packaged before the integration tests").isRegularFile();
        assertThat(plugin).as("packaged before the integration tests").isRegularFile();
        List<String> argv = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                jar + java.io.File.pathSeparator + plugin,
                "dev.fleetfix.cli.Main"));
        argv.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().keySet().removeIf(name -> name.startsWith("TESTCONTAINERS_"));
        Path stdout = Files.createTempFile("fleetfix-out", ".txt");
        Path stderr = Files.createTempFile("fleetfix-err", ".txt");
        try {
            Process process = builder.redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
            }
            return new CliRun(
                    List.of(args),
                    process.exitValue(),
                    Files.readString(stdout, StandardCharsets.UTF_8),
                    Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
