package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.Secret;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.TestClock;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.rollout.RolloutPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -K}: asked once, on the terminal, for the hosts whose inventory sets no become password; without a
 * terminal, refused in one line before any host is contacted.
 */
class AskBecomePassTest {
    private static final String TYPED = "typed-become-pw-5e1a";

    @TempDir
    Path dir;

    private final PromptOptions.Terminal before = PromptOptions.terminal;
    private final List<Host> opened = new ArrayList<>();

    @AfterEach
    void restoreTheTerminal() {
        PromptOptions.terminal = before;
    }

    private CliRun audit(String... more) throws Exception {
        Path inventory = Files.writeString(
                dir.resolve("inventory.yaml"),
                """
                all:
                  vars: {ansible_become: true}
                  hosts:
                    asked: {ansible_host: 127.0.0.1}
                    own: {ansible_host: 127.0.0.2, ansible_become_password: own-become-pw-c83f}
                """);
        TestClock clock = new TestClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
        Adapters adapters = Adapters.builder()
                .clock(clock)
                .sleeper(clock.sleeper())
                .shells(host -> {
                    synchronized (opened) {
                        opened.add(host);
                    }
                    return new FakeHost(host.name(), dir).shell();
                })
                .redis((host, timeout) -> new FakeHost(host.name(), dir).redis().connect())
                .policy(RolloutPolicy.of(2, Duration.ofMillis(10)))
                .runsHome(dir.resolve("fleetfix-runs"))
                .build();
        List<String> args = new ArrayList<>(List.of("audit", "-i", inventory.toString()));
        args.addAll(List.of(more));
        return CliRun.of(Main.commandLine(adapters), args.toArray(String[]::new));
    }

    private Optional<String> passwordOf(String name) {
        return opened.stream()
                .filter(h -> h.name().equals(name))
                .findFirst()
                .orElseThrow()
                .becomePassword()
                .map(Secret::reveal);
    }

    @Test
    void theTerminalIsAskedOnceAndItsAnswerIsThePasswordOfHostsThatSetNone() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        PromptOptions.terminal = new PromptOptions.Terminal() {
            @Override
            public boolean present() {
                return true;
            }

            @Override
            public char[] readSecret(String prompt) {
                asked.incrementAndGet();
                return TYPED.toCharArray();
            }
        };

        CliRun run = audit("-K", "-vvv");

        assertThat(asked).as(run.toString()).hasValue(1);
        assertThat(passwordOf("asked")).contains(TYPED);
        assertThat(passwordOf("own")).contains("own-become-pw-c83f");
        assertThat(run.stdout() + run.stderr()).doesNotContain(TYPED).doesNotContain("own-become-pw-c83f");
    }

    @Test
    void withoutATerminalMinusKIsRefusedInOneLineAndNoHostIsContacted() throws Exception {
        PromptOptions.terminal = new PromptOptions.Terminal() {
            @Override
            public boolean present() {
                return false;
            }

            @Override
            public char[] readSecret(String prompt) {
                throw new AssertionError("asked without a terminal");
            }
        };

        CliRun run = audit("--ask-become-pass");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr().lines()).as(run.toString()).containsExactly("fleetfix: " + PromptOptions.NO_TERMINAL);
        assertThat(opened).isEmpty();
    }

    @Test
    void theInventoryCommandUsesNoBecomePasswordSoMinusKNeitherAsksNorIsRefused() throws Exception {
        Path inventory =
                Files.writeString(dir.resolve("inventory.yaml"), "all:\n  hosts:\n    r1: {ansible_host: 127.0.0.1}\n");
        for (boolean present : List.of(true, false)) {
            AtomicInteger asked = new AtomicInteger();
            PromptOptions.terminal = typing(present, asked);

            CliRun run = CliRun.of("inventory", "-i", inventory.toString(), "--list", "-K");

            assertThat(run.exitCode()).as("terminal: " + present + "\n" + run).isZero();
            assertThat(run.stdout()).as(run.toString()).contains("\"r1\"");
            assertThat(asked).as("terminal: " + present + "\n" + run).hasValue(0);
        }
    }

    @Test
    void reportMergeReadsTheInventoryWithoutABecomePasswordSoMinusKNeitherAsksNorIsRefused() throws Exception {
        Path inventory =
                Files.writeString(dir.resolve("inventory.yaml"), "all:\n  hosts:\n    r1: {ansible_host: 127.0.0.1}\n");
        for (boolean present : List.of(true, false)) {
            AtomicInteger asked = new AtomicInteger();
            PromptOptions.terminal = typing(present, asked);

            CliRun run = CliRun.of(
                    "report",
                    "merge",
                    dir.resolve("no-such-shard").toString(),
                    "-o",
                    dir.resolve("merged").toString(),
                    "-i",
                    inventory.toString(),
                    "-K");

            // it fails on its missing input, not on -K
            assertThat(run.stderr()).as("terminal: " + present + "\n" + run).doesNotContain("--ask-become-pass");
            assertThat(asked).as("terminal: " + present + "\n" + run).hasValue(0);
        }
    }

    /** A terminal that is there or not, and answers {@link #TYPED}, counting the prompts. */
    private static PromptOptions.Terminal typing(boolean present, AtomicInteger asked) {
        return new PromptOptions.Terminal() {
            @Override
            public boolean present() {
                return present;
            }

            @Override
            public char[] readSecret(String prompt) {
                asked.incrementAndGet();
                return TYPED.toCharArray();
            }
        };
    }
}
