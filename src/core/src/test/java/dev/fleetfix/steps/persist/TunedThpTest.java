package dev.fleetfix.steps.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.BootSource;
import dev.fleetfix.checks.HostAuditor;
import dev.fleetfix.checks.HostFacts;
import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** persist_thp on a host whose enabled tuned would put THP back at every start. */
class TunedThpTest {
    @TempDir
    Path dir;

    private static final String PERSIST = "- hosts: all\n  steps:\n    - persist_thp: {method: auto}\n";

    @Test
    void anEnabledTunedGetsAChildOfItsActiveProfileThatSetsTheModeAndItIsActivated() throws Exception {
        Harness h = new Harness(dir, "r1");
        FakeHost r1 = h.host("r1");
        r1.withTuned("throughput-performance", "transparent_hugepages=always", true);

        h.run(PERSIST);

        StepResult persist = h.result("r1", "persist_thp");
        assertThat(persist.status()).as(persist.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(persist.facts()).containsEntry("persist_thp.method", "systemd+tuned");
        assertThat(r1.read(PersistMethods.UNIT_PATH))
                .as("the boot unit too (defrag)")
                .isPresent();
        String conf = r1.read(TunedThp.CONF).orElseThrow();
        assertThat(conf)
                .contains("\ninclude=throughput-performance\n")
                .contains("\n[vm]\ntransparent_hugepages=never\n")
                .contains("# To undo: tuned-adm profile throughput-performance");
        assertThat(r1.calls()).contains("tuned-adm profile fleetfix-thp");
        assertThat(r1.read(TunedThp.ACTIVE_PROFILE)).hasValue("fleetfix-thp\n");
        assertThat(r1.read("/etc/tuned/throughput-performance/tuned.conf").orElseThrow())
                .as("the operator's profile is not touched")
                .contains("transparent_hugepages=always");

        // a second run finds our profile active: nothing changes, and it still includes the operator's
        h.run(PERSIST);
        StepResult again = h.result("r1", "persist_thp");
        assertThat(again.status()).as(again.message()).isEqualTo(StepStatus.OK);
        assertThat(r1.read(TunedThp.CONF)).hasValue(conf);
        assertThat(r1.calls()).containsOnlyOnce("tuned-adm profile fleetfix-thp");
    }

    @Test
    void aStoppedTunedIsSwitchedThroughItsActiveProfileFile() throws Exception {
        Harness h = new Harness(dir, "r1");
        FakeHost r1 = h.host("r1");
        r1.withTuned("virtual-guest", "dirty_ratio=30", false);

        h.run(PERSIST);

        assertThat(h.result("r1", "persist_thp").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(r1.read(TunedThp.ACTIVE_PROFILE)).hasValue("fleetfix-thp\n");
        assertThat(r1.read(TunedThp.PROFILE_MODE)).hasValue("manual\n");
        assertThat(r1.read(TunedThp.CONF).orElseThrow()).contains("include=virtual-guest\n");
        assertThat(r1.calls()).noneMatch(c -> c.startsWith("tuned-adm"));
    }

    @Test
    void checkModeForecastsTheProfileAndWritesNothing() throws Exception {
        Harness h = new Harness(dir, "r1");
        FakeHost r1 = h.host("r1");
        r1.withTuned("throughput-performance", "transparent_hugepages=always", true);
        Map<String, String> before = r1.snapshot();

        h.check(PERSIST);

        StepResult persist = h.result("r1", "persist_thp");
        assertThat(persist.status()).isEqualTo(StepStatus.CHANGED);
        assertThat(persist.changes()).anySatisfy(c -> assertThat(c.toString()).contains("fleetfix-thp"));
        assertThat(r1.snapshot()).isEqualTo(before);
    }

    @Test
    void aProfileNameThatIsNotOneIsRefusedAndNothingOfTunedIsWritten() throws Exception {
        Harness h = new Harness(dir, "r1");
        FakeHost r1 = h.host("r1");
        r1.withTuned("balanced", "", true);
        r1.write(TunedThp.ACTIVE_PROFILE, "balanced;reboot\n");

        h.run(PERSIST);

        StepResult persist = h.result("r1", "persist_thp");
        assertThat(persist.status()).isEqualTo(StepStatus.FAILED);
        assertThat(persist.message()).contains("'balanced;reboot', which is not a profile name");
        assertThat(r1.read(TunedThp.CONF)).isEmpty();
        assertThat(r1.calls()).noneMatch(c -> c.startsWith("tuned-adm"));
    }

    @Test
    void withoutTunedNothingOfItIsWrittenAndMethodTunedSaysWhy() throws Exception {
        Harness h = new Harness(dir, "r1");
        h.run(PERSIST);
        assertThat(h.result("r1", "persist_thp").facts()).containsEntry("persist_thp.method", "systemd");
        assertThat(h.host("r1").read(TunedThp.CONF)).isEmpty();

        h.run("- hosts: all\n  steps:\n    - persist_thp: {method: tuned}\n");
        StepResult tuned = h.result("r1", "persist_thp");
        assertThat(tuned.status()).isEqualTo(StepStatus.FAILED);
        assertThat(tuned.message()).contains("tuned is not installed or not enabled");
    }

    @Test
    void theAuditFollowsTheActiveProfilesIncludesAndSeesOurProfileWinAfterThePersist() throws Exception {
        // RHEL's virtual-guest sets no THP itself; the throughput-performance it includes does
        Harness h = new Harness(dir, "r1");
        FakeHost r1 = h.host("r1");
        r1.withTuned("virtual-guest", "dirty_ratio=30", true);
        r1.write("/etc/tuned/virtual-guest/tuned.conf", "[main]\ninclude=throughput-performance\n\n[vm]\n");
        r1.write("/etc/tuned/throughput-performance/tuned.conf", "[main]\n\n[vm]\ntransparent_hugepages=always\n");
        HostAuditor auditor = new HostAuditor();
        Host host = TestHosts.lab("r1", "127.0.0.11");

        HostFacts before = auditor.audit(host, r1.shell(), r1.redis()).facts().orElseThrow();
        assertThat(before.boot().activeSources()).contains(BootSource.TUNED);
        assertThat(before.boot().enabledAfterReboot()).contains(ThpMode.ALWAYS);

        h.run(PERSIST);

        HostFacts after = auditor.audit(host, r1.shell(), r1.redis()).facts().orElseThrow();
        assertThat(after.boot().enabledAfterReboot()).contains(ThpMode.NEVER);
    }

    @Test
    void theStateScriptsOutputIsReadAsTunedPrintsIt() {
        assertThat(TunedThp.parse("")).isEmpty();
        TunedThp.Tuned t = TunedThp.parse("installed\nenabled=enabled\nactive=active\nadm=yes\nprofile=a b\n")
                .orElseThrow();
        assertThat(t.appliesAtBoot()).isTrue();
        assertThat(t.running()).isTrue();
        assertThat(t.active()).containsExactly("a", "b");
        assertThat(TunedThp.parse("installed\nenabled=disabled\nactive=inactive\nprofile=\n")
                        .orElseThrow()
                        .appliesAtBoot())
                .isFalse();
        assertThat(TunedThp.included("[main]\ninclude = a, b\n")).containsExactly("a", "b");
        assertThat(TunedThp.profile(List.of("a", "b"), "never")).contains("include=a,b\n");
    }
}
