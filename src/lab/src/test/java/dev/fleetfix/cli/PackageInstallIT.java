package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabThp;
import dev.fleetfix.transport.ExecResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Debian package that {@code mvn package} builds, installed with apt into a clean Debian 12 lab host (the control
 * node), which then checks another lab host over SSH, as an operator would after {@code apt install
 * ./fleetfix_VERSION_all.deb}: its audit timer with Debian's node_exporter, and at the end its purge.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the purge comes last
class PackageInstallIT {
    private static final String CONTROL = "pkg-control";
    private static final String TARGET = "pkg-target";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named(CONTROL), LabHostSpec.named(TARGET).withThp(LabThp.ALWAYS));

    private static String deb;

    @BeforeAll
    static void installThePackageOnACleanHost() throws IOException {
        Path built = builtPackage();
        fleet.copyInto(CONTROL, built, "/tmp");
        deb = "/tmp/" + built.getFileName();
        root(CONTROL, "! command -v java && ! command -v fleetfix"); // clean: no Java, no fleetfix
        long started = System.nanoTime();
        root(
                CONTROL,
                "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq man-db " + deb
                        + " >/tmp/apt.log 2>&1 || { tail -40 /tmp/apt.log; exit 1; }");
        System.out.printf(
                "PackageInstallIT: apt install of %s (%d kB) with its Java runtime took %.1f s%n",
                built.getFileName(), Files.size(built) / 1024, (System.nanoTime() - started) / 1e9);
    }

    /**
     * The package of this build's version (the pom's, as Maven wrote it into version.properties), in Debian's
     * spelling (build-deb.sh: 0.1.0-SNAPSHOT is 0.1.0~SNAPSHOT). Packages of other versions left in target/ by
     * earlier builds are not this build's.
     */
    private static Path builtPackage() throws IOException {
        return builtPackage("src/cli", "fleetfix");
    }

    /** The package {@code name} of this build's version, which {@code module} builds in its target/. */
    private static Path builtPackage(String module, String name) throws IOException {
        Properties props = new Properties();
        try (InputStream in = PackageInstallIT.class.getResourceAsStream("/dev/fleetfix/version.properties")) {
            assertThat(in)
                    .as("version.properties, written by Maven from the pom")
                    .isNotNull();
            props.load(in);
        }
        String version = props.getProperty("version");
        Path deb = Path.of(module, "target", name + "_" + version.replace('-', '~') + "_all.deb");
        List<String> all;
        try (Stream<Path> files = Files.list(Path.of(module, "target"))) {
            all = files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".deb"))
                    .sorted()
                    .toList();
        }
        assertThat(deb)
                .as(
                        "mvn package builds %s for version %s (%s/src/packaging/deb); target/ has %s",
                        deb, version, module, all)
                .isRegularFile();
        return deb;
    }

    /** An inventory of the target host for the control node, whose key and known_hosts were copied into {@code dir}. */
    private static String inventory(String dir) {
        LabHost target = fleet.host(TARGET);
        return String.join(
                "\n",
                "all:",
                "  hosts:",
                "    " + TARGET + ":",
                "      ansible_host: " + target.address(),
                "      ansible_port: " + target.sshPort(),
                "      redis_port: " + target.redisPort(),
                "      ansible_user: " + fleet.user(),
                "      ansible_ssh_private_key_file: " + dir + "/"
                        + fleet.privateKey().getFileName(),
                "      known_hosts_file: " + dir + "/" + fleet.knownHostsFile().getFileName(),
                "      ansible_become: true",
                "");
    }

    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode())
                .as("%s on %s:%n%s%n%s", command, host, result.stdout(), result.stderr())
                .isZero();
        return result.stdout();
    }

    @Test
    void fleetfixIsOnThePathWithItsVersionHelpManPagesAndCompletion() {
        assertThat(root(CONTROL, "command -v fleetfix")).isEqualTo("/usr/bin/fleetfix\n");
        assertThat(root(CONTROL, "fleetfix --version")).contains("fleetfix");
        assertThat(root(CONTROL, "fleetfix audit --help"))
                .contains("Usage: fleetfix audit", "--format=FORMAT", "Exit codes:");
        assertThat(root(CONTROL, "MANWIDTH=100 man -P cat fleetfix-apply 2>/dev/null"))
                .contains("NAME", "fleetfix-apply", "SYNOPSIS", "--check");
        assertThat(root(CONTROL, "man -w fleetfix")).contains("/usr/share/man/man1/fleetfix.1.gz");
        assertThat(root(
                        CONTROL,
                        "bash -c 'source /usr/share/bash-completion/completions/fleetfix && complete -p"
                                + " fleetfix'"))
                .contains("fleetfix");
    }

    @Test
    void theLabIsAPackageOfItsOwnThatAddsFleetfixLab() throws IOException {
        // the operator's package has no lab and no Docker client; the lab's package adds the command
        ExecResult without = fleet.rootExec(CONTROL, "fleetfix lab status");
        assertThat(without.exitCode())
                .as("%s%n%s", without.stdout(), without.stderr())
                .isEqualTo(2);
        assertThat(without.stderr()).contains("the lab plug-in, which is not installed");
        Path lab = builtPackage("src/lab", "fleetfix-lab");
        fleet.copyInto(CONTROL, lab, "/tmp");

        root(
                CONTROL,
                "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/"
                        + lab.getFileName() + " >/tmp/apt-lab.log 2>&1 || { tail -40 /tmp/apt-lab.log; exit 1; }");

        assertThat(root(CONTROL, "dpkg -L fleetfix-lab")).contains("/usr/share/fleetfix/lib/plugins/fleetfix-lab.jar");
        assertThat(root(CONTROL, "fleetfix lab --help")).contains("Usage: fleetfix lab", "up", "status", "down");
        assertThat(root(CONTROL, "fleetfix --help")).containsPattern("(?m)^\\s+lab\\s");
    }

    @Test
    void theInstalledToolChecksAnotherLabHostOverSsh() {
        fleet.copyInto(CONTROL, fleet.privateKey(), "/root");
        fleet.copyInto(CONTROL, fleet.knownHostsFile(), "/root");
        String inventory = inventory("/root");
        root(CONTROL, "cat > /root/inventory.yaml <<'EOF'\n" + inventory + "EOF");

        ExecResult check = fleet.rootExec(
                CONTROL,
                "cd /root && fleetfix apply /usr/share/doc/fleetfix/examples/playbooks/thp-off.yaml --check"
                        + " -i /root/inventory.yaml --no-color");

        assertThat(check.exitCode())
                .as(
                        "--check on a THP-always host has changes pending (exit 3):%n%s%n%s",
                        check.stdout(), check.stderr())
                .isEqualTo(3);
        assertThat(check.stdout()).contains(TARGET);
        assertThat(fleet.thp(TARGET)).as("check mode changed nothing").contains("[always]");
    }

    @Test
    @Order(1)
    void theTimerShippedDisabledAuditsAndNodeExporterServesTheMetricOnLoopback() {
        // what apt install made: the units (disabled), the system user, the commented inventory as a conffile
        assertThat(root(CONTROL, "dpkg -L fleetfix"))
                .contains(
                        "/usr/lib/systemd/system/fleetfix-audit.service",
                        "/usr/lib/systemd/system/fleetfix-audit.timer",
                        "/usr/share/doc/fleetfix/examples/prometheus/fleetfix.rules.yml");
        assertThat(fleet.rootExec(CONTROL, "systemctl is-enabled fleetfix-audit.timer")
                        .stdout())
                .isEqualTo("disabled\n");
        // postinst keeps a user of that name if there is one (the lab image's login user is called fleetfix too),
        // and gives it the state directory the service writes in
        root(CONTROL, "id fleetfix");
        assertThat(root(CONTROL, "stat -c '%U %G %a' /var/lib/fleetfix")).isEqualTo("fleetfix fleetfix 750\n");
        assertThat(root(CONTROL, "dpkg-query -W -f='${Conffiles}' fleetfix")).contains("/etc/fleetfix/inventory.yaml");
        assertThat(root(CONTROL, "grep -v '^#' /etc/fleetfix/inventory.yaml | grep -c . || true"))
                .isEqualTo("0\n");
        // Debian's node_exporter, whose textfile directory only root may write
        root(
                CONTROL,
                "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends"
                        + " prometheus-node-exporter curl >/tmp/apt-ne.log 2>&1 || { tail -40 /tmp/apt-ne.log; exit 1; }"
                        + " && systemctl enable --now prometheus-node-exporter >/dev/null 2>&1");
        assertThat(root(CONTROL, "stat -c '%U %a' /var/lib/prometheus/node-exporter"))
                .isEqualTo("root 755\n");

        // the operator's part (docs/audit.md): the key and known_hosts for the fleetfix user, the inventory, enable
        root(CONTROL, "install -d /var/lib/fleetfix/.ssh");
        fleet.copyInto(CONTROL, fleet.privateKey(), "/var/lib/fleetfix/.ssh");
        fleet.copyInto(CONTROL, fleet.knownHostsFile(), "/var/lib/fleetfix/.ssh");
        String inventory = inventory("/var/lib/fleetfix/.ssh");
        root(
                CONTROL,
                "set -e\ncat > /etc/fleetfix/inventory.yaml <<'EOF'\n" + inventory + "EOF\n"
                        + "chown -R fleetfix:fleetfix /var/lib/fleetfix/.ssh && chmod 0700 /var/lib/fleetfix/.ssh\n"
                        + "systemd-analyze verify /usr/lib/systemd/system/fleetfix-audit.service"
                        + " /usr/lib/systemd/system/fleetfix-audit.timer\n"
                        + "systemctl enable --now fleetfix-audit.timer");

        ExecResult run = fleet.rootExec(CONTROL, "systemctl start fleetfix-audit.service");
        String journal = fleet.rootExec(
                        CONTROL,
                        "sleep 1; systemctl status fleetfix-audit.service --no-pager -l; journalctl --no-pager -n 60"
                                + " -o cat _SYSTEMD_UNIT=fleetfix-audit.service")
                .stdout();
        assertThat(run.exitCode())
                .as("the service ran (exit 1, hosts at risk, counts as success):%n%s", journal)
                .isZero();
        assertThat(root(CONTROL, "stat -c '%U %a' /var/lib/prometheus/node-exporter/fleetfix.prom"))
                .isEqualTo("root 644\n");
        // node_exporter reads the file and serves it on its HTTP endpoint (it may still be starting: a few tries)
        String scraped = root(
                CONTROL,
                "for i in $(seq 1 30); do curl -fsS http://127.0.0.1:9100/metrics 2>/dev/null | grep '^fleetfix_'"
                        + " && exit 0; sleep 1; done; exit 1");
        assertThat(scraped)
                .contains(
                        "fleetfix_thp_enabled{host=\"" + TARGET + "\",mode=\"always\"} 1",
                        "fleetfix_build_info{version=",
                        "fleetfix_audit_duration_seconds ");
        assertThat(root(CONTROL, "systemctl list-timers fleetfix-audit.timer --no-pager"))
                .contains("fleetfix-audit.timer");
    }

    @Test
    @Order(Integer.MAX_VALUE - 1)
    void removeStopsTheEnabledTimerAndItsMetricsAndLeavesNothingFailed() {
        // the timer as an operator leaves it: enabled by hand, run once, its metrics published (the test above)
        root(CONTROL, "systemctl enable --now fleetfix-audit.timer && systemctl start fleetfix-audit.service || true");
        assertThat(root(CONTROL, "systemctl is-enabled fleetfix-audit.timer")).isEqualTo("enabled\n");

        root(
                CONTROL,
                "DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq fleetfix-lab fleetfix >/tmp/apt-remove.log 2>&1"
                        + " || { tail -40 /tmp/apt-remove.log; exit 1; }");

        assertThat(root(
                        CONTROL,
                        "systemctl list-units --all --failed --plain --no-legend | grep fleetfix-audit || true"))
                .as("no fleetfix unit is failed after apt remove")
                .isEmpty();
        assertThat(fleet.rootExec(CONTROL, "systemctl is-active fleetfix-audit.timer")
                        .stdout())
                .isNotEqualTo("active\n");
        assertThat(root(CONTROL, "ls -A /var/lib/prometheus/node-exporter/ 2>/dev/null || true"))
                .as("no stale metrics once the audit that refreshed them is gone")
                .doesNotContain("fleetfix");
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void purgeLeavesNothingOfEitherPackage() {
        root(
                CONTROL,
                // dpkg, not apt: the test above removed both, and apt knows no removed package without conffiles
                "DEBIAN_FRONTEND=noninteractive dpkg --purge fleetfix-lab fleetfix >/tmp/apt-purge.log 2>&1"
                        + " || { tail -40 /tmp/apt-purge.log; exit 1; }");

        assertThat(root(CONTROL, "dpkg-query -W -f='${db:Status-Abbrev}' fleetfix fleetfix-lab 2>&1 || true"))
                .doesNotContain("ii", "rc");
        assertThat(root(
                        CONTROL,
                        "for f in /usr/bin/fleetfix /usr/share/fleetfix /etc/fleetfix /var/lib/fleetfix"
                                + " /usr/lib/systemd/system/fleetfix-audit.timer"
                                + " /etc/systemd/system/fleetfix-audit.timer"
                                + " /etc/systemd/system/timers.target.wants/fleetfix-audit.timer"
                                + " /var/lib/systemd/timers/stamp-fleetfix-audit.timer"
                                + " /var/lib/prometheus/node-exporter/fleetfix.prom; do [ -e $f ] || [ -L $f ] &&"
                                + " echo $f; done; true"))
                .isEmpty();
        assertThat(root(CONTROL, "systemctl list-units --all --plain --no-legend | grep fleetfix-audit || true"))
                .as("systemd knows no fleetfix unit after purge")
                .isEmpty();
        assertThat(root(CONTROL, "grep -rl fleetfix /var/lib/systemd/deb-systemd-helper-enabled 2>/dev/null || true"))
                .isEmpty();
    }
}
