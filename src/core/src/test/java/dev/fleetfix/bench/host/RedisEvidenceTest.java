package dev.fleetfix.bench.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.FakeTarget;
import dev.fleetfix.redis.load.ProcessHugePages;
import dev.fleetfix.redis.load.RedisEvidence;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RedisEvidenceTest {
    private final FakeTarget target = new FakeTarget(new AtomicLong(), n -> 100_000);

    private RedisEvidence read() {
        return RedisEvidence.read(target, pid -> pid == 4242 ? reading(329_728) : unread("wrong pid " + pid));
    }

    private static ProcessHugePages.Reading reading(long kb) {
        return ProcessHugePages.Reading.of(kb);
    }

    private static ProcessHugePages.Reading unread(String why) {
        return ProcessHugePages.Reading.unread(why);
    }

    @Test
    void forkCostHugePagesAndTheLatencyMonitorsForksWhenItIsOn() {
        target.info.put("server", Map.of("process_id", "4242"));
        target.info.put("persistence", Map.of("rdb_last_cow_size", "2097152"));
        target.info.put("memory", Map.of("mem_fragmentation_ratio", "1.31"));
        target.config.put("latency-monitor-threshold", "10");
        target.forkHistory.add(new RedisEvidence.LatencySpike(1_764_565_000, 34));
        target.latencyLatest.add(new RedisEvidence.LatencyEvent("fork", 1_764_565_000, 34, 34));

        RedisEvidence e = read();

        assertThat(e.counters())
                .containsEntry("latest_fork_usec", "1234")
                .containsEntry("rdb_last_cow_size", "2097152")
                .containsEntry("mem_fragmentation_ratio", "1.31")
                .containsEntry("latency_monitor_threshold", "10")
                .doesNotContainKey("aof_last_cow_size");
        assertThat(e.anonHugePagesKb()).hasValue(329_728);
        assertThat(e.forkHistory()).containsExactly(new RedisEvidence.LatencySpike(1_764_565_000, 34));
        assertThat(e.latencyLatest())
                .extracting(RedisEvidence.LatencyEvent::event)
                .containsExactly("fork");
        assertThat(e.unread()).isEmpty();
    }

    @Test
    void whatCouldNotBeReadIsNamedWithWhyNeverReadAsZero() {
        target.config.put("latency-monitor-threshold", "0");
        target.forkHistory.add(new RedisEvidence.LatencySpike(1, 99)); // not asked: the monitor is off

        RedisEvidence e = read();

        assertThat(e.anonHugePagesKb()).isEmpty();
        assertThat(e.forkHistory()).isEmpty();
        assertThat(e.unread())
                .containsExactly(
                        "LATENCY: the latency monitor is off (latency-monitor-threshold 0): Redis recorded no fork"
                                + " latency; set it (e.g. 10 ms) to have LATENCY HISTORY fork",
                        "AnonHugePages: INFO server gave no process_id, so whose smaps to read is unknown");
    }

    @Test
    void aRenamedConfigLeavesTheLatencyMonitorUnknown() {
        target.info.put("server", Map.of("process_id", "7"));

        RedisEvidence e = read();

        assertThat(e.counters()).doesNotContainKey("latency_monitor_threshold");
        assertThat(e.unread())
                .containsExactly(
                        "LATENCY: CONFIG GET latency-monitor-threshold was refused, so whether the latency monitor"
                                + " is on is unknown; LATENCY was not asked",
                        "AnonHugePages: wrong pid 7");
    }

    @Test
    void smapsReadingsOfEveryKernelAndPermission() {
        assertThat(ProcessHugePages.parse(9, "kb 2048 /proc/9/smaps_rollup\n", "", true))
                .isEqualTo(reading(2048));
        // a kernel before 4.14 has no smaps_rollup: the script sums smaps
        assertThat(ProcessHugePages.parse(9, "kb 0 /proc/9/smaps\n", "", true)).isEqualTo(reading(0));
        assertThat(ProcessHugePages.parse(9, "kb none /proc/9/smaps\n", "", true)
                        .why())
                .hasValue("/proc/9/smaps has no AnonHugePages line: the kernel has no transparent huge pages");
        assertThat(ProcessHugePages.parse(
                                9, "error /proc/9/smaps_rollup: awk: cannot open (Permission denied)\n", "", false)
                        .why())
                .hasValue("/proc/9/smaps_rollup: awk: cannot open (Permission denied) (another user's smaps needs"
                        + " root: set become on the host)");
        assertThat(ProcessHugePages.parse(9, "gone /proc/9/smaps\n", "", true).why())
                .hasValue("neither smaps_rollup nor smaps exists for pid 9: the process is gone or /proc is not"
                        + " mounted");
        assertThat(ProcessHugePages.parse(9, "", "sudo: a password is required", true)
                        .why())
                .hasValue("reading /proc/9/smaps_rollup gave no answer: sudo: a password is required");
        assertThat(ProcessHugePages.script(9)).contains("/proc/9/smaps_rollup").contains("/proc/9/smaps\n");
    }

    @Test
    void noShellIsSaidSo() {
        ProcessHugePages p = ProcessHugePages.overShell(
                () -> {
                    throw new UnsupportedOperationException("this test opens no shell");
                },
                true);
        assertThat(p.read(1).why()).hasValue("no shell to the host: this test opens no shell");
        assertThat(List.of(p.read(1).kb())).allMatch(k -> k.isEmpty());
    }
}
