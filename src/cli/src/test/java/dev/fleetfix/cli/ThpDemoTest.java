package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.bench.load.HistogramLatency;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fleetfix thp-demo compare}: two sides' saved runs side by side, as bench/thp-demo.sh prints them. */
class ThpDemoTest {
    @TempDir
    Path dir;

    private Path saved(String name, String label, double rps, long latencyMicros, String forkMicros)
            throws IOException {
        Histogram h = new Histogram(3);
        for (int i = 0; i < 1000; i++) {
            h.recordValue(latencyMicros + i % 10);
        }
        Path file = dir.resolve(name);
        Files.write(
                file,
                List.of(
                        "label=" + label,
                        "rps=" + rps,
                        "requests=" + (long) (rps * 45),
                        "errors=0",
                        "fork_usec=" + forkMicros,
                        "keys_deleted=1000",
                        "histogram=" + HistogramLatency.encode(h)));
        return file;
    }

    @Test
    void comparePrintsEachSidesMediansRangesRatioVerdictAndForks() throws IOException {
        Path a1 = saved("a1", "always", 40000, 2000, "2600,101600");
        Path a2 = saved("a2", "always", 42000, 2100, "3100");
        Path n1 = saved("n1", "never", 80000, 500, "");
        Path a3 = saved("a3", "always", 41000, 2050, "2900");
        Path n2 = saved("n2", "never", 81000, 510, "1200");
        Path n3 = saved("n3", "never", 80500, 505, "1100,900");

        CliRun run = CliRun.of("thp-demo", "compare", a1 + "," + a2 + "," + a3, n1 + "," + n2 + "," + n3);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .as(run.toString())
                .isEqualTo(String.join(
                        "\n",
                        "median       THP always (rounds min-max) THP never (rounds min-max)   ratio  verdict",
                        "rps                 41000 (40000-42000)        80500 (80000-81000)    1.96  inconclusive",
                        "p50 ms                 2.06 (2.00-2.11)           0.51 (0.50-0.51)    0.25  inconclusive",
                        "p90 ms                 2.06 (2.01-2.11)           0.51 (0.51-0.52)    0.25  inconclusive",
                        "p99 ms                 2.06 (2.01-2.11)           0.51 (0.51-0.52)    0.25  inconclusive",
                        "p99.9 ms               2.06 (2.01-2.11)           0.51 (0.51-0.52)    0.25  inconclusive",
                        "p99.99 ms              2.06 (2.01-2.11)           0.51 (0.51-0.52)    0.25  inconclusive",
                        "max ms                 2.06 (2.01-2.11)           0.51 (0.51-0.52)    0.25  inconclusive",
                        "BGSAVE forks           3,102 | 3 | 3 ms             - | 1 | 1,1 ms",
                        "verdict, THP never against THP always over 3+3 rounds (fleetfix doc verdicts): inconclusive: no"
                                + " figure can decide: only 3 vs 3 rounds; 5 per side are the least a rank test can"
                                + " judge",
                        ""));
    }
}
