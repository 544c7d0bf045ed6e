package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.transport.ExecResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Held connections ({@code --control-persist}) between real runs: {@code java -jar fleetfix.jar} processes, as an
 * operator runs them one after another, against lab hosts with sshd. What is checked is what an operator or the
 * host's admin sees: sshd's own log of logins, the runs' results, the socket's mode, and the holder's process.
 */
class HeldConnectionsIT {
    /** A variable every run here has, standing for a key's passphrase. */
    private static final String CANARY = "held-connections-canary-5e1f";

    private static final Pattern PID = Pattern.compile("holder pid (\\d+),");

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"), LabHostSpec.named("lab-2"));

    @TempDir
    Path dir;

    private Path runtime;

    @BeforeEach
    void runtimeDirectory() throws IOException {
        runtime = Files.createDirectory(
                dir.resolve("runtime"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    @AfterEach
    void closeTheHolder() {
        fleetfix("connections", "--close");
    }

    @Test
    void repeatedRunsLogInOncePerHostAndSayWhatADirectRunSays() throws IOException {
        ProgramRun direct = fleetfix("audit", "-i", inventory());
        Map<String, Integer> afterDirect = logins();

        ProgramRun first = fleetfix("audit", "-i", inventory(), "--control-persist", "60s");
        Map<String, Integer> afterFirst = logins();
        ProgramRun second = fleetfix("audit", "-i", inventory(), "--control-persist", "60s");
        ProgramRun check = fleetfix("audit", "-i", inventory(), "--control-persist", "60s", "--format", "json");
        Map<String, Integer> afterRepeats = logins();

        for (ProgramRun held : List.of(first, second)) {
            assertThat(held.exitCode()).as(held.toString()).isEqualTo(direct.exitCode());
            assertThat(withoutTimes(held.stdout())).as(held.toString()).isEqualTo(withoutTimes(direct.stdout()));
            assertThat(held.stderr()).as(held.toString()).doesNotContain("held connections are off");
        }
        assertThat(check.exitCode()).as(check.toString()).isEqualTo(direct.exitCode());
        for (String host : List.of("lab-1", "lab-2")) {
            assertThat(afterFirst.get(host) - afterDirect.get(host))
                    .as(host + ": the first held run logs in")
                    .isEqualTo(1);
            assertThat(afterRepeats.get(host) - afterFirst.get(host))
                    .as(host + ": two more runs log in no more")
                    .isZero();
        }

        ProgramRun listed = fleetfix("connections");
        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.stdout())
                .contains("2 connections")
                .containsPattern("lab-1 fleetfix@127\\.0\\.0\\.\\d+:22, held since ")
                .containsPattern("lab-2 fleetfix@127\\.0\\.0\\.\\d+:22, held since ");
        Path socket = runtime.resolve("fleetfix/hold.sock");
        assertThat(mode(socket)).isEqualTo("rw-------");
        assertThat(mode(runtime.resolve("fleetfix"))).isEqualTo("rwx------");

        long pid = pid(listed);
        // the holder outlives the runs: none of their environment stays with it (a passphrase variable, say)
        assertThat(Files.readString(Path.of("/proc/" + pid + "/environ")))
                .contains("PATH=")
                .doesNotContain(CANARY);
        assertThat(ProcessHandle.of(pid).orElseThrow().info().commandLine().orElse(""))
                .doesNotContain(CANARY);
        ProgramRun closed = fleetfix("connections", "--close");
        assertThat(closed.stdout()).as(closed.toString()).startsWith("closed:");
        assertThat(awaitGone(pid)).as("holder " + pid + " exits on --close").isTrue();
        assertThat(socket).doesNotExist();
        assertThat(fleetfix("connections").exitCode()).as("no holder runs").isEqualTo(ExitCode.FINDINGS);
    }

    @Test
    void anIdleHolderExitsAndAKilledOneIsReplacedWithoutFailingTheRun() throws Exception {
        ProgramRun first = fleetfix("audit", "-i", inventory(), "--control-persist", "60s");
        long killed = pid(fleetfix("connections"));
        ProcessHandle.of(killed).orElseThrow().destroyForcibly();
        assertThat(awaitGone(killed)).isTrue();

        Map<String, Integer> before = logins();
        // a stale socket file is left behind by the kill: the run starts a new holder, which logs in again
        ProgramRun second = fleetfix("audit", "-i", inventory(), "--control-persist", "60s");
        assertThat(second.exitCode()).as(second.toString()).isEqualTo(first.exitCode());
        assertThat(second.stderr()).as(second.toString()).doesNotContain("held connections are off");
        Map<String, Integer> after = logins();
        for (String host : List.of("lab-1", "lab-2")) {
            assertThat(after.get(host) - before.get(host)).as(host).isEqualTo(1);
        }
        // looked up while the holder is sure to be there (60 s of persist): a short persist here would race the
        // start of the next command on a busy machine
        long replaced = pid(fleetfix("connections"));
        assertThat(replaced).isNotEqualTo(killed);
        // the latest run's persist is the holder's: after a run that asks for 2 s, it is idle 2 s and exits
        ProgramRun third = fleetfix("audit", "-i", inventory(), "--control-persist", "2s");
        assertThat(third.exitCode()).as(third.toString()).isEqualTo(first.exitCode());
        assertThat(logins()).as("the third run went through the same holder").isEqualTo(after);
        assertThat(awaitGone(replaced))
                .as("holder " + replaced + " exits when idle")
                .isTrue();
        assertThat(runtime.resolve("fleetfix/hold.sock")).doesNotExist();
    }

    @Test
    void aRefusedKeyFailsTheHostsWithTheLinesADirectRunGives() throws Exception {
        Path key = dir.resolve("not-authorized");
        Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(keygen.waitFor()).isZero();
        String text = Files.readString(Path.of(inventory()));
        Path refused = dir.resolve("refused.yml");
        Files.writeString(
                refused,
                text.replaceAll("ansible_ssh_private_key_file: .*", "ansible_ssh_private_key_file: '" + key + "'"));

        ProgramRun direct = fleetfix("audit", "-i", refused.toString());
        ProgramRun held = fleetfix("audit", "-i", refused.toString(), "--control-persist", "60s");

        assertThat(direct.exitCode()).as(direct.toString()).isNotZero();
        assertThat(held.exitCode()).as(held.toString()).isEqualTo(direct.exitCode());
        assertThat(withoutTimes(held.stdout())).isEqualTo(withoutTimes(direct.stdout()));
        assertThat(held.stdout() + held.stderr()).contains("not-authorized");
        assertThat(fleetfix("connections").stdout())
                .as("nothing held for a refused login")
                .contains("0 connections");
    }

    /**
     * A user certificate the ssh config names ({@code CertificateFile}, away from its key) is offered by the holder as
     * by a direct login: lab-2 lets this key in only with the certificate its user CA signed.
     */
    @Test
    void aCertificateFileOfTheSshConfigIsOfferedByAHeldLoginAsByADirectOne() throws Exception {
        Path ca = dir.resolve("user_ca");
        Path key = dir.resolve("certified");
        for (Path made : List.of(ca, key)) {
            run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", made.toString());
        }
        run(
                "ssh-keygen",
                "-q",
                "-s",
                ca.toString(),
                "-I",
                "fleetfix-user",
                "-n",
                "fleetfix",
                "-V",
                "-5m:+1h",
                key + ".pub");
        Path cert = Files.move(
                dir.resolve("certified-cert.pub"),
                Files.createDirectory(dir.resolve("certs")).resolve("user-cert.pub"));
        Path config = Files.writeString(dir.resolve("ssh_config"), "Host *\n  CertificateFile " + cert + "\n");
        Path certified = Files.writeString(
                dir.resolve("certified.yml"),
                Files.readString(Path.of(inventory()))
                        .replaceAll("ansible_ssh_private_key_file: .*", "ansible_ssh_private_key_file: '" + key + "'"));
        String conf = "/etc/ssh/sshd_config.d/05-fleetfix-it-user-ca.conf";
        root("printf '%s\\n' '" + Files.readString(Path.of(ca + ".pub")).strip()
                + "' > /etc/ssh/fleetfix_it_user_ca.pub"
                + " && echo 'TrustedUserCAKeys /etc/ssh/fleetfix_it_user_ca.pub' > " + conf);
        fleet.reloadSshd("lab-2");
        try {
            String[] audit = {"audit", "-F", config.toString(), "-i", certified.toString(), "--limit", "lab-2"};
            ProgramRun direct = fleetfix(audit);
            long afterDirect = certificateLogins();
            ProgramRun held = fleetfix(concat(audit, "--control-persist", "60s"));
            ProgramRun again = fleetfix(concat(audit, "--control-persist", "60s"));

            assertThat(direct.stdout())
                    .as(direct.toString())
                    .containsPattern("(?m)^lab-2 ")
                    .contains("0 unreachable")
                    .doesNotContain("authentication failed");
            for (ProgramRun run : List.of(held, again)) {
                assertThat(run.exitCode()).as(run.toString()).isEqualTo(direct.exitCode());
                assertThat(withoutTimes(run.stdout())).as(run.toString()).isEqualTo(withoutTimes(direct.stdout()));
            }
            assertThat(afterDirect)
                    .as("the direct run logged in with the certificate")
                    .isPositive();
            assertThat(certificateLogins() - afterDirect)
                    .as("the holder logged in once, with the certificate")
                    .isEqualTo(1);
        } finally {
            root("rm -f " + conf + " /etc/ssh/fleetfix_it_user_ca.pub");
            fleet.reloadSshd("lab-2");
        }
    }

    private static String[] concat(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
    }

    private static void root(String command) {
        ExecResult result = fleet.rootExec("lab-2", command);
        assertThat(result.exitCode()).as(command + ": " + result.stderr()).isZero();
    }

    /** lab-2's sshd's logins with a user certificate. */
    private static long certificateLogins() {
        return Long.parseLong(fleet.rootExec(
                        "lab-2",
                        "journalctl --no-pager -o cat -t sshd -t sshd-session"
                                + " | grep -c '^Accepted publickey for fleetfix .*ED25519-CERT' || true")
                .stdout()
                .strip());
    }

    /**
     * A run decides from the control node's files as they are now: a host whose known_hosts line was removed after
     * its connection was held is refused by the next held run, with the direct run's words, not audited through the
     * connection the old file trusted.
     */
    @Test
    void aHostWhoseKnownHostsLineWasRemovedIsRefusedAsADirectRunRefusesIt() throws Exception {
        String text = Files.readString(Path.of(inventory()));
        Matcher known = Pattern.compile("known_hosts_file: ['\"]?([^'\"\\n]+?)['\"]?\\n")
                .matcher(text);
        Matcher address =
                Pattern.compile("lab-1:\\s+ansible_host: ['\"]?([^'\"\\s]+)").matcher(text);
        assertThat(known.find() && address.find()).as(text).isTrue();
        Path knownHosts = Files.copy(Path.of(known.group(1)), dir.resolve("known_hosts"));
        Path inventory = dir.resolve("own-known-hosts.yml");
        Files.writeString(inventory, text.replace(known.group(1), knownHosts.toString()));
        ProgramRun first = fleetfix("audit", "-i", inventory.toString(), "--control-persist", "60s");
        assertThat(first.stdout()).as(first.toString()).contains("0 unreachable");

        List<String> kept = Files.readAllLines(knownHosts).stream()
                .filter(line -> !line.startsWith(address.group(1) + " "))
                .toList();
        assertThat(kept).hasSize(Files.readAllLines(knownHosts).size() - 1);
        Files.write(knownHosts, kept); // ssh-keygen -R

        ProgramRun direct = fleetfix("audit", "-i", inventory.toString());
        ProgramRun held = fleetfix("audit", "-i", inventory.toString(), "--control-persist", "60s");
        assertThat(direct.stdout())
                .as(direct.toString())
                .contains("1 unreachable")
                .contains("host key is not known");
        assertThat(held.exitCode()).as(held.toString()).isEqualTo(direct.exitCode());
        assertThat(withoutTimes(held.stdout())).isEqualTo(withoutTimes(direct.stdout()));
    }

    /**
     * A held connection the host stopped answering (here its sshd processes are frozen; on real fleets a firewall's
     * idle timeout drops it without a word) is made again before the run's first command goes into it: the run says
     * what a direct run says, instead of waiting out a command's timeout and calling the host unreachable.
     */
    @Test
    void aHeldConnectionThatStoppedAnsweringIsMadeAgainAndTheRunSaysWhatADirectRunSays() {
        ProgramRun first = fleetfix("audit", "-i", inventory(), "--control-persist", "60s", "--connect-timeout", "3s");
        assertThat(first.stdout()).as(first.toString()).contains("0 unreachable");
        assertThat(fleet.rootExec("lab-1", "pkill -STOP -f '^sshd: fleetfix' && echo frozen")
                        .stdout())
                .contains("frozen");
        try {
            ProgramRun held =
                    fleetfix("audit", "-i", inventory(), "--control-persist", "60s", "--connect-timeout", "3s");
            ProgramRun direct = fleetfix("audit", "-i", inventory(), "--connect-timeout", "3s");
            assertThat(direct.stdout()).as(direct.toString()).contains("0 unreachable");
            assertThat(held.exitCode()).as(held.toString()).isEqualTo(direct.exitCode());
            assertThat(withoutTimes(held.stdout())).isEqualTo(withoutTimes(direct.stdout()));
        } finally {
            fleet.rootExec("lab-1", "pkill -CONT -f '^sshd: fleetfix'");
        }
    }

    @Test
    void aHolderKilledWhileACommandRunsFailsThatHostAsBrokenAndTouchesNoOther() throws Exception {
        Path playbook = dir.resolve("slow.yaml");
        Files.writeString(
                playbook, "- name: slow\n  hosts: lab-1\n  steps:\n    - command: sleep 30 && touch /tmp/slept\n");
        fleetfix("audit", "-i", inventory(), "--control-persist", "60s");
        long pid = pid(fleetfix("connections"));
        // killed once the command runs on the host, not at a guessed moment
        Thread killer = new Thread(() -> {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline
                    && !fleet.rootExec("lab-1", "pgrep -f 'slee[p] 30' >/dev/null && echo running")
                            .stdout()
                            .contains("running")) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        });
        killer.start();
        ProgramRun run = fleetfix("apply", playbook.toString(), "-i", inventory(), "--control-persist", "60s");
        killer.join();
        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("the connection holder went away while '")
                .contains("sleep 30");
    }

    private static String inventory() {
        return fleet.inventoryFile().toString();
    }

    /** sshd's accepted logins per host, from its journal. */
    private static Map<String, Integer> logins() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String host : List.of("lab-1", "lab-2")) {
            ExecResult r = fleet.rootExec(
                    host, "journalctl --no-pager -o cat -t sshd -t sshd-session | grep -c '^Accepted ' || true");
            counts.put(host, Integer.parseInt(r.stdout().strip()));
        }
        return counts;
    }

    private static String withoutTimes(String out) {
        return out.replaceAll("\\(\\d+(\\.\\d+)?m?s\\)", "(…)").replaceAll("\\d+(\\.\\d+)?m?s", "…");
    }

    private static String mode(Path file) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static long pid(ProgramRun connections) {
        Matcher m = PID.matcher(connections.stdout());
        assertThat(m.find()).as(connections.toString()).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Whether the process is gone within 20 s. */
    private static boolean awaitGone(long pid) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
                return true;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** {@code java -jar fleetfix.jar ARGS} with this test's runtime directory, as an operator's shell runs it. */
    private ProgramRun fleetfix(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                Path.of("src/cli/target/fleetfix.jar").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        ProgramRun run = ProgramRun.of(
                dir,
                env -> {
                    env.put("XDG_RUNTIME_DIR", runtime.toString());
                    env.put("FLEETFIX_IT_PASSPHRASE", CANARY);
                },
                command);
        System.out.println(run);
        return run;
    }
}
