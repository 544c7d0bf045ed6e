package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, item 5, with the real {@code ansible-vault}: a lab host whose Redis requires a password, the password
 * vaulted as Ansible users vault it (a whole group_vars file, an {@code encrypt_string} value in host_vars, a whole
 * inventory under a vault id), and {@code fleetfix audit} logging into Redis with it. A wrong vault password stops
 * the run before any host is contacted: a listening socket standing in for the host counts the connections.
 */
class VaultIT {
    private static final String REDIS_PASSWORD = "vault-Lab-Redis-3e9";
    private static final String VAULT_PASSWORD = "vault-it-password";

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"));

    private static Path passwordFile;

    @BeforeAll
    static void prepare() throws Exception {
        ProcessResult version = run(List.of("ansible-vault", "--version"), null);
        assertThat(version.exit())
                .as("ansible-vault (ansible-core) must be installed for this test: " + version)
                .isZero();
        passwordFile = Files.writeString(dir.resolve("vault-pass.txt"), VAULT_PASSWORD + "\n");
        fleet.rootExec(
                "lab-1",
                "echo 'requirepass " + REDIS_PASSWORD + "' >> /etc/redis/redis.conf && systemctl restart redis-server");
        LabHost host = fleet.host("lab-1");
        LabData.await(
                () -> fleet.rootExec(
                                "lab-1",
                                "REDISCLI_AUTH=" + REDIS_PASSWORD + " redis-cli --no-auth-warning -h " + host.address()
                                        + " -p " + host.redisPort() + " PING")
                        .stdout()
                        .strip()
                        .equals("PONG"),
                30_000);
    }

    private record ProcessResult(int exit, String stdout, String stderr) {}

    private static ProcessResult run(List<String> command, Path workDir) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        builder.environment()
                .put("ANSIBLE_LOCAL_TEMP", dir.resolve("ansible-tmp").toString());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command.get(0) + " (install ansible-core): " + e.getMessage(), e);
        }
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ProcessResult(
                process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /** {@code ansible-vault ARGS...}, which must succeed. */
    private static String ansibleVault(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ansible-vault"));
        command.addAll(List.of(args));
        ProcessResult result = run(command, dir);
        assertThat(result.exit()).as(String.join(" ", command) + ": " + result).isZero();
        return result.stdout();
    }

    /** A fresh copy of the lab inventory in its own directory, so that each case has its own group_vars. */
    private static Path inventory(String name) throws IOException {
        Path file = dir.resolve(name).resolve("inventory.yml");
        Files.createDirectories(file.getParent().resolve("group_vars"));
        Files.createDirectories(file.getParent().resolve("host_vars"));
        Files.writeString(file, Files.readString(fleet.inventoryFile()));
        return file;
    }

    private static CliRun audit(Path inventory, String... vault) {
        List<String> args =
                new ArrayList<>(List.of("audit", "--format", "json", "-F", "none", "-i", inventory.toString()));
        args.addAll(List.of(vault));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** The audit reached Redis and logged in: JSON with the host's Redis facts, auth not failed. */
    private static void assertLoggedIn(CliRun run) {
        assertThat(run.exitCode()).as(run.toString()).isIn(0, 1);
        assertThat(run.stdout())
                .as(run.toString())
                .containsPattern("\"auth_failed\" ?: false")
                .containsPattern("\"reachable\" ?: true")
                .containsPattern("\"version\" ?: \"\\d");
        assertThat(run.toString()).doesNotContain(REDIS_PASSWORD);
    }

    @Test
    void aGroupVarsFileEncryptedByAnsibleVaultGivesTheRedisPassword() throws Exception {
        Path inventory = inventory("group-vars");
        Path vars = inventory.getParent().resolve("group_vars/redis.yml");
        Files.writeString(vars, "redis_password: " + REDIS_PASSWORD + "\n");
        ansibleVault("encrypt", "--vault-password-file", passwordFile.toString(), vars.toString());
        assertThat(Files.readString(vars)).startsWith("$ANSIBLE_VAULT;1.1;AES256\n");

        CliRun run = audit(inventory, "--vault-password-file", passwordFile.toString());

        assertLoggedIn(run);
    }

    /** A real apply (the audit playbook, whose audit step logs into Redis) given the password by a vaulted -e @FILE. */
    @Test
    void anApplyTakesTheRedisPasswordFromAVaultedExtraVarsFile() throws Exception {
        Path inventory = inventory("extra-vars");
        Path vars = inventory.getParent().resolve("secrets.yml");
        Files.writeString(vars, "redis_password: " + REDIS_PASSWORD + "\n");
        ansibleVault("encrypt", "--vault-password-file", passwordFile.toString(), vars.toString());
        List<String> apply = List.of(
                "apply",
                "playbooks/audit.yaml",
                "-F",
                "none",
                "-i",
                inventory.toString(),
                "--skip-tags",
                "thp",
                "--no-color",
                "-e",
                "@" + vars);

        CliRun withoutPassword = CliRun.of(apply.toArray(String[]::new));
        assertThat(withoutPassword.exitCode()).as(withoutPassword.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(withoutPassword.stderr()).contains(vars.toString()).contains("--vault-password-file");

        List<String> withPassword = new ArrayList<>(apply);
        withPassword.addAll(List.of("--vault-password-file", passwordFile.toString()));
        CliRun run = CliRun.of(withPassword.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.toString()).isZero();
        // the role is read from Redis, logged in with the password
        assertThat(run.stdout()).containsPattern("ok: \\[lab-1\\] audit: .*, redis master;");
        assertThat(run.toString()).doesNotContain(REDIS_PASSWORD);
    }

    @Test
    void anEncryptStringValueInHostVarsGivesTheRedisPassword() throws Exception {
        Path inventory = inventory("inline");
        String value = ansibleVault(
                "encrypt_string",
                "--vault-password-file",
                passwordFile.toString(),
                "--name",
                "redis_password",
                REDIS_PASSWORD);
        assertThat(value).startsWith("redis_password: !vault |");
        Files.writeString(inventory.getParent().resolve("host_vars/lab-1.yml"), value + "\n");

        CliRun run = audit(inventory, "--vault-id", "default@" + passwordFile);

        assertLoggedIn(run);
    }

    @Test
    void theLoginCheckFailsWithAWrongRedisPassword() throws Exception {
        // the control of the two tests above: the JSON says when Redis refused the password
        Path inventory = inventory("control");
        Files.writeString(inventory.getParent().resolve("host_vars/lab-1.yml"), "redis_password: not-it\n");

        CliRun run = audit(inventory);

        assertThat(run.stdout()).as(run.toString()).containsPattern("\"auth_failed\" ?: true");
    }

    @Test
    void aWholeInventoryEncryptedUnderAVaultIdIsReadWithThatId() throws Exception {
        Path inventory = inventory("whole");
        Files.writeString(
                inventory,
                Files.readString(fleet.inventoryFile())
                        .replace(
                                "        lab-1:\n",
                                "        lab-1:\n          redis_password: " + REDIS_PASSWORD + "\n"));
        ansibleVault("encrypt", "--vault-id", "prod@" + passwordFile, inventory.toString());
        assertThat(Files.readString(inventory)).startsWith("$ANSIBLE_VAULT;1.2;AES256;prod\n");

        CliRun refused = audit(inventory);
        CliRun read = audit(inventory, "--vault-id", "prod@" + passwordFile);

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr()).contains(inventory + ":1: this is encrypted with ansible-vault");
        assertLoggedIn(read);
    }

    @Test
    void aWrongVaultPasswordStopsTheRunBeforeAnyHostIsContacted() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger accepted = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept()) {
                        accepted.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Path inventory = dir.resolve("listener/hosts.ini");
            Files.createDirectories(inventory.getParent().resolve("group_vars"));
            Files.writeString(
                    inventory,
                    "[redis]\nwatched ansible_host=127.0.0.1 ansible_port=" + listener.getLocalPort() + " redis_port="
                            + listener.getLocalPort() + "\n");
            Path vars = inventory.getParent().resolve("group_vars/redis.yml");
            Files.writeString(vars, "redis_password: " + REDIS_PASSWORD + "\n");
            ansibleVault("encrypt", "--vault-password-file", passwordFile.toString(), vars.toString());
            Path wrong = Files.writeString(dir.resolve("wrong-pass.txt"), "not-the-vault-password\n");

            CliRun refused = audit(inventory, "--vault-password-file", wrong.toString());
            int afterRefused = accepted.get();
            CliRun control = audit(inventory, "--vault-password-file", passwordFile.toString());

            assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(refused.stderr())
                    .as(refused.toString())
                    .contains("vault: the password from " + wrong + " does not decrypt " + vars + ":1 (HMAC mismatch)");
            assertThat(afterRefused)
                    .as("connections to the host with a wrong vault password")
                    .isZero();
            // the listener does see a run that goes on to the host
            assertThat(accepted.get()).as(control.toString()).isPositive();
            assertThat(refused.toString() + control).doesNotContain(REDIS_PASSWORD);
        }
    }

    /**
     * Issue 38 item 1: the lab inventory as an Ansible shop writes it, {@code ansible_python_interpreter} templated
     * from {@code ansible_playbook_python} and the Redis password in a vaulted group_vars file. The listings need no
     * vault password; without it, thp-off.yaml refuses naming the file before any host is touched; with it, it runs.
     */
    @Test
    void thpOffOnAnInventorySharedWithAnsibleRunsWithThePasswordAndRefusesWithoutIt() throws Exception {
        Path inventory = inventory("lazy");
        Files.writeString(
                inventory,
                Files.readString(inventory)
                        .replaceFirst(
                                "(?m)^  vars:\n",
                                "  vars:\n    ansible_python_interpreter: \"{{ ansible_playbook_python }}\"\n"));
        Path vars = inventory.getParent().resolve("group_vars/redis.yml");
        Files.writeString(vars, "redis_password: " + REDIS_PASSWORD + "\n");
        ansibleVault("encrypt", "--vault-password-file", passwordFile.toString(), vars.toString());
        Path playbook = Files.writeString(
                inventory.getParent().resolve("thp-off.yaml"),
                ShippedPlaybook.briefBenchmarks(ShippedPlaybook.thpOffText()));

        for (String listing : List.of("--list-tasks", "--list-hosts", "--syntax-check")) {
            CliRun run = CliRun.of("apply", playbook.toString(), listing, "-F", "none", "-i", inventory.toString());
            assertThat(run.exitCode()).as(run.toString()).isZero();
        }
        String thp = fleet.thp("lab-1");
        CliRun refused =
                CliRun.of("apply", playbook.toString(), "-F", "none", "--no-color", "-i", inventory.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(refused.stderr())
                .as(refused.toString())
                .contains(vars + ":1: this is encrypted with ansible-vault and no vault password was given");
        assertThat(refused.stdout()).as(refused.toString()).doesNotContain("lab-1");
        assertThat(fleet.thp("lab-1")).isEqualTo(thp);

        CliRun ran = CliRun.of(
                "apply",
                playbook.toString(),
                "-F",
                "none",
                "--no-color",
                "-i",
                inventory.toString(),
                "--vault-password-file",
                passwordFile.toString());
        assertThat(ran.exitCode()).as(ran.toString()).isZero();
        assertThat(ran.stdout()).as(ran.toString()).contains("lab-1 ").containsPattern("failed=0");
        assertThat(ran.toString()).doesNotContain(REDIS_PASSWORD);
    }
}
