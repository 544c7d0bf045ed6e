package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabThp;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SSH as large fleets run it, on real sshd: an SSH CA made here ({@code ssh-keygen -s}) signs a lab host's key
 * ({@code HostCertificate}) and a user key ({@code TrustedUserCAKeys}); known_hosts holds only a {@code
 * @cert-authority} line. A host certificate that expired, names another host or whose CA is revoked is refused
 * before login; a host with {@code PasswordAuthentication yes} is logged in to with {@code ansible_password}, which
 * no output shows.
 */
class SshCertificatesIT {
    private static final String PASSWORD = "lab-login-pw-7Qx2";
    private static final String CERT_CONF = "/etc/ssh/sshd_config.d/05-fleetfix-certificates.conf";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            // THP never, overcommit 1 (below): an audit of it finds nothing and exits 0
            LabHostSpec.named("cert-1").withThp(LabThp.NEVER).withThpDefrag(LabThp.NEVER),
            LabHostSpec.named("pass-1").withThp(LabThp.NEVER).withThpDefrag(LabThp.NEVER));

    @TempDir
    static Path keys;

    @TempDir
    Path dir;

    @BeforeAll
    static void certificateAuthorities() throws Exception {
        keygen("host_ca");
        keygen("user_ca");
        keygen("id_ed25519");
        keygen("stranger");
        // the user key is in no authorized_keys: only its certificate lets it in
        run(
                "ssh-keygen",
                "-q",
                "-s",
                key("user_ca"),
                "-I",
                "fleetfix-user",
                "-n",
                "fleetfix",
                "-V",
                "-5m:+1h",
                key("id_ed25519") + ".pub");
        for (String host : List.of("cert-1", "pass-1")) {
            // vm.overcommit_memory is the machine's: a bind mount gives the host its own 1 (as AuditIT does)
            root(
                    host,
                    "echo 1 > /run/overcommit_memory && mount --bind /run/overcommit_memory"
                            + " /proc/sys/vm/overcommit_memory");
        }
        root(
                "cert-1",
                "printf '%s\\n' "
                        + ShellQuote.quote(Files.readString(Path.of(key("user_ca") + ".pub"))
                                .strip())
                        + " > /etc/ssh/fleetfix_user_ca.pub && printf '%s\\n' 'TrustedUserCAKeys /etc/ssh/fleetfix_user_ca.pub'"
                        + " 'HostCertificate /etc/ssh/ssh_host_ed25519_key-cert.pub' > " + CERT_CONF);
        // earlier in sshd_config.d than the lab's "PasswordAuthentication no": the first value wins
        root(
                "pass-1",
                "echo " + ShellQuote.quote("fleetfix:" + PASSWORD) + " | chpasswd && printf '%s\\n'"
                        + " 'PasswordAuthentication yes' 'KbdInteractiveAuthentication yes'"
                        + " > /etc/ssh/sshd_config.d/05-fleetfix-password.conf");
        fleet.reloadSshd("pass-1");
    }

    private static String key(String name) {
        return keys.resolve(name).toString();
    }

    private static void keygen(String name) throws Exception {
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key(name));
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }

    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode()).as(command + ": " + result.stderr()).isZero();
        return result.stdout();
    }

    /** cert-1's host key, signed by the host CA for {@code principals} over {@code validity}; sshd reloaded. */
    private void hostCertificate(String principals, String validity) throws Exception {
        Path pub = dir.resolve("ssh_host_ed25519_key.pub");
        Files.writeString(pub, root("cert-1", "cat /etc/ssh/ssh_host_ed25519_key.pub"));
        run(
                "ssh-keygen",
                "-q",
                "-s",
                key("host_ca"),
                "-I",
                "cert-1",
                "-h",
                "-n",
                principals,
                "-V",
                validity,
                pub.toString());
        String cert =
                Files.readString(dir.resolve("ssh_host_ed25519_key-cert.pub")).strip();
        root("cert-1", "printf '%s\\n' " + ShellQuote.quote(cert) + " > /etc/ssh/ssh_host_ed25519_key-cert.pub");
        fleet.reloadSshd("cert-1");
    }

    /** How known_hosts names a lab host: {@code 127.0.0.11}, or {@code [127.0.0.11]:2222}. */
    private static String entry(LabHost host) {
        return host.sshPort() == 22 ? host.address() : "[" + host.address() + "]:" + host.sshPort();
    }

    private Path knownHosts(String... lines) throws Exception {
        return Files.write(dir.resolve("known_hosts"), List.of(lines));
    }

    private String caLine() throws Exception {
        return "@cert-authority " + entry(fleet.host("cert-1")) + " "
                + Files.readString(Path.of(key("host_ca") + ".pub")).strip();
    }

    /** An inventory of one lab host, logging in with {@code key}, trusting {@code knownHosts}. */
    private Path inventory(String host, String key, Path knownHosts, String... more) throws Exception {
        LabHost lab = fleet.host(host);
        List<String> lines = new ArrayList<>(List.of(
                "all:",
                "  hosts:",
                "    " + host + ":",
                "      ansible_host: " + lab.address(),
                "      ansible_port: " + lab.sshPort(),
                "      redis_port: " + lab.redisPort(),
                "      ansible_user: fleetfix",
                "      ansible_become: true",
                "      ansible_ssh_private_key_file: " + key,
                "      known_hosts_file: " + knownHosts));
        Stream.of(more).map(line -> "      " + line).forEach(lines::add);
        return Files.write(dir.resolve("inventory.yml"), lines);
    }

    /** Logins sshd accepted so far, from its journal. */
    private static long logins(String host) {
        return fleet.rootExec(host, "journalctl -u ssh --no-pager -o cat | grep -c '^Accepted ' || true")
                .stdout()
                .lines()
                .mapToLong(Long::parseLong)
                .findFirst()
                .orElse(0);
    }

    @Test
    void aUserCertificateAndACertAuthorityLineAreAllAnAuditNeeds() throws Exception {
        hostCertificate(fleet.host("cert-1").address(), "-5m:+1h");
        Path inventory = inventory("cert-1", key("id_ed25519"), knownHosts(caLine()));

        CliRun run = CliRun.of("audit", "-i", inventory.toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).as(run.toString()).contains("1 ok").doesNotContain("unreachable:");
        assertThat(fleet.rootExec(
                                "cert-1",
                                "journalctl -u ssh --no-pager -o cat | grep -c 'Accepted publickey for"
                                        + " fleetfix.*ED25519-CERT'")
                        .stdout()
                        .strip())
                .as("sshd took the user certificate")
                .isNotEqualTo("0");
    }

    @Test
    void anExpiredHostCertificateAnotherHostsAndOneOfARevokedCaAreRefusedBeforeLogin() throws Exception {
        String address = fleet.host("cert-1").address();
        String hostCa = Files.readString(Path.of(key("host_ca") + ".pub")).strip();
        record Case(String principals, String validity, List<String> knownHosts, String says) {}
        List<Case> cases = List.of(
                new Case(
                        address,
                        "20200101000000Z:20200102000000Z",
                        List.of(caLine()),
                        "host certificate refused: " + address + " offers a ssh-ed25519-cert-v01@openssh.com signed"
                                + " by CA key SHA256:"),
                new Case(
                        "redis-9.example," + "10.9.9.9",
                        "-5m:+1h",
                        List.of(caLine()),
                        "but it is valid for redis-9.example, 10.9.9.9, not for " + address),
                new Case(
                        address,
                        "-5m:+1h",
                        List.of(caLine(), "@revoked * " + hostCa),
                        "host certificate is revoked: " + address + " offers a certificate signed by ssh-ed25519 CA"
                                + " key SHA256:"));
        for (Case c : cases) {
            hostCertificate(c.principals(), c.validity());
            Path inventory = inventory(
                    "cert-1", key("id_ed25519"), knownHosts(c.knownHosts().toArray(String[]::new)));
            long before = logins("cert-1");

            CliRun run = CliRun.of("audit", "-i", inventory.toString());

            assertThat(run.exitCode()).as(run.toString()).isNotZero();
            String line = run.stdout()
                    .lines()
                    .filter(l -> l.contains("cert-1") && l.contains("host certificate"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no refusal line\n" + run));
            assertThat(line).as(run.toString()).contains(c.says());
            if (c.validity().startsWith("2020")) {
                assertThat(line).contains("it expired at 2020-01-02T00:00:00Z");
            }
            assertThat(logins("cert-1")).as("no login: " + run).isEqualTo(before);
        }
    }

    @Test
    void aPasswordLoginWorksAndThePasswordIsInNoOutputNorTrace() throws Exception {
        // the stranger key is authorized nowhere: the password is what logs in
        Path inventory = inventory("pass-1", key("stranger"), fleet.knownHostsFile(), "ansible_password: " + PASSWORD);
        CliRun audit = CliRun.of("audit", "-i", inventory.toString(), "-vvvv");
        assertThat(audit.exitCode()).as(audit.toString()).isZero();
        assertThat(audit.stdout()).as(audit.toString()).contains("1 ok");
        assertThat(audit.stdout() + audit.stderr()).doesNotContain(PASSWORD);

        Path playbook = Files.writeString(
                dir.resolve("touch.yaml"),
                """
                - name: touch
                  hosts: all
                  steps:
                    - command: {cmd: "touch /root/fleetfix-password-login"}
                """);
        Path reports = dir.resolve("reports");
        CliRun run = CliRun.of(
                "apply",
                playbook.toString(),
                "-i",
                inventory.toString(),
                "--no-color",
                "-vvvv",
                "--run-dir",
                dir.resolve("run").toString(),
                "--report",
                reports.toString());
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout() + run.stderr()).doesNotContain(PASSWORD);
        assertThat(fleet.rootExec("pass-1", "test -e /root/fleetfix-password-login")
                        .exitCode())
                .isZero();
        for (Path tree : List.of(reports, dir.resolve("run"))) {
            try (Stream<Path> files = Files.walk(tree)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertThat(Files.readString(file)).as(file.toString()).doesNotContain(PASSWORD);
                }
            }
        }
        assertThat(fleet.rootExec(
                                "pass-1",
                                "journalctl -u ssh --no-pager -o cat | grep -c"
                                        + " 'Accepted \\(password\\|keyboard-interactive/pam\\) for fleetfix'")
                        .stdout()
                        .strip())
                .isNotEqualTo("0");

        // a wrong password is an authentication failure in one line, naming the password's variable
        Path wrong =
                inventory("pass-1", key("stranger"), fleet.knownHostsFile(), "ansible_password: not-it-" + PASSWORD);
        CliRun refused = CliRun.of("audit", "-i", wrong.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isNotZero();
        assertThat(refused.stdout())
                .as(refused.toString())
                .contains("authentication failed for user fleetfix with key " + key("stranger")
                        + " and password (ansible_password)")
                .doesNotContain(PASSWORD);
    }
}
