package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.transport.ExecResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, item 2: hosts logged into as {@code ops}, whose sudo asks for a password (sudoers without NOPASSWD), and
 * one whose root has a password, for su. {@code thp-off.yaml} runs with the sudo password vaulted by the real
 * {@code ansible-vault} ({@code encrypt_string} in host_vars): exit 0, Redis restarted, every key kept. Meanwhile
 * the host's and the control node's process listings are taken over and over: none holds the password, nor does any
 * output file or the {@code -vvvv} trace. A wrong password leaves its host as it was (THP files, units, Redis keys
 * and run_id) and fails it in one line. su with root's password runs the same playbook.
 */
class BecomePasswordIT {
    private static final String SUDO_PASSWORD = "Sudo-pw.lab-4e7a91c3";
    private static final String ROOT_PASSWORD = "Root-pw.lab-0b52d8f6";
    private static final String VAULT_PASSWORD = "become-it-vault-password";
    private static final int KEYS = 500;

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.builder("sudo-1").sudoPassword(SUDO_PASSWORD).build(),
            LabHostSpec.builder("wrong-2").sudoPassword(SUDO_PASSWORD).build(),
            LabHostSpec.builder("su-3").rootPassword(ROOT_PASSWORD).build());

    private static LabData lab;
    private static Path vaultPasswordFile;

    @BeforeAll
    static void prepare() throws Exception {
        lab = new LabData(fleet.get(), List.of("sudo-1", "wrong-2", "su-3"));
        for (String host : List.of("sudo-1", "wrong-2", "su-3")) {
            lab.seed(host, "user", KEYS);
            // the login user cannot become root without a password: fleetfix's sudo -n would be refused
            ExecResult nopasswd = fleet.rootExec(host, "su -s /bin/sh ops -c 'sudo -n true' 2>&1; echo rc=$?");
            assertThat(nopasswd.stdout())
                    .as(host)
                    .contains("a password is required")
                    .doesNotContain("rc=0");
        }
        vaultPasswordFile = Files.writeString(dir.resolve("vault-pass.txt"), VAULT_PASSWORD + "\n");
    }

    /** A copy of the lab inventory without its clear become passwords, and a host_vars directory beside it. */
    private static Path inventory(String name, Map<String, String> hostVars) throws IOException {
        Path file = dir.resolve(name).resolve("inventory.yml");
        Files.createDirectories(file.getParent().resolve("host_vars"));
        String text = Files.readString(fleet.inventoryFile());
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (!line.contains("ansible_become_password")) {
                kept.append(line).append('\n');
            }
        }
        Files.writeString(file, kept.toString().stripTrailing() + "\n");
        for (Map.Entry<String, String> vars : hostVars.entrySet()) {
            Files.writeString(file.getParent().resolve("host_vars").resolve(vars.getKey() + ".yml"), vars.getValue());
        }
        return file;
    }

    private static String encryptString(String value) throws Exception {
        Process process = new ProcessBuilder(
                        "ansible-vault",
                        "encrypt_string",
                        "--vault-password-file",
                        vaultPasswordFile.toString(),
                        "--name",
                        "ansible_become_password",
                        value)
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as("ansible-vault encrypt_string (install ansible-core): " + out)
                .isZero();
        assertThat(out).startsWith("ansible_become_password: !vault |").doesNotContain(value);
        return out;
    }

    private static CliRun thpOff(Path inventory, String limit, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "apply",
                ShippedPlaybook.thpOffBrief(dir.resolve("brief-" + limit)).toString(),
                "-i",
                inventory.toString(),
                "--limit",
                limit,
                "--no-color",
                "--run-dir",
                dir.resolve("runs-" + limit).toString(),
                "--report",
                dir.resolve("report-" + limit).toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** What a host shows of its state: THP files, fleetfix's units, Redis's keys and run_id. */
    private static String state(String host) {
        String files = fleet.rootExec(
                        host,
                        "cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag;"
                                + " ls /etc/systemd/system /etc/tmpfiles.d /etc/redis 2>&1")
                .stdout();
        return files + lab.digests().get(host) + "\n" + lab.runId(host);
    }

    @Test
    void thpOffRunsWithAVaultedSudoPasswordThatNoListingOutputOrTraceShows() throws Exception {
        Path inventory = inventory("vaulted", Map.of("sudo-1", encryptString(SUDO_PASSWORD)));
        Map<String, String> before = lab.digests();
        String runId = lab.runId("sudo-1");

        List<String> listings = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            while (running.get()) {
                listings.add(fleet.rootExec("sudo-1", "ps -eo args").stdout());
                listings.add(controlNodeListing());
            }
        });
        watcher.start();
        CliRun run;
        try {
            run = thpOff(inventory, "sudo-1", "-vvvv", "--vault-password-file", vaultPasswordFile.toString());
        } finally {
            running.set(false);
            watcher.join();
        }
        System.out.println(run.toString().lines().limit(400).reduce("", (a, b) -> a + b + "\n"));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(fleet.thpMode("sudo-1")).hasValue("never");
        assertThat(lab.runId("sudo-1")).as("Redis restarted").isNotEqualTo(runId);
        assertThat(lab.digests().get("sudo-1")).as("every key kept").isEqualTo(before.get("sudo-1"));
        assertThat(lab.cli("sudo-1", "--scan | grep -v '^user:' || true"))
                .as("no fleetfix key left")
                .isEmpty();
        // the trace shows the commands, through sudo -S, and never the password
        assertThat(run.stderr() + run.stdout()).contains("sudo-1").doesNotContain(SUDO_PASSWORD);
        System.out.printf("BecomePasswordIT: %d process listings taken during the run%n", listings.size());
        assertThat(listings).as("listings taken").hasSizeGreaterThan(10);
        assertThat(listings)
                .as("the listings saw fleetfix's sudo at work")
                .anyMatch(l -> l.contains("[fleetfix-become-"));
        assertThat(listings).noneMatch(l -> l.contains(SUDO_PASSWORD));
        assertThat(filesUnder(dir.resolve("runs-sudo-1"))).isNotEmpty();
        assertThat(filesUnder(dir.resolve("report-sudo-1"))).isNotEmpty();
        for (Path file : concat(filesUnder(dir.resolve("runs-sudo-1")), filesUnder(dir.resolve("report-sudo-1")))) {
            assertThat(Files.readString(file, StandardCharsets.ISO_8859_1))
                    .as(file.toString())
                    .doesNotContain(SUDO_PASSWORD);
        }
    }

    @Test
    void aWrongSudoPasswordLeavesTheHostAsItWasAndFailsItInOneLine() throws Exception {
        Path inventory = inventory("wrong", Map.of("wrong-2", "ansible_become_password: not-the-password\n"));
        String before = state("wrong-2");

        CliRun run = thpOff(inventory, "wrong-2");
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout().lines().filter(l -> l.contains("become password refused by sudo")))
                .as(run.toString())
                .hasSize(1);
        assertThat(state("wrong-2"))
                .as("THP files, units, Redis keys and run_id")
                .isEqualTo(before);
        // sudo was answered once, and said so in its log
        assertThat(fleet.rootExec("wrong-2", "journalctl -q --no-pager -t sudo | grep -c 'incorrect password'")
                        .stdout()
                        .strip())
                .isEqualTo("1");
    }

    @Test
    void suWithRootsPasswordRunsThpOff() {
        Map<String, String> before = lab.digests();
        String runId = lab.runId("su-3");

        CliRun run = thpOff(
                fleet.inventoryFile(),
                "su-3",
                "--vault-password-file",
                fleet.get().vaultPasswordFile().orElseThrow().toString());
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(fleet.thpMode("su-3")).hasValue("never");
        assertThat(lab.runId("su-3")).as("Redis restarted").isNotEqualTo(runId);
        assertThat(lab.digests().get("su-3")).as("every key kept").isEqualTo(before.get("su-3"));
        assertThat(run.toString()).doesNotContain(ROOT_PASSWORD);
    }

    private static String controlNodeListing() {
        try {
            Process ps = new ProcessBuilder("ps", "-eo", "args").start();
            String out = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ps.waitFor(10, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            throw new AssertionError("ps on the control node: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static List<Path> filesUnder(Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
