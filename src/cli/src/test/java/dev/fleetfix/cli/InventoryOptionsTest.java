package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostSelection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class InventoryOptionsTest {
    private static final String FLEET =
            Path.of("src/core/src/test/resources/inventory/fleet.yaml").toString();

    /** A command shaped like the real ones: check listHosts() first, print names, connect to nothing. */
    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin
        InventoryOptions inventory;

        HostSelection selection;

        List<Host> selected;

        @picocli.CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            selection = FleetfixCommand.inventoryService(spec.commandLine())
                    .load(inventory.source(), inventory.limit(), Optional.empty());
            selected = selection.hosts();
            if (inventory.listHosts()) {
                selected.forEach(h -> spec.commandLine().getOut().println(h.name()));
            }
        }
    }

    /** The command of the last {@link #run}, with the hosts it selected. */
    private Probe probe;

    private CliRun run(String... args) {
        probe = new Probe();
        CommandLine cmd = new CommandLine(probe);
        cmd.setExecutionExceptionHandler(new ErrorHandler());
        cmd.setParameterExceptionHandler(new ErrorHandler.UsageHandler());
        return CliRun.of(cmd, args);
    }

    @Test
    void listHostsPrintsTheSelectedHostsOnePerLine() {
        CliRun run = run("-i", FLEET, "--limit", "redis:!redis_primary", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout().lines()).containsExactly("redis-2", "redis-3");
    }

    @Test
    void withoutInventoryTheHostIsTheImplicitLocalhost() {
        CliRun run = run();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(probe.selected).singleElement().satisfies(h -> {
            assertThat(h.name()).isEqualTo("localhost");
            assertThat(h.connection()).isEqualTo(Connection.LOCAL);
        });
    }

    @Test
    void aLimitThatMatchesNothingExitsTwoWithAnsiblesWords() {
        CliRun run = run("-i", FLEET, "--limit", "nosuchgroup", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr())
                .isEqualTo("fleetfix: Could not match supplied host pattern: nosuchgroup" + System.lineSeparator());
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aBrokenInventoryExitsTwoNamingFileAndLine() {
        CliRun run = run("-i", "src/core/src/test/resources/inventory/missing.yaml");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains("missing.yaml: no such file");
    }

    @Test
    void anExclusionNamingNothingIsWarnedAboutLoudlyAndEveryOtherHostSelected() {
        CliRun run = run("-i", FLEET, "--limit", "all:!redis_primry", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout().lines())
                .containsExactly("bastion", "redis-1", "redis-2", "redis-3", "sentinel-4", "cache.eu.example.com");
        assertThat(run.stderr())
                .isEqualTo("fleetfix: warning: Could not match supplied host pattern, ignoring: redis_primry"
                        + " (!redis_primry in \"all:!redis_primry\")" + System.lineSeparator());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ",", " , "})
    void anEmptyLimitIsEveryHostAsInAnsibleAndSaysSo(String limit) {
        CliRun run = run("-i", FLEET, "--limit", limit, "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout().lines()).hasSize(6);
        assertThat(run.stderr()).contains("names no host or group: every host is selected, as ansible-playbook does");
    }

    @Test
    void anIpv6LimitIsOneHost() {
        CliRun run = run("-i", "fe80::1,2001:db8::1,fe80,", "--limit", "fe80::1", "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout().lines()).containsExactly("fe80::1");
    }

    @Test
    void severalInventoriesMergeAndTheJournalKeepsTheFirst(@TempDir Path dir) throws IOException {
        Path a = Files.writeString(dir.resolve("a.ini"), "[redis]\nr1 redis_port=6380 tier=a\n");
        Path b = Files.writeString(dir.resolve("b.ini"), "[redis]\nr1 redis_port=6381\nr2\n");

        CliRun run = run("-i", a.toString(), "-i", b.toString(), "--list-hosts");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout().lines()).containsExactly("r1", "r2");
        assertThat(probe.selected.get(0).redis().port()).isEqualTo(6381);
        assertThat(probe.selected.get(0).vars()).containsEntry("tier", "a");
        assertThat(probe.selection.firstSource()).contains(a);
        assertThat(probe.selection.sources()).containsExactly(a, b);
    }
}
