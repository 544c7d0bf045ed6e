package dev.fleetfix.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.Phase;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.fake.TestHosts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BenchOutputTest {
    private static BenchResult set(long errors) {
        return new BenchResult(
                "SET", 8686, OptionalLong.of(70_120), Latency.UNKNOWN, List.of(), Optional.empty(), errors);
    }

    private static String table(BenchResult... rounds) {
        List<BenchRun> runs = java.util.Arrays.stream(rounds)
                .map(r -> new BenchRun("lab-1", "bench", Phase.BEFORE, List.of(r)))
                .toList();
        StringWriter text = new StringWriter();
        BenchOutput.table(
                List.of(new HostBenchmark.Outcome(
                        TestHosts.local("lab-1", false), runs, Optional.empty(), Optional.empty())),
                new PrintWriter(text));
        return text.toString();
    }

    /** Regression: 69,951 OOM errors were printed as 8,686 rps with no word of them. */
    @Test
    void aRoundsErrorRepliesArePrintedUnderIt() {
        String out = table(set(0), set(69_951));

        assertThat(out)
                .containsPattern("lab-1\\s+SET\\s+2\\s+69,951 error replies of 70,120 requests: the rps above counts"
                        + " them; this round enters no verdict")
                .doesNotContainPattern("lab-1\\s+SET\\s+1\\s+\\d+ error replies");
    }
}
