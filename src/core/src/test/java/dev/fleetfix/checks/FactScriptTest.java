package dev.fleetfix.checks;

import static dev.fleetfix.checks.FactOutput.hit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FactScriptTest {
    private static final RedisFacts REDIS = RedisFacts.unreachable("127.0.0.1:6379", "connection refused");

    private static HostFacts parse(FactOutput output) {
        return FactScript.parse("lab-1", output.text(), REDIS);
    }

    @Test
    void readsTheKernelFormat() {
        HostFacts facts = parse(FactOutput.debian12()
                .set("thp.enabled", "[always] madvise never")
                .set("thp.defrag", "always defer [defer+madvise] madvise never"));

        assertThat(facts.kernelRelease()).isEqualTo("6.1.0-18-amd64");
        assertThat(facts.thp().sysfsDir()).contains("/sys/kernel/mm/transparent_hugepage");
        assertThat(facts.thp().enabled()).contains(ThpMode.ALWAYS);
        assertThat(facts.thp().defrag()).contains(ThpMode.DEFER_MADVISE);
        assertThat(facts.root()).isTrue();
        assertThat(facts.overcommitMemory()).isEqualTo(OptionalInt.of(1));
        assertThat(facts.somaxconn()).isEqualTo(OptionalInt.of(4096));
    }

    @Test
    void readsABareWord() {
        HostFacts facts =
                parse(FactOutput.debian12().set("thp.enabled", "never").set("thp.defrag", "madvise"));

        assertThat(facts.thp().enabled()).contains(ThpMode.NEVER);
        assertThat(facts.thp().defrag()).contains(ThpMode.MADVISE);
    }

    @Test
    void readsTheRhel6Directory() {
        HostFacts facts = parse(FactOutput.debian12()
                .set("kernel", "2.6.32-504.el6.x86_64")
                .set("thp.dir", ThpFacts.RHEL6_DIR)
                .set("thp.enabled", "[always] madvise never")
                .set("thp.defrag", "[always] madvise never"));

        assertThat(facts.kernelRelease()).isEqualTo("2.6.32-504.el6.x86_64");
        assertThat(facts.thp().sysfsDir()).contains("/sys/kernel/mm/redhat_transparent_hugepage");
        assertThat(facts.thp().enabled()).contains(ThpMode.ALWAYS);
    }

    @Test
    void withoutEitherDirectoryThpIsUnsupported() {
        HostFacts facts = parse(
                FactOutput.debian12().set("thp.dir").without("thp.enabled").without("thp.defrag"));

        assertThat(facts.thp().supported()).isFalse();
        assertThat(facts.thp().enabled()).contains(ThpMode.UNSUPPORTED);
        assertThat(facts.thp().defrag()).contains(ThpMode.UNSUPPORTED);
    }

    @Test
    void anUnreadableModeIsUnknownNotAGuess() {
        HostFacts facts = parse(
                FactOutput.debian12().set("thp.enabled", "cat: /sys/kernel/mm/transparent_hugepage/enabled: denied"));

        assertThat(facts.thp().enabled()).isEmpty();
    }

    @Test
    void missingSysctlsAreEmpty() {
        HostFacts facts = parse(FactOutput.debian12().set("overcommit").set("somaxconn", "garbage"));

        assertThat(facts.overcommitMemory()).isEmpty();
        assertThat(facts.somaxconn()).isEmpty();
    }

    @Test
    void refusesOutputThatWasCutShort() {
        assertThatThrownBy(() -> FactScript.parse("lab-1", FactOutput.debian12().truncated(), REDIS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lab-1")
                .hasMessageContaining("incomplete");
    }

    @Test
    void findsEveryBootSourceAndWhichAreActive() {
        HostFacts facts = parse(FactOutput.debian12()
                .set("cmdline", "BOOT_IMAGE=/vmlinuz ro transparent_hugepage=never quiet")
                .set(
                        "grub",
                        hit("/etc/default/grub", "active", "#GRUB_CMDLINE_LINUX=\"transparent_hugepage=always\""),
                        hit("/etc/default/grub", "active", "GRUB_CMDLINE_LINUX=\"quiet transparent_hugepage=never\""))
                .set(
                        "systemd",
                        hit(
                                "/etc/systemd/system/thp.service",
                                "disabled",
                                "ExecStart=/bin/sh -c 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled"
                                        + " && echo never > /sys/kernel/mm/transparent_hugepage/defrag'"))
                .set(
                        "tmpfiles",
                        hit(
                                "/etc/tmpfiles.d/thp.conf",
                                "active",
                                "w /sys/kernel/mm/transparent_hugepage/enabled - - - - never"))
                .set(
                        "rc.local",
                        hit(
                                "/etc/rc.local",
                                "not-executable",
                                "echo always > /sys/kernel/mm/redhat_transparent_hugepage/enabled"))
                .set("sysfs", hit("/etc/sysfs.conf", "active", "kernel/mm/transparent_hugepage/enabled = never"))
                .set(
                        "tuned",
                        hit(
                                "/usr/lib/tuned/throughput-performance/tuned.conf",
                                "enabled",
                                "transparent_hugepages=always")));

        List<BootSetting> settings = facts.boot().settings();
        assertThat(settings)
                .extracting(BootSetting::source, s -> s.mode().orElseThrow(), BootSetting::target, BootSetting::active)
                .containsExactly(
                        tuple(BootSource.KERNEL_CMDLINE, ThpMode.NEVER, "enabled", true),
                        tuple(BootSource.GRUB, ThpMode.NEVER, "enabled", true),
                        tuple(BootSource.SYSTEMD, ThpMode.MADVISE, "enabled", false),
                        tuple(BootSource.SYSTEMD, ThpMode.NEVER, "defrag", false),
                        tuple(BootSource.TMPFILES, ThpMode.NEVER, "enabled", true),
                        tuple(BootSource.RC_LOCAL, ThpMode.ALWAYS, "enabled", false),
                        tuple(BootSource.SYSFS_CONF, ThpMode.NEVER, "enabled", true),
                        tuple(BootSource.TUNED, ThpMode.ALWAYS, "enabled", true));
        assertThat(settings.get(1).file()).isEqualTo("/etc/default/grub");
        // tuned runs last and wins over the kernel command line
        assertThat(facts.boot().enabledAfterReboot()).contains(ThpMode.ALWAYS);
        assertThat(facts.boot().activeSources())
                .containsExactly(
                        BootSource.KERNEL_CMDLINE,
                        BootSource.GRUB,
                        BootSource.TMPFILES,
                        BootSource.SYSFS_CONF,
                        BootSource.TUNED);
    }

    @Test
    void aUnitFoundUnderEtcAndLibCountsOnce() {
        String line = "ExecStart=/bin/sh -c 'echo never > /sys/kernel/mm/transparent_hugepage/enabled'";
        HostFacts facts = parse(FactOutput.debian12()
                .set(
                        "systemd",
                        hit("/etc/systemd/system/thp.service", "enabled", line),
                        hit("/lib/systemd/system/thp.service", "enabled", line),
                        hit("/usr/lib/systemd/system/thp.service", "enabled", line)));

        assertThat(facts.boot().settings()).hasSize(1);
        assertThat(facts.boot().settings().get(0).file()).isEqualTo("/etc/systemd/system/thp.service");
    }

    @Test
    void aLineThatNamesNoModeIsNotASetting() {
        HostFacts facts = parse(FactOutput.debian12()
                .set("systemd", hit("/etc/systemd/system/thp.service", "enabled", "Description=transparent_hugepage")));

        assertThat(facts.boot().settings()).isEmpty();
        assertThat(facts.boot().persisted()).isFalse();
    }

    @Test
    void theKernelDefaultDecidesWhenNothingSetsThp() {
        HostFacts facts =
                parse(FactOutput.debian12().set("systemd").set("kconfig", "CONFIG_TRANSPARENT_HUGEPAGE_MADVISE=y"));

        assertThat(facts.boot().persisted()).isFalse();
        assertThat(facts.boot().enabledAfterReboot()).contains(ThpMode.MADVISE);
        assertThat(facts.boot().kernelDefault()).contains(ThpMode.MADVISE);
    }

    @Test
    void readsRedisHugePages() {
        HostFacts facts =
                parse(FactOutput.debian12().set("redis.pid", "info 4242").set("smaps", "kb 421888"));

        assertThat(facts.redisProcess().pid()).isEqualTo(OptionalLong.of(4242));
        assertThat(facts.redisProcess().pidSource()).contains("info");
        assertThat(facts.redisProcess().anonHugePagesKb()).isEqualTo(OptionalLong.of(421888));
        assertThat(facts.redisProcess().error()).isEmpty();
    }

    @Test
    void smapsWithoutRootIsAnErrorNotZero() {
        HostFacts facts = parse(FactOutput.debian12()
                .set("uid", "1000")
                .set("redis.pid", "pidof 4242")
                .set("smaps", "error awk: cannot open /proc/4242/smaps_rollup (Permission denied)"));

        assertThat(facts.root()).isFalse();
        assertThat(facts.redisProcess().pidSource()).contains("pidof");
        assertThat(facts.redisProcess().anonHugePagesKb()).isEmpty();
        assertThat(facts.redisProcess().error()).get().asString().contains("Permission denied");
    }

    @Test
    void severalRedisProcessesLeaveThePidOpen() {
        HostFacts facts =
                parse(FactOutput.debian12().set("redis.pid", "pidof 31 42").without("smaps"));

        assertThat(facts.redisProcess().pid()).isEmpty();
        assertThat(facts.redisProcess().error()).get().asString().contains("31 42");
    }

    @Test
    void noRedisProcessAtAll() {
        HostFacts facts = parse(FactOutput.debian12().set("redis.pid", "pidof ").without("smaps"));

        assertThat(facts.redisProcess().pid()).isEmpty();
        assertThat(facts.redisProcess().error()).isEmpty();
    }

    @Test
    void theScriptQuotesThePidAndEndsWithTheEndMarker() {
        assertThat(FactScript.script(OptionalLong.of(4242))).startsWith("redis_pid=4242\n");
        assertThat(FactScript.script(OptionalLong.empty())).startsWith("redis_pid=''\n");
        assertThat(FactScript.script(OptionalLong.empty())).contains("s end");
    }

    @Test
    void theScriptRunsUnderPosixShAndItsOutputParses() throws IOException, InterruptedException {
        Process sh = new ProcessBuilder("sh", "-c", FactScript.script(OptionalLong.empty()))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(sh.exitValue()).as(out).isZero();
        HostFacts facts = FactScript.parse("localhost", out, REDIS);
        assertThat(facts.kernelRelease()).as(out).isEqualTo(System.getProperty("os.version"));
        assertThat(facts.overcommitMemory()).as(out).isPresent();
        assertThat(facts.redis()).isEqualTo(REDIS);
        // the numbers whole: a shell's read of /proc/sys takes one byte at a time, and those files answer only a read
        // from their start (somaxconn 4096 read so gives 4; so does Files.readString, whose first read of a file of
        // size 0 is one byte: the expected value is read in one read of a stream)
        try (InputStream in = Files.newInputStream(Path.of("/proc/sys/net/core/somaxconn"))) {
            String somaxconn = new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
            assertThat(facts.somaxconn()).as(out).hasValue(Integer.parseInt(somaxconn));
        }
        Path enabled = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        if (Files.isReadable(enabled)) {
            assertThat(facts.thp().enabled()).as(out).isEqualTo(ThpParser.selected(Files.readString(enabled)));
        }
    }

    private static Optional<String> filesystem(String... lines) {
        return FactScript.parse(
                        "lab-1", FactOutput.debian12().set("thp.fs", lines).text(), REDIS)
                .thp()
                .filesystem();
    }

    @Test
    void theThpFileIsTheKernelsWhenItIsOnSysfs() {
        HostFacts facts = FactScript.parse("lab-1", FactOutput.debian12().text(), REDIS);

        assertThat(facts.thp().filesystem()).hasValue("sysfs");
        assertThat(facts.thp().kernels()).hasValue(true);
    }

    @Test
    void aFileBindMountedOverSysfsIsNotTheKernels() {
        HostFacts facts = FactScript.parse(
                "lab-1",
                FactOutput.debian12()
                        .set("thp.fs", "statfs ext2/ext3", "mountinfo ext4")
                        .text(),
                REDIS);

        assertThat(facts.thp().filesystem()).hasValue("ext2/ext3");
        assertThat(facts.thp().kernels()).hasValue(false);
    }

    @Test
    void withoutANamedStatfsTypeMountinfoDecides() {
        // busybox without stat, an old coreutils that cannot name sysfs's magic, a stat that failed
        assertThat(filesystem("statfs ", "mountinfo sysfs")).hasValue("sysfs");
        assertThat(filesystem("statfs UNKNOWN (0x62656572)", "mountinfo sysfs")).hasValue("sysfs");
        assertThat(filesystem("statfs UNKNOWN", "mountinfo overlay")).hasValue("overlay");
    }

    @Test
    void hostileOrMissingOutputLeavesTheFilesystemUnknownNeverNotTheKernels() {
        assertThat(filesystem("statfs ", "mountinfo ")).isEmpty();
        assertThat(filesystem("statfs \u001b[31mext4", "mountinfo tmpfs; rm -rf /"))
                .isEmpty();
        assertThat(filesystem("statfs " + "x".repeat(200))).isEmpty();
        assertThat(filesystem("ext4", "tmpfs")).as("lines without their source").isEmpty();
        HostFacts none = FactScript.parse(
                "lab-1", FactOutput.debian12().without("thp.fs").text(), REDIS);
        assertThat(none.thp().kernels()).isEmpty();
        HostFacts noThp = FactScript.parse(
                "lab-1",
                FactOutput.debian12()
                        .set("thp.dir")
                        .without("thp.enabled")
                        .without("thp.defrag")
                        .set("thp.fs", "statfs ext4")
                        .text(),
                REDIS);
        assertThat(noThp.thp().kernels()).as("no THP directory, no claim").isEmpty();
    }

    @Test
    void onThisMachineTheScriptFindsTheKernelsThpOnSysfs() throws IOException, InterruptedException {
        Process sh = new ProcessBuilder("sh", "-c", FactScript.script(OptionalLong.empty()))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(FactScript.sections(out).get("thp.fs")).as(out).containsExactly("statfs sysfs", "mountinfo sysfs");
        assertThat(FactScript.parse("localhost", out, REDIS).thp().kernels()).hasValue(true);
    }
}
