package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AuditRulesTest {
    private static final String ENDPOINT = "127.0.0.11:6379";

    static RedisFacts redis(String version, Optional<Boolean> disableThp, int backlog) {
        return new RedisFacts(
                ENDPOINT,
                Optional.empty(),
                Optional.of(version),
                Optional.of("master"),
                disableThp,
                OptionalInt.of(backlog),
                OptionalLong.of(4242));
    }

    static final RedisFacts REDIS_7 = redis("7.0.15", Optional.of(true), 511);
    static final RedisFacts REDIS_5 = redis("5.0.14", Optional.empty(), 511);

    private static HostAudit judge(FactOutput output, RedisFacts redis) {
        return AuditRules.judge(FactScript.parse("lab-1", output.text(), redis));
    }

    private static FactOutput always() {
        return FactOutput.debian12()
                .set("thp.enabled", "[always] madvise never")
                .set("systemd");
    }

    @Test
    void aHostWithThpNeverPersistedAndSaneSysctlsIsOk() {
        HostAudit audit = judge(FactOutput.debian12(), REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings()).isEmpty();
        assertThat(audit.facts()).isPresent();
    }

    @Test
    void thpAlwaysWithRedisOptingOutIsLowRiskAdvice() {
        HostAudit audit = judge(always(), REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("THP is [always], but Redis 7.0 runs with disable-thp yes: low risk for Redis; set"
                        + " never or madvise for the rest of the host");
        assertThat(audit.findings().get(0).severity()).isEqualTo(Finding.Severity.ADVICE);
    }

    @Test
    void thpAlwaysWithARedisThatCannotOptOutOnAnOldKernelRisksForkSpikes() {
        HostAudit audit = judge(always().set("kernel", "4.19.0-25-amd64"), REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("THP is [always] and Redis 5.0 cannot opt out: latency spikes on fork (BGSAVE, AOF"
                        + " rewrite): kernel 4.19.0-25-amd64 copies whole 2 MiB pages on write after fork; set never");
    }

    /** Regression: the spikes were claimed on every kernel, though 5.8+ copies 4 KiB after fork. */
    @Test
    void onAKernelFrom5Point8TheRiskIsMemoryNotForkSpikes() {
        HostAudit audit = judge(always(), REDIS_5); // Debian 12: 6.1

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings().get(0).text())
                .doesNotContain("latency spikes")
                .contains("memory bloat and fragmentation")
                .contains("kernel 6.1.0-18-amd64 (5.8+ copies 4 KiB, not 2 MiB, on write after fork)");
        assertThat(judge(always().set("kernel", "5.8.0"), REDIS_5)
                        .findings()
                        .get(0)
                        .text())
                .doesNotContain("latency spikes");
        assertThat(judge(always().set("kernel", "5.7.19"), REDIS_5)
                        .findings()
                        .get(0)
                        .text())
                .contains("latency spikes on fork");
    }

    @Test
    void thpAlwaysWithDisableThpNoIsAtRisk() {
        HostAudit audit =
                judge(always().set("kernel", "3.10.0-1160.el7.x86_64"), redis("7.2.4", Optional.of(false), 511));

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings().get(0).text())
                .startsWith("THP is [always] and Redis 7.2 runs with disable-thp no: latency spikes on fork");
    }

    @Test
    void madviseDoesNotExposeRedis() {
        HostAudit audit = judge(
                FactOutput.debian12()
                        .set("thp.enabled", "always [madvise] never")
                        .set("systemd")
                        .set("kconfig", "CONFIG_TRANSPARENT_HUGEPAGE_MADVISE=y"),
                REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings()).isEmpty();
    }

    @Test
    void hugePagesHeldByRedisAreARisk() {
        HostAudit audit = judge(FactOutput.debian12().set("smaps", "kb 421888"), REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("Redis holds 412 MB of huge pages (AnonHugePages)");
    }

    @Test
    void overcommitOtherThanOneIsARisk() {
        HostAudit audit = judge(FactOutput.debian12().set("overcommit", "0"), REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("vm.overcommit_memory is 0: BGSAVE may fail under memory pressure; set 1");
    }

    @Test
    void somaxconnBelowTheBacklogIsARisk() {
        HostAudit audit = judge(FactOutput.debian12().set("somaxconn", "128"), REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly(
                        "net.core.somaxconn 128 is below Redis tcp-backlog 511: the kernel silently truncates the backlog");
    }

    @Test
    void somaxconnEqualToTheBacklogIsFine() {
        HostAudit audit = judge(FactOutput.debian12().set("somaxconn", "511"), REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
    }

    @Test
    void neverThatIsNotPersistedComesBackAsAlwaysAndIsARiskForOldRedis() {
        FactOutput notPersisted = FactOutput.debian12().set("systemd");

        HostAudit old = judge(notPersisted, REDIS_5);
        HostAudit optingOut = judge(notPersisted, REDIS_7);

        assertThat(old.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(old.findings())
                .extracting(Finding::text)
                .containsExactly("THP setting is not persisted: it will return to [always] after reboot");
        assertThat(optingOut.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(optingOut.findings()).extracting(Finding::severity).containsExactly(Finding.Severity.ADVICE);
    }

    @Test
    void neverNotPersistedWithAnUnknownKernelDefaultIsAdvice() {
        HostAudit audit = judge(FactOutput.debian12().set("systemd").set("kconfig"), REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("THP setting is not persisted: nothing sets [never] at boot, so it returns to the"
                        + " kernel's default after reboot");
    }

    @Test
    void aDisabledUnitDoesNotPersist() {
        HostAudit audit = judge(
                FactOutput.debian12()
                        .set(
                                "systemd",
                                FactOutput.hit(
                                        "/etc/systemd/system/thp.service",
                                        "disabled",
                                        "ExecStart=/bin/sh -c 'echo never > /sys/kernel/mm/transparent_hugepage/enabled'")),
                REDIS_5);

        assertThat(audit.findings()).extracting(Finding::code).containsExactly("thp-not-persisted");
    }

    @Test
    void grubPersistsNever() {
        HostAudit audit = judge(
                FactOutput.debian12()
                        .set("systemd")
                        .set(
                                "grub",
                                FactOutput.hit(
                                        "/etc/default/grub.d/thp.cfg",
                                        "active",
                                        "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT transparent_hugepage=never\"")),
                REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
    }

    @Test
    void redisDownWhileTheHostAnswersIsAtRiskNotUnreachable() {
        HostAudit audit = judge(
                FactOutput.debian12().set("redis.pid", "pidof ").without("smaps"),
                RedisFacts.unreachable(ENDPOINT, "connection refused"));

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("Redis is not answering on 127.0.0.11:6379: connection refused");
    }

    @Test
    void aRedisThatRefusesOurPasswordIsNamedAsSuch() {
        HostAudit audit = judge(
                FactOutput.debian12(),
                RedisFacts.authFailed(
                        ENDPOINT, "authentication failed: WRONGPASS invalid username-password pair (user ops)"));

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::code, Finding::text)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "redis-auth",
                        "Redis on 127.0.0.11:6379 runs but refused fleetfix's credentials: authentication failed:"
                                + " WRONGPASS invalid username-password pair (user ops); check redis_user and the"
                                + " redis_password source"));
    }

    @Test
    void smapsUnreadableWithoutRootIsAdviceThatNamesBecome() {
        HostAudit audit = judge(
                FactOutput.debian12()
                        .set("uid", "1000")
                        .set("smaps", "error awk: cannot open /proc/4242/smaps_rollup (Permission denied)"),
                REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("Redis's AnonHugePages could not be read (pid 4242): awk: cannot open"
                        + " /proc/4242/smaps_rollup (Permission denied); reading it needs root (set become for this"
                        + " host)");
    }

    @Test
    void aHostWithoutThpHasNoThpFinding() {
        HostAudit audit = judge(
                FactOutput.debian12()
                        .set("thp.dir")
                        .without("thp.enabled")
                        .without("thp.defrag")
                        .set("systemd"),
                REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings()).isEmpty();
    }

    @Test
    void risksComeBeforeAdvice() {
        HostAudit audit = judge(
                always().set("thp.defrag", "[always] defer defer+madvise madvise never")
                        .set("overcommit", "0"),
                REDIS_7);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .extracting(Finding::code)
                .containsExactly("overcommit", "thp-low-risk", "thp-defrag");
    }

    /** Regression: a THP file bind-mounted over sysfs (a container's own view) was judged as the kernel's. */
    @Test
    void aThpFileThatIsNotTheKernelsClaimsNoEraCostAndSaysWhy() {
        HostAudit audit = judge(
                always().set("kernel", "4.19.0-25-amd64").set("thp.fs", "statfs overlay", "mountinfo overlay"),
                REDIS_5);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings()).extracting(Finding::code).containsExactly("thp-exposed", "thp-not-kernel");
        assertThat(audit.findings().get(0).text())
                .doesNotContain("latency spikes")
                .doesNotContain("memory bloat")
                .contains("depends on the kernel's own setting, which this file is not");
        Finding note = audit.findings().get(1);
        assertThat(note.severity()).isEqualTo(Finding.Severity.ADVICE);
        assertThat(note.text())
                .startsWith("THP under /sys/kernel/mm/transparent_hugepage is not the kernel's (on overlay, not"
                        + " sysfs): the setting here does not reach the kernel, so changing it cannot change what"
                        + " Redis gets");
    }

    @Test
    void aThpFileOnSysfsOrOfUnknownFilesystemGetsNoSuchNote() {
        assertThat(judge(always(), REDIS_5).findings())
                .extracting(Finding::code)
                .doesNotContain("thp-not-kernel");
        assertThat(judge(always().without("thp.fs"), REDIS_5).findings())
                .extracting(Finding::code)
                .doesNotContain("thp-not-kernel");
        assertThat(judge(FactOutput.debian12().set("thp.fs", "statfs ext4"), REDIS_5)
                        .findings())
                .extracting(Finding::code)
                .containsExactly("thp-not-kernel");
    }
}
