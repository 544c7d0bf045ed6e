package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.steps.model.FileEdit;
import dev.fleetfix.steps.persist.SysctlBoot;
import dev.fleetfix.steps.persist.SysctlKey;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysctlStepTest {
    @TempDir
    Path dir;

    private static final List<SysctlKey> KEYS =
            List.of(new SysctlKey("vm.overcommit_memory", "1"), new SysctlKey("net.core.somaxconn", "4096"));

    private void plan(String step) {
        new Harness(dir, "r1").plan("- hosts: all\n  steps:\n    - audit: {}\n" + step, RunOptions.defaults());
    }

    @Test
    void keysAndNumbersAreReadFromThePlaybook() {
        plan("    - sysctl: {vm.overcommit_memory: 1, net/core/somaxconn: 1024, net.ipv4.ip_local_port_range: "
                + "\"1024   65000\"}\n");
        assertThat(new SysctlKey("net/core/somaxconn", "1024").name()).isEqualTo("net.core.somaxconn");
        assertThat(new SysctlKey("net.ipv4.conf.eth0/100.forwarding", "1").procPath())
                .isEqualTo("/proc/sys/net/ipv4/conf/eth0.100/forwarding");
        assertThat(new SysctlKey("net.ipv4.ip_local_port_range", "1024   65000").holds("1024\t65000\n"))
                .isTrue();
    }

    @Test
    void aBadKeyOrValueIsAnInputErrorNamingTheStepsLine() {
        assertThatThrownBy(() -> plan("    - sysctl: {\"vm.overcommit memory\": 1}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("play.yaml:4")
                .hasMessageContaining("'vm.overcommit memory' is not a sysctl name");
        assertThatThrownBy(() -> plan("    - sysctl: {net.core.somaxconn: lots}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("play.yaml:4")
                .hasMessageContaining("net.core.somaxconn: expected a number, was 'lots'");
        assertThatThrownBy(() -> plan("    - sysctl: {vm.overcommit_memory: 3}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("expected 0..2, was 3");
        assertThatThrownBy(() -> plan("    - sysctl: {kernel.domainname: \"a\\nvm.swappiness = 100\"}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("line break");
        assertThatThrownBy(() -> plan("    - sysctl: {../../etc/passwd: 1}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("not a sysctl name");
        assertThatThrownBy(() -> plan("    - sysctl: {}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("at least one KEY: VALUE");
    }

    @Test
    void theFileGetsOurKeysOnceAndASecondMergeChangesNothing() {
        String first = SysctlStep.merge(null, KEYS);
        assertThat(first).startsWith("# fleetfix").endsWith("vm.overcommit_memory = 1\nnet.core.somaxconn = 4096\n");
        assertThat(SysctlStep.merge(first, KEYS)).isEqualTo(first);

        String edited = "# mine\nvm.swappiness = 10\nvm/overcommit_memory=0\nvm.overcommit_memory = 2\n";
        String merged = SysctlStep.merge(edited, KEYS);
        assertThat(merged)
                .isEqualTo("# mine\nvm.swappiness = 10\nvm.overcommit_memory = 1\nnet.core.somaxconn = 4096\n");
        assertThat(SysctlStep.merge(merged, KEYS)).isEqualTo(merged);
    }

    @Test
    void theDiffShowsTheChangedLine() {
        String before = SysctlStep.merge(null, List.of(new SysctlKey("vm.overcommit_memory", "0")));
        FileEdit edit = new FileEdit(
                SysctlStep.FILE,
                java.util.Optional.of(before),
                SysctlStep.merge(before, KEYS),
                java.util.Optional.empty());
        assertThat(edit.changed()).isTrue();
        assertThat(edit.diff())
                .contains("--- a" + SysctlStep.FILE)
                .contains("-vm.overcommit_memory = 0\n")
                .contains("+vm.overcommit_memory = 1\n")
                .contains("+net.core.somaxconn = 4096\n");
    }

    private static SysctlBoot.ConfFile file(String path, String text) {
        return new SysctlBoot.ConfFile(path, path, text);
    }

    @Test
    void aLaterFileWinsAtBootWhateverItsDirectory() {
        List<SysctlBoot.ConfFile> listed = List.of(
                file("/etc/sysctl.d/90-fleetfix-redis.conf", SysctlStep.merge(null, KEYS)),
                file("/usr/lib/sysctl.d/95-vendor.conf", "# vendor\nnet.core.somaxconn = 128\n"),
                file("/usr/lib/sysctl.d/10-early.conf", "vm.overcommit_memory = 0\n"));
        assertThat(SysctlStep.overriddenAtBoot(listed, KEYS))
                .containsExactly("warning: /usr/lib/sysctl.d/95-vendor.conf:2 sets net.core.somaxconn = 128 and"
                        + " wins at boot over /etc/sysctl.d/90-fleetfix-redis.conf (read later)");
    }

    @Test
    void etcHidesTheSameNameElsewhereAndSysctlConfCountsThroughItsLink() {
        List<SysctlBoot.ConfFile> listed = List.of(
                file("/etc/sysctl.d/90-fleetfix-redis.conf", SysctlStep.merge(null, KEYS)),
                file("/etc/sysctl.d/95-vendor.conf", "# masked by the admin\n"),
                file("/usr/lib/sysctl.d/95-vendor.conf", "net.core.somaxconn = 128\n"),
                file("/lib/sysctl.d/95-vendor.conf", "net.core.somaxconn = 128\n"),
                new SysctlBoot.ConfFile("/etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.conf", "vm.overcommit_memory=0\n"),
                file("/etc/sysctl.conf", "vm.overcommit_memory=0\n"));
        assertThat(SysctlStep.overriddenAtBoot(listed, KEYS))
                .containsExactly("warning: /etc/sysctl.d/99-sysctl.conf:1 sets vm.overcommit_memory = 0 and wins at"
                        + " boot over /etc/sysctl.d/90-fleetfix-redis.conf (read later)");
        assertThat(SysctlBoot.bootOrder(listed))
                .extracting(SysctlBoot.ConfFile::path)
                .containsExactly(
                        "/etc/sysctl.d/90-fleetfix-redis.conf",
                        "/etc/sysctl.d/95-vendor.conf",
                        "/etc/sysctl.d/99-sysctl.conf");
    }

    @Test
    void anEarlierFileOrTheSameValueIsNoWarningAndGlobsMatch() {
        List<SysctlBoot.ConfFile> listed = List.of(
                file("/run/sysctl.d/10-early.conf", "net.core.somaxconn = 128\n"),
                file("/etc/sysctl.d/90-fleetfix-redis.conf", SysctlStep.merge(null, KEYS)),
                file("/usr/lib/sysctl.d/99-same.conf", "-vm.overcommit_memory = 1\n"),
                file("/etc/sysctl.conf", "net.core.*conn = 64\n"));
        assertThat(SysctlStep.overriddenAtBoot(listed, KEYS))
                .as("sysctl.conf without a link to it is read last, as sysctl --system does")
                .containsExactly("warning: /etc/sysctl.conf:1 sets net.core.*conn = 64 and wins at boot over"
                        + " /etc/sysctl.d/90-fleetfix-redis.conf (read later)");
    }

    @Test
    void theListingIsReadBack() {
        String out = "==> /etc/sysctl.d/99-sysctl.conf /etc/sysctl.conf <==\na = 1\n\n"
                + "==> /usr/lib/sysctl.d/50-x.conf /usr/lib/sysctl.d/50-x.conf <==\nb = 2\n\n";
        assertThat(SysctlBoot.parse(out))
                .containsExactly(
                        new SysctlBoot.ConfFile("/etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.conf", "a = 1\n\n"),
                        new SysctlBoot.ConfFile(
                                "/usr/lib/sysctl.d/50-x.conf", "/usr/lib/sysctl.d/50-x.conf", "b = 2\n\n\n"));
    }

    @Test
    void atLeastRaisesALowerValueAndNeverLowersAHostTunedHigher() throws Exception {
        Harness h = new Harness(dir, "low", "high");
        h.host("low").write("/proc/sys/net/core/somaxconn", "128\n");
        h.host("high").write("/proc/sys/net/core/somaxconn", "65535\n");

        h.run("- hosts: all\n  steps:\n    - sysctl: {net.core.somaxconn: {at_least: 4096}}\n");

        assertThat(h.host("low").read("/proc/sys/net/core/somaxconn")).hasValue("4096\n");
        assertThat(h.host("low").read(SysctlStep.FILE).orElseThrow()).contains("net.core.somaxconn = 4096\n");
        assertThat(h.result("low", "sysctl").facts()).containsEntry("net.core.somaxconn", "4096");
        // tuned higher: kept, in the running kernel and in the file a boot reads
        assertThat(h.host("high").read("/proc/sys/net/core/somaxconn")).hasValue("65535\n");
        assertThat(h.host("high").read(SysctlStep.FILE).orElseThrow()).contains("net.core.somaxconn = 65535\n");
        assertThat(h.result("high", "sysctl").facts()).containsEntry("net.core.somaxconn", "65535");
        assertThat(h.result("high", "sysctl").message()).doesNotContain("65535 → 4096");
    }

    @Test
    void atLeastIsOnlyForNumbers() {
        assertThatThrownBy(() -> plan("    - sysctl: {kernel.domainname: {at_least: 3}}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("play.yaml:4")
                .hasMessageContaining("kernel.domainname: at_least needs a parameter the kernel reads as one number");
        assertThatThrownBy(() -> plan("    - sysctl: {net.core.somaxconn: {at_most: 3}}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("expected a single value or {at_least: N}");
    }
}
