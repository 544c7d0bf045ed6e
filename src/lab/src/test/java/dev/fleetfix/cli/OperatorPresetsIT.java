package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import dev.fleetfix.inventory.ansible.vault.VaultEnvelope;
import dev.fleetfix.lab.LabComposeRedis;
import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.transport.ExecResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, item 4: {@code fleetfix lab up --preset operators}, as an operator rehearses on the shapes they run: one
 * host of each shape, an inventory naming no service, the become passwords vaulted beside it. The inventory the lab
 * wrote is used as written: {@code audit} names the service that runs each Redis and reaches the password-sudo and su
 * hosts through the vault; {@code thp-off.yaml} restarts Redis on the SysV, supervisord, password-sudo, compose (Redis
 * in a container) and ssh-cert hosts with every key kept. No printed line and no inventory holds a password. The
 * ssh-cert host is trusted through the lab's SSH CA alone: thp-off.yaml passes on it with no plain host key in any
 * known_hosts and no plain user key in its authorized_keys, sshd taking the user's certificate.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorPresetsIT {
    private static final List<String> HOSTS = List.of(
            "sysv-1",
            "supervisord-1",
            "tuned-1",
            "template-unit-1",
            "sudo-password-1",
            "su-password-1",
            "container-1",
            "ssh-cert-1");
    private static final List<String> APPLIED =
            List.of("sysv-1", "supervisord-1", "sudo-password-1", "container-1", "ssh-cert-1");
    private static final int KEYS = 500;

    @TempDir
    static Path home;

    @TempDir
    static Path dir;

    private static CliRun up;
    private static LabFleet fleet;
    private static Path inventory;
    private static Path vaultPassword;
    private static final Map<String, String> passwords = new LinkedHashMap<>();

    @BeforeAll
    static void labUp() throws Exception {
        long started = System.nanoTime();
        up = CliRun.of("lab", "up", "--preset", "operators", "--home", home.toString());
        System.out.println(up);
        System.out.printf("OperatorPresetsIT: lab up took %.1f s%n", (System.nanoTime() - started) / 1e9);
        assertThat(up.exitCode()).as(up.toString()).isZero();
        fleet = LabFleet.attach(LabFleet.find(home).get(0));
        Matcher next = Pattern.compile("next: fleetfix audit -i (\\S+) --vault-password-file (\\S+)")
                .matcher(up.stdout());
        assertThat(next.find()).as(up.toString()).isTrue();
        inventory = Path.of(next.group(1));
        vaultPassword = Path.of(next.group(2));
        byte[] key = Files.readString(vaultPassword).strip().getBytes(StandardCharsets.UTF_8);
        for (String host : List.of("sudo-password-1", "su-password-1")) {
            Path vars = inventory.resolveSibling("host_vars").resolve(host + ".yml");
            VaultEnvelope envelope = VaultEnvelope.parse(Files.readString(vars), vars, 1);
            String plain = new String(VaultCipher.decrypt(envelope, key).orElseThrow(), StandardCharsets.UTF_8);
            Matcher pw = Pattern.compile("ansible_become_password: \"?([A-Za-z0-9]+)\"?")
                    .matcher(plain);
            assertThat(pw.find())
                    .as(plain.replaceAll("[A-Za-z0-9]{20}", "<password>"))
                    .isTrue();
            passwords.put(host, pw.group(1));
        }
    }

    @AfterAll
    static void labDown() {
        CliRun down = CliRun.of("lab", "down", "--home", home.toString());
        if (down.exitCode() != 0 && fleet != null) {
            fleet.close();
        }
        assertThat(down.exitCode()).as(down.toString()).isZero();
    }

    @Test
    @Order(1)
    void upStartsOneHostOfEachShapeAndWritesAnInventoryNamingNoServiceNorPassword() throws Exception {
        assertThat(up.stdout())
                .as(up.toString())
                .contains(HOSTS.size() + " hosts up", "(sysv,supervisord,tuned,template-unit,");
        for (String host : HOSTS) {
            assertThat(up.stdout()).as(up.toString()).containsPattern("(?m)^  " + host + " ");
        }
        String text = Files.readString(inventory);
        assertThat(text).doesNotContain("redis_service", "redis_instances", "service:", "ansible_become_password");
        assertThat(Files.getPosixFilePermissions(vaultPassword))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(inventory.resolveSibling("host_vars").resolve("sudo-password-1.yml")))
                .startsWith("$ANSIBLE_VAULT;1.1;AES256\n");
        assertThat(passwords.get("sudo-password-1")).isNotEqualTo(passwords.get("su-password-1"));
        // the shapes as operators leave them
        assertThat(root("sysv-1", "systemctl is-active redis_6379; test ! -e /etc/redis/redis.conf && echo none"))
                .isEqualTo("active\nnone");
        assertThat(root("supervisord-1", "supervisorctl status redis")).contains("RUNNING");
        assertThat(root("tuned-1", "tuned-adm active")).contains("redis-thp");
        assertThat(root("template-unit-1", "systemctl is-active redis-server@main"))
                .isEqualTo("active");
        assertThat(root("container-1", "cd " + LabComposeRedis.DIR + " && docker-compose ps --services"))
                .isEqualTo(LabComposeRedis.SERVICE);
        for (String host : List.of("sudo-password-1", "su-password-1")) {
            assertThat(fleet.rootExec(host, "su -s /bin/sh ops -c 'sudo -n true' 2>&1; echo rc=$?")
                            .stdout())
                    .as(host + ": ops cannot become root without a password")
                    .doesNotContain("rc=0");
        }
        assertNoPassword(up);
    }

    @Test
    @Order(2)
    void auditNamesTheServiceOfEachShapeAndBecomesThroughTheVault() {
        CliRun run = CliRun.of("audit", "-i", inventory.toString(), "--vault-password-file", vaultPassword.toString());
        System.out.println(run);

        assertThat(run.exitCode())
                .as("THP always on every host: findings\n" + run)
                .isEqualTo(ExitCode.FINDINGS);
        assertThat(run.stdout())
                .as(run.toString())
                .contains("run by systemd unit redis_6379.service (SysV script /etc/init.d/redis_6379)")
                .contains("run by supervisord program redis")
                .contains("run by systemd unit redis-server@main.service")
                .contains("compose project " + LabComposeRedis.project(fleet, "container-1") + " service "
                        + LabComposeRedis.SERVICE)
                .contains("tuned");
        for (String host : HOSTS) {
            assertThat(row(run, host)).as(run.toString()).contains("always/", "at-risk");
        }
        assertNoPassword(run);
    }

    @Test
    @Order(3)
    void withoutTheVaultPasswordThePasswordHostsAreRefusedSayingSo() {
        CliRun run = CliRun.of("audit", "-i", inventory.toString(), "--limit", "sudo-password-1");
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout() + run.stderr()).as(run.toString()).contains("vault");
        assertNoPassword(run);
    }

    @Test
    @Order(4)
    void thpOffRestartsRedisOnTheSysvSupervisordPasswordSudoAndContainerHostsKeepingEveryKey() {
        LabData lab = new LabData(fleet, APPLIED);
        Map<String, String> runIds = new LinkedHashMap<>();
        for (String host : APPLIED) {
            lab.seed(host, "user", KEYS);
            runIds.put(host, lab.runId(host));
        }
        Map<String, String> seeded = lab.digests();

        CliRun run = CliRun.of(
                "apply",
                ShippedPlaybook.thpOffBrief(dir.resolve("brief")).toString(),
                "-i",
                inventory.toString(),
                "--vault-password-file",
                vaultPassword.toString(),
                "--limit",
                String.join(",", APPLIED),
                "--no-color",
                "--run-dir",
                dir.resolve("runs").toString());
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .contains("compose service " + LabComposeRedis.SERVICE + " of project");
        for (String host : APPLIED) {
            assertThat(fleet.thpMode(host)).as(host).hasValue("never");
            assertThat(lab.runId(host)).as(host + ": Redis restarted").isNotEqualTo(runIds.get(host));
            assertThat(lab.cli(host, "--scan | grep -v '^user:' || true"))
                    .as(host + ": keys besides the seeded ones")
                    .isEmpty();
        }
        lab.assertIntact(seeded);
        assertNoPassword(run);
    }

    @Test
    @Order(5)
    void theSshCertHostIsTrustedThroughTheCaAloneAndTookTheUsersCertificate() throws Exception {
        Path ca = inventory.resolveSibling("ssh-ca");
        List<String> caLines = Files.readAllLines(ca.resolve("known_hosts"));
        assertThat(caLines).hasSize(1);
        assertThat(caLines.get(0)).startsWith("@cert-authority ");
        assertThat(ca.resolve("id_ed25519-cert.pub")).isRegularFile();
        // its plain host key is in no known_hosts of the lab, nor of this user
        String hostKey = root("ssh-cert-1", "cut -d' ' -f2 /etc/ssh/ssh_host_ed25519_key.pub");
        Path userKnownHosts = Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
        for (Path knownHosts : List.of(fleet.knownHostsFile(), ca.resolve("known_hosts"), userKnownHosts)) {
            if (Files.exists(knownHosts)) {
                assertThat(Files.readString(knownHosts))
                        .as(knownHosts.toString())
                        .doesNotContain(hostKey);
            }
        }
        assertThat(root("ssh-cert-1", "wc -c < /home/fleetfix/.ssh/authorized_keys"))
                .as("no plain user key lets anyone in")
                .isEqualTo("0");
        String accepted = root("ssh-cert-1", "journalctl -u ssh --no-pager -o cat | grep '^Accepted ' || true");
        assertThat(accepted.lines().toList())
                .as("every login of the audit and the apply took the user certificate")
                .isNotEmpty()
                .allMatch(line -> line.startsWith("Accepted publickey for fleetfix ") && line.contains("ED25519-CERT"));
    }

    @Test
    @Order(6)
    void aUserCertificateWhoseKeyIsMissingLogsNothingIn() throws Exception {
        Path ca = inventory.resolveSibling("ssh-ca");
        Path keys = Files.createDirectories(dir.resolve("no-key"));
        Files.copy(ca.resolve("id_ed25519-cert.pub"), keys.resolve("id_ed25519-cert.pub"));
        Path noKey = Files.writeString(
                dir.resolve("no-key.yml"),
                Files.readString(inventory)
                        .replace(
                                ca.resolve("id_ed25519").toString(),
                                keys.resolve("id_ed25519").toString()));
        long before = root("ssh-cert-1", "journalctl -u ssh --no-pager -o cat | grep -c '^Accepted ' || true")
                .lines()
                .mapToLong(Long::parseLong)
                .sum();

        CliRun run = CliRun.of("audit", "-i", noKey.toString(), "--limit", "ssh-cert-1");
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stdout() + run.stderr())
                .as(run.toString())
                .contains(keys.resolve("id_ed25519").toString());
        assertThat(root("ssh-cert-1", "journalctl -u ssh --no-pager -o cat | grep -c '^Accepted ' || true"))
                .as("no login")
                .isEqualTo(String.valueOf(before));
    }

    private static void assertNoPassword(CliRun run) {
        for (String password : passwords.values()) {
            assertThat(run.stdout() + run.stderr()).as("a printed password").doesNotContain(password);
        }
    }

    private static String row(CliRun run, String host) {
        return run.stdout()
                .lines()
                .filter(line -> line.startsWith(host + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + host + "\n" + run));
    }

    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode())
                .as("%s: %s: %s", host, command, result.stderr())
                .isZero();
        return result.stdout().strip();
    }
}
