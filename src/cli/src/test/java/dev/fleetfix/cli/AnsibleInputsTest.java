package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad Ansible inputs stop fleetfix before any host is touched, with exit code 2 and a message that
 * names the file and line (or the program and its stderr). Each run audits; with good input it
 * would connect, so an exit 2 with nothing on stdout means no host was contacted.
 */
class AnsibleInputsTest {
    @TempDir
    Path dir;

    private CliRun fleetfix(Map<String, String> env, String... args) {
        AnsibleSettings settings = new AnsibleSettings(env, dir, dir, true);
        return CliRun.of(Main.commandLine(settings), args);
    }

    private CliRun audit(Path inventory) {
        return fleetfix(Map.of(), "audit", "-F", "none", "-i", inventory.toString());
    }

    /** Adapters that reach these fake hosts, noting each host a shell is opened to in {@code opened}. */
    private static Adapters fakeHosts(Map<String, FakeHost> hosts, List<String> opened) {
        return Adapters.builder()
                .shells(host -> {
                    opened.add(host.name());
                    return hosts.get(host.name()).shell();
                })
                .redis((host, timeout) -> hosts.get(host.name()).redis().connect())
                .build();
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void aScriptThatFailsIsNamedWithItsStderr() throws IOException {
        Path script = write("cloud.sh", "#!/bin/sh\necho 'cloud API: 403 Forbidden' >&2\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));

        CliRun run = audit(script).expectExit(ExitCode.USAGE);

        assertThat(run.stderr())
                .contains("inventory script " + script)
                .contains("exited with 1")
                .contains("cloud API: 403 Forbidden");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aScriptThatPrintsNoJsonIsNamed() throws IOException {
        Path script = write("broken.sh", "#!/bin/sh\necho '{\"redis\": [\"a\",'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));

        CliRun run = audit(script).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains(script.toString()).contains("printed no valid JSON");
    }

    @Test
    void anIniHostLineWithoutKeyEqualsValueNamesFileAndLine() throws IOException {
        Path ini = write("hosts.ini", "[redis]\nredis-1 ansible_port=22\nredis-2 port\n");

        CliRun run = audit(ini).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains(ini + ":3: expected key=value after the host name, got \"port\"");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void iniSyntaxErrorsNameTheirLine() throws IOException {
        assertThat(audit(write("a.ini", "[redis]\nr1\n[bad group]\n")).stderr()).contains("a.ini:3: invalid section");
        assertThat(audit(write("b.ini", "[redis:vars]\nport\n[redis]\nr1\n")).stderr())
                .contains("b.ini:2: expected key=value in [redis:vars]");
        assertThat(audit(write("c.ini", "[redis:hosts]\nr1\n[redis:nodes]\n")).stderr())
                .contains("c.ini:3: section [redis:nodes] has unknown type nodes");
        assertThat(audit(write("d.ini", "[all:children]\nghosts\n[redis]\nr1\n"))
                        .stderr())
                .contains("d.ini:2: section [all:children] names group ghosts, which has no section of its own");
        assertThat(audit(write("e.ini", "[nowhere:vars]\nx=1\n[redis]\nr1\n")).stderr())
                .contains("e.ini:1: section [nowhere:vars] is for a group that is defined nowhere");
        assertThat(audit(write("f.ini", "[redis]\nr1 name='unclosed\n")).stderr())
                .contains("f.ini:2: cannot parse host line: no closing quotation");
        assertThat(audit(write("g.ini", "[redis]\nr1 ; comment\n")).stderr())
                .contains("g.ini:2: expected key=value after the host name, got \";\"");
    }

    @Test
    void iniGroupCyclesAreRefused() throws IOException {
        Path ini = write("cycle.ini", "[a:children]\nb\n[b:children]\na\n");

        CliRun run = audit(ini).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains("cycle.ini:").contains("creates a loop");
    }

    @Test
    void aGroupVarsFileThatIsNotAMappingNamesFileAndLine() throws IOException {
        Path ini = write("inv/hosts.ini", "[redis]\nr1\n");
        Path vars = write("inv/group_vars/redis.yml", "# a list, not variables\n- ansible_user: deploy\n");

        CliRun run = audit(ini).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains(vars + ":2:1: a variables file must be a mapping");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void aBadValueInGroupVarsNamesTheGroupVarsFile() throws IOException {
        Path ini = write("inv/hosts.ini", "[redis]\nr1\n");
        Path vars = write("inv/group_vars/all/conn.yml", "ansible_port: ssh\n");

        CliRun run = audit(ini).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains(vars + ":1:").contains("ansible_port must be a number 1..65535");
    }

    @Test
    void aVaultFileIsRefusedNotMisread() throws IOException {
        Path ini = write("inv/hosts.ini", "[redis]\nr1\n");
        write("inv/group_vars/all.yml", "$ANSIBLE_VAULT;1.1;AES256\n6162\n");

        CliRun run = audit(ini).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains("ansible-vault");
    }

    @Test
    void anInventoryPluginConfigurationPointsToInventoryFromAnsible() throws IOException {
        Path plugin = write("aws_ec2.yml", "plugin: amazon.aws.aws_ec2\nregions: [eu-west-1]\n");

        CliRun run = audit(plugin).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains(plugin + ":1:1").contains("--inventory-from-ansible");
    }

    @Test
    void severalSourcesInAnsibleCfgAreReadInOrderAsSeveralDashI() throws IOException {
        write("ansible.cfg", "[defaults]\ninventory = a.ini, b.ini\n");
        write("a.ini", "[redis]\nr1 tier=a\n");
        write("b.ini", "[redis]\nr1 tier=b\nr2\n");

        CliRun run = fleetfix(
                Map.of("ANSIBLE_CONFIG", dir.resolve("ansible.cfg").toString()),
                "inventory",
                "-F",
                "none",
                "--host",
                "r1");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).contains("\"tier\": \"b\"");
    }

    @Test
    void hostKeyCheckingFalseInAnsibleCfgMeansAcceptNewAndSaysSo() throws IOException {
        write("ansible.cfg", "[defaults]\nhost_key_checking = False\ninventory = hosts.ini\n");
        write("hosts.ini", "[redis]\nr1 ansible_host=127.0.0.1 ansible_port=1\n");

        CliRun run = fleetfix(
                Map.of("ANSIBLE_CONFIG", dir.resolve("ansible.cfg").toString()),
                "audit",
                "-F",
                "none",
                "--connect-timeout",
                "1s");

        assertThat(run.stderr())
                .contains("host_key_checking = False (" + dir.resolve("ansible.cfg") + ":2 host_key_checking)")
                .contains("accept-new")
                .contains("a changed key is still refused");
        assertThat(run.stdout()).contains("r1");
    }

    @Test
    void theEnvironmentBeatsAnsibleCfgAndTheInventoryComesFromIt() throws IOException {
        write("ansible.cfg", "[defaults]\ninventory = hosts.ini\nforks = 0\n");
        write("hosts.ini", "[redis]\nr1\nr2\n");

        CliRun bad = fleetfix(
                Map.of("ANSIBLE_CONFIG", dir.resolve("ansible.cfg").toString()), "inventory", "--graph", "-F", "none");
        assertThat(bad.exitCode()).as(bad.toString()).isZero();
        assertThat(bad.stdout()).contains("|--r1").contains("|--r2");

        CliRun env = fleetfix(
                Map.of("ANSIBLE_CONFIG", dir.resolve("ansible.cfg").toString(), "ANSIBLE_INVENTORY", "r9,"),
                "inventory",
                "--graph",
                "-F",
                "none");
        assertThat(env.stdout()).contains("|--r9").doesNotContain("r1");
    }

    @Test
    void aForksSettingAnsibleRefusesIsRefusedWhereItIsUsedAndNowhereElse() throws IOException {
        Path cfg = write("ansible.cfg", "[defaults]\ninventory = hosts.ini\nforks = 0\n");
        write("hosts.ini", "[redis]\nr1\n");
        List<String> opened = new CopyOnWriteArrayList<>();
        Map<String, FakeHost> hosts = Map.of("r1", new FakeHost("r1", dir));
        Adapters adapters = fakeHosts(hosts, opened);
        Map<String, String> env = Map.of("ANSIBLE_CONFIG", cfg.toString());

        CliRun refused = CliRun.of(
                        Main.commandLine(new AnsibleSettings(env, dir, dir, true), adapters), "audit", "-F", "none")
                .expectExit(ExitCode.USAGE);
        assertThat(refused.stderr())
                .as(refused.toString())
                .contains(cfg + ":3")
                .contains("forks must be a whole number of at least 1, was \"0\"");
        assertThat(opened).as("no host is touched").isEmpty();

        CliRun fromEnv = CliRun.of(
                        Main.commandLine(
                                new AnsibleSettings(
                                        Map.of("ANSIBLE_CONFIG", cfg.toString(), "ANSIBLE_FORKS", "many"),
                                        dir,
                                        dir,
                                        true),
                                adapters),
                        "audit",
                        "-F",
                        "none")
                .expectExit(ExitCode.USAGE);
        assertThat(fromEnv.stderr()).as(fromEnv.toString()).contains("ANSIBLE_FORKS must be a whole number");
        assertThat(opened).as("no host is touched").isEmpty();

        CliRun overridden = CliRun.of(
                Main.commandLine(new AnsibleSettings(env, dir, dir, true), adapters),
                "audit",
                "-F",
                "none",
                "--forks",
                "2");
        assertThat(overridden.stderr()).as(overridden.toString()).doesNotContain("forks must be");
        assertThat(opened)
                .as("--forks overrides the setting, which is then not used")
                .containsExactly("r1");
    }

    @Test
    void aHostBehindAProxyCommandFailsAndIsNeverConnectedToDirectly() throws IOException {
        Path config = write("ssh_config", "Host r1\n    ProxyCommand ssh -W %h:%p bastion\n");
        write("hosts.ini", "[redis]\nr1\nr2 ansible_host=127.0.0.1\n");
        Map<String, FakeHost> hosts = Map.of("r1", new FakeHost("r1", dir), "r2", new FakeHost("r2", dir));
        List<String> opened = new CopyOnWriteArrayList<>();
        Adapters adapters = fakeHosts(hosts, opened);

        CliRun run = CliRun.of(
                Main.commandLine(new AnsibleSettings(Map.of(), dir, dir, true), adapters),
                "audit",
                "-F",
                config.toString(),
                "-i",
                dir.resolve("hosts.ini").toString());

        assertThat(opened).as(run.toString()).containsExactly("r2");
        assertThat(run.stdout())
                .as(run.toString())
                .contains("ProxyCommand in " + config + ":2 is not supported; use ProxyJump");
        assertThat(run.stderr())
                .as(run.toString())
                .contains(config + ":2: ProxyCommand is not supported by fleetfix; r1 fail");
        assertThat(run.exitCode()).as(run.toString()).isNotZero();
    }

    @Test
    void sshArgsGiveTheJumpHostAndWhatFleetfixDoesNotApplyIsSaid() throws IOException {
        Path cfg = write(
                "ansible.cfg",
                "[ssh_connection]\nssh_args = -C -o ControlMaster=auto -o ControlPersist=60s -J ops@bastion:2222"
                        + " -o Ciphers=aes128-ctr\n[defaults]\nforks = 7\n");
        write("hosts.json", "{\"redis\": {\"hosts\": [\"r1\", \"r2\"]}, \"all\": {\"children\": [\"redis\"]}}");

        CliRun run = fleetfix(
                Map.of("ANSIBLE_CONFIG", cfg.toString()),
                "inventory",
                "-F",
                "none",
                "-i",
                dir.resolve("hosts.json").toString(),
                "--graph");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stderr())
                .contains(cfg + ":2 ssh_args: fleetfix does not apply -o Ciphers=aes128-ctr")
                .doesNotContain("ControlMaster");
    }

    /** Sees what a real command would get from the mixins, under fleetfix's root command. */
    @picocli.CommandLine.Command(name = "probe")
    static final class Probe implements Runnable {
        @picocli.CommandLine.Mixin
        InventoryOptions inventory;

        @picocli.CommandLine.Mixin
        SshOptionsMixin ssh;

        @picocli.CommandLine.Option(names = "--forks", defaultValue = "10")
        int forks;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        dev.fleetfix.transport.SshOptions options;

        java.time.Duration persist;

        Inventory loaded;

        @Override
        public void run() {
            loaded = FleetfixCommand.inventoryService(spec.commandLine())
                    .load(inventory.source(), inventory.limit(), java.util.Optional.empty())
                    .inventory();
            options = ssh.toOptions();
            persist = ssh.controlPersist();
        }
    }

    private Probe probe(Map<String, String> env, String... args) throws IOException {
        write("hosts.ini", "[redis]\nr1\n");
        List<String> all = new java.util.ArrayList<>(
                List.of("-F", "none", "-i", dir.resolve("hosts.ini").toString()));
        all.addAll(List.of(args));
        return probeWith(new AnsibleSettings(env, dir, dir, true), all.toArray(String[]::new));
    }

    /** OpenSSH's ControlPersist as Ansible users set it, in ansible.cfg or ANSIBLE_SSH_ARGS; the option wins. */
    @Test
    void connectionsAreHeldAsLongAsSshArgsControlPersistSaysAndNotAtAllUnasked() throws IOException {
        assertThat(probe(Map.of()).persist).as("unasked").isZero();
        Path cfg =
                write("ansible.cfg", "[ssh_connection]\nssh_args = -C -o ControlMaster=auto -o ControlPersist=60s\n");
        Map<String, String> withCfg = Map.of("ANSIBLE_CONFIG", cfg.toString());

        assertThat(probe(withCfg).persist).isEqualTo(java.time.Duration.ofSeconds(60));
        assertThat(probe(withCfg, "--control-persist", "10m").persist).isEqualTo(java.time.Duration.ofMinutes(10));
        assertThat(probe(withCfg, "--control-persist", "no").persist).isZero();
        // off for one run whatever ansible.cfg says, as OpenSSH's ControlPersist=0 (the default stays off: issue 40)
        assertThat(probe(withCfg, "--control-persist", "0").persist).isZero();
        assertThat(probe(withCfg, "--control-persist=0").persist).isZero();
        assertThat(probe(Map.of("ANSIBLE_SSH_ARGS", "-o ControlPersist=yes")).persist)
                .isEqualTo(dev.fleetfix.inventory.ansible.AnsibleEnvironment.PERSIST_UNTIL_STOPPED);
        assertThat(probe(Map.of("ANSIBLE_SSH_ARGS", "-o ControlPersist=300")).persist)
                .isEqualTo(java.time.Duration.ofMinutes(5));
    }

    @Test
    void aControlPersistThatIsNoTimeIsAnInputErrorNamingWhereItCameFrom() throws IOException {
        Path cfg = write("ansible.cfg", "[ssh_connection]\nssh_args = -o ControlPersist=soon\n");
        write("hosts.ini", "[redis]\nr1\n");
        CliRun run = fleetfix(
                Map.of("ANSIBLE_CONFIG", cfg.toString()),
                "audit",
                "-F",
                "none",
                "-i",
                dir.resolve("hosts.ini").toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(run.stderr()).contains(cfg.toString()).contains("ControlPersist=soon");

        CliRun option = fleetfix(
                Map.of(),
                "audit",
                "--control-persist",
                "soon",
                "-i",
                dir.resolve("hosts.ini").toString());
        assertThat(option.exitCode()).as(option.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(option.stderr()).contains("invalid duration 'soon'");
    }

    private static Inventory probed(AnsibleSettings settings, String... args) {
        return probeWith(settings, args).loaded;
    }

    private static Probe probeWith(AnsibleSettings settings, String... args) {
        Probe probe = new Probe();
        picocli.CommandLine cmd = Main.commandLine(settings);
        cmd.addSubcommand("probe", probe);
        String[] all = new String[args.length + 1];
        all[0] = "probe";
        System.arraycopy(args, 0, all, 1, args.length);
        CliRun.of(cmd, all).expectExit(0);
        return probe;
    }

    @Test
    void withoutFTheUsersSshConfigInTheHomeDirectoryGivesAddressPortAndUser() throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path cwd = Files.createDirectories(dir.resolve("work"));
        write("home/.ssh/config", "Host r1\n    HostName 10.9.8.7\n    Port 2200\n    User deploy\n");
        Path hosts = write("work/hosts.ini", "[redis]\nr1\nr2\n");
        AnsibleSettings settings = new AnsibleSettings(Map.of(), cwd, home, true);

        Inventory inventory = probed(settings, "-i", hosts.toString());

        Host r1 = inventory.host("r1").orElseThrow();
        assertThat(r1.address()).isEqualTo("10.9.8.7");
        assertThat(r1.port()).isEqualTo(2200);
        assertThat(r1.user()).contains("deploy");
        Host r2 = inventory.host("r2").orElseThrow();
        assertThat(r2.address()).isEqualTo("r2");
        assertThat(r2.port()).isEqualTo(22);

        // -F none: no file, the home directory's neither
        Host bare = probed(new AnsibleSettings(Map.of(), cwd, home, true), "-F", "none", "-i", hosts.toString())
                .host("r1")
                .orElseThrow();
        assertThat(bare.address()).isEqualTo("r1");
        assertThat(bare.port()).isEqualTo(22);
    }

    @Test
    void ansibleCfgGivesJumpUserForksAndTimeoutWhereTheCommandLineAndInventoryDoNot() throws IOException {
        Path cfg = write(
                "ansible.cfg",
                "[defaults]\nforks = 7\ntimeout = 3\nremote_user = deploy\n"
                        + "[ssh_connection]\nssh_args = -o ProxyJump=ops@bastion:2222\n");
        write("hosts.ini", "[redis]\nr1\nr2 jump=other@hop ansible_user=ops\n");
        Probe probe = new Probe();
        picocli.CommandLine cmd =
                Main.commandLine(new AnsibleSettings(Map.of("ANSIBLE_CONFIG", cfg.toString()), dir, dir, true));
        cmd.addSubcommand("probe", probe);
        cmd.setDefaultValueProvider(
                new AnsibleSettings(Map.of("ANSIBLE_CONFIG", cfg.toString()), dir, dir, true).defaultValues());

        CliRun.of(cmd, "probe", "-F", "none", "-i", dir.resolve("hosts.ini").toString())
                .expectExit(0);

        assertThat(probe.forks).isEqualTo(7);
        assertThat(probe.options.connectTimeout()).isEqualTo(java.time.Duration.ofSeconds(3));
        Inventory inventory = probe.loaded;
        assertThat(inventory.host("r1").orElseThrow().jump()).contains("ops@bastion:2222");
        assertThat(inventory.host("r1").orElseThrow().user()).contains("deploy");
        assertThat(inventory.host("r2").orElseThrow().jump()).contains("other@hop");
        assertThat(inventory.host("r2").orElseThrow().user()).contains("ops");
    }
}
