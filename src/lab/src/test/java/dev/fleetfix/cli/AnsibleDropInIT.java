package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabThp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Ansible repository's layout on the lab: a bare INI host list, the connection settings (user,
 * key, become) only in {@code group_vars/all.yml}, and addresses, ports and known_hosts only in an
 * ssh config given with {@code -F} or in the user's {@code ~/.ssh/config}, as {@code ssh} itself
 * would read them. HOME is a temporary directory, so no ~/.ssh/config or ~/.ansible.cfg of the
 * machine is read. drop-1 and drop-2 are audited and checked; drop-3 is changed for real.
 */
class AnsibleDropInIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("drop-1").withThp(LabThp.ALWAYS),
            LabHostSpec.named("drop-2").withThp(LabThp.NEVER).withThpDefrag(LabThp.NEVER),
            LabHostSpec.named("drop-3").withThp(LabThp.ALWAYS).withThpDefrag(LabThp.ALWAYS));

    /** Writes the sysfs THP files and a systemd unit: the login user (fleetfix) may do neither without sudo. */
    private static final String THP_NEVER_PLAYBOOK =
            """
            - name: THP never, persisted
              hosts: all
              steps:
                - thp: {enabled: never, defrag: never}
                - persist_thp: {method: auto}
            """;

    @TempDir
    static Path repo;

    @BeforeAll
    static void startFleetAndWriteTheRepository() throws IOException {
        Files.writeString(repo.resolve("hosts"), "[redis]\ndrop-1\ndrop-2\n");
        Files.createDirectories(repo.resolve("group_vars"));
        Files.writeString(
                repo.resolve("group_vars/all.yml"),
                "ansible_user: " + fleet.user() + "\n"
                        + "ansible_ssh_private_key_file: '" + fleet.privateKey() + "'\n"
                        + "ansible_become: true\n");
        StringBuilder ssh = new StringBuilder();
        for (LabHost host : fleet.hosts()) {
            ssh.append("Host ").append(host.name()).append('\n');
            ssh.append("    HostName ").append(host.address()).append('\n');
            ssh.append("    Port ").append(host.sshPort()).append('\n');
        }
        ssh.append("Host *\n    UserKnownHostsFile ")
                .append(fleet.knownHostsFile())
                .append('\n');
        ssh.append("    User nobody-should-win-over-group-vars\n");
        Files.writeString(repo.resolve("ssh_config"), ssh.toString());
        Files.createDirectories(repo.resolve("home"));

        // drop-3's repository: the user's ~/.ssh/config instead of -F, and a copy without become to compare
        Files.writeString(repo.resolve("hosts-3"), "[redis]\ndrop-3\n");
        Files.createDirectories(repo.resolve("ssh-home/.ssh"));
        Files.writeString(repo.resolve("ssh-home/.ssh/config"), ssh.toString());
        Files.createDirectories(repo.resolve("no-become/group_vars"));
        Files.writeString(repo.resolve("no-become/hosts-3"), "[redis]\ndrop-3\n");
        Files.writeString(
                repo.resolve("no-become/group_vars/all.yml"),
                Files.readString(repo.resolve("group_vars/all.yml")).replace("ansible_become: true\n", ""));
        // in a folder of its own: group_vars next to a playbook apply too, as in Ansible, and the repository's
        // all.yml (with become) would then reach the copy without become
        Files.createDirectories(repo.resolve("playbooks"));
        Files.writeString(repo.resolve("playbooks/thp-never.yaml"), THP_NEVER_PLAYBOOK);
    }

    private static CliRun fleetfix(String... args) {
        return fleetfixWithHome(repo.resolve("home"), args);
    }

    private static CliRun fleetfixWithHome(Path home, String... args) {
        AnsibleSettings settings = new AnsibleSettings(Map.of(), home, home, true);
        CliRun run = CliRun.of(Main.commandLine(settings), args);
        System.out.println(run);
        return run;
    }

    @Test
    void auditReachesEveryHostOfABareIniListThroughGroupVarsAndTheSshConfig() throws IOException {
        CliRun run = fleetfix(
                "audit",
                "-i",
                repo.resolve("hosts").toString(),
                "-F",
                repo.resolve("ssh_config").toString(),
                "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        JsonNode hosts = JSON.readTree(run.stdout()).path("hosts");
        List<String> verdicts = new ArrayList<>();
        hosts.forEach(h ->
                verdicts.add(h.path("host").asText() + " " + h.path("verdict").asText()));
        assertThat(verdicts).as(run.toString()).hasSize(2).noneMatch(v -> v.contains("unreachable"));
        assertThat(run.stdout()).contains("drop-1").contains("drop-2");
    }

    @Test
    void applyCheckPlansTheThpChangeOnlyWhereItIsNeeded() {
        CliRun run = fleetfix(
                "apply",
                ShippedPlaybook.thpOffBrief(repo.resolve("brief")).toString(),
                "-i",
                repo.resolve("hosts").toString(),
                "-F",
                repo.resolve("ssh_config").toString(),
                "--check",
                "--no-color",
                "--run-dir",
                repo.resolve("run-check").toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.CHANGES_PENDING);
        assertThat(run.stdout().lines().filter(l -> l.matches("drop-[12] : .*")))
                .as(run.toString())
                .hasSize(2)
                .allMatch(l -> l.contains("unreachable=0") && l.contains("failed=0"));
    }

    @Test
    void withoutTheSshConfigTheNamesDoNotResolveAndNothingIsAudited() {
        CliRun run = fleetfix("audit", "-i", repo.resolve("hosts").toString(), "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        assertThat(run.stdout()).contains("unreachable");
    }

    @Test
    void hostKeyCheckingFalseInAnsibleCfgTrustsNewHostsOnFirstUseAndRecordsThem() throws IOException {
        Path cwd = Files.createDirectories(repo.resolve("with-cfg"));
        Files.writeString(cwd.resolve("ansible.cfg"), "[defaults]\nhost_key_checking = False\n");
        Path fresh = repo.resolve("fresh_known_hosts");
        String sshConfig = Files.readString(repo.resolve("ssh_config"))
                .replace(fleet.knownHostsFile().toString(), fresh.toString());
        Path config = Files.writeString(repo.resolve("ssh_config_fresh"), sshConfig);
        AnsibleSettings settings = new AnsibleSettings(Map.of(), cwd, repo.resolve("home"), true);

        CliRun run = CliRun.of(
                Main.commandLine(settings),
                "audit",
                "-i",
                repo.resolve("hosts").toString(),
                "-F",
                config.toString(),
                "--json");
        System.out.println(run);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
        assertThat(run.stdout()).doesNotContain("\"verdict\" : \"unreachable\"");
        assertThat(run.stderr()).contains("host_key_checking = False").contains("accept-new");
        String recorded = Files.readString(fresh);
        for (String host : List.of("drop-1", "drop-2")) {
            assertThat(recorded).contains(fleet.host(host).address());
        }
    }

    /**
     * A real apply whose writes need root, with {@code ansible_become} only in group_vars/all.yml and the
     * connection only in ~/.ssh/config (no -F): the same run from a copy of the repository whose all.yml lacks
     * become is refused by the host, so it is group_vars' become that made the change.
     */
    @Test
    void applyChangesThpAsRootBecauseGroupVarsSayBecomeWithTheHomeSshConfig() {
        Path home = repo.resolve("ssh-home");
        CliRun refused = fleetfixWithHome(
                home,
                "apply",
                repo.resolve("playbooks/thp-never.yaml").toString(),
                "-i",
                repo.resolve("no-become/hosts-3").toString(),
                "--no-color",
                "--run-dir",
                repo.resolve("run-no-become").toString());

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.FINDINGS);
        assertThat(refused.stdout())
                .as(refused.toString())
                .contains("failed: [drop-3]")
                .contains("Permission denied")
                .containsPattern("drop-3 +: .*failed=1 .*unreachable=0");
        assertThat(fleet.thp("drop-3")).contains("[always]");

        CliRun run = fleetfixWithHome(
                home,
                "apply",
                repo.resolve("playbooks/thp-never.yaml").toString(),
                "-i",
                repo.resolve("hosts-3").toString(),
                "--no-color",
                "--run-dir",
                repo.resolve("run-become").toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        assertThat(run.stdout())
                .as(run.toString())
                .containsPattern("drop-3 +: .*changed=[1-9]\\d* +failed=0 .*unreachable=0");
        assertThat(fleet.thp("drop-3").strip()).isEqualTo("never");
        assertThat(fleet.rootExec("drop-3", "cat /sys/kernel/mm/transparent_hugepage/defrag")
                        .stdout()
                        .strip())
                .isEqualTo("never");
        assertThat(fleet.rootExec(
                                "drop-3",
                                "systemctl is-enabled fleetfix-thp.service; stat -c %U"
                                        + " /etc/systemd/system/fleetfix-thp.service")
                        .stdout())
                .isEqualTo("enabled\nroot\n");
    }
}
