package dev.fleetfix.bench.redisbenchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.LatencyPoint;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.redisbenchmark.RedisBenchmarkOutput.Format;
import dev.fleetfix.redis.load.BenchmarkException;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RedisBenchmarkOutputTest {

    private static BenchResult only(List<BenchResult> results, String test) {
        return results.stream()
                .filter(r -> r.test().equals(test))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + test + " in " + results));
    }

    @Nested
    class Redis7Csv {
        @Test
        void readsEveryColumnOfEveryTest() {
            String out = Fixtures.read("redis7-csv-set-get-incr-lpush.csv");
            assertThat(RedisBenchmarkOutput.detect(out)).isEqualTo(Format.CSV);

            List<BenchResult> results = RedisBenchmarkOutput.parse(out);

            assertThat(results).extracting(BenchResult::test).containsExactly("SET", "GET", "INCR", "LPUSH");
            BenchResult set = results.get(0);
            assertThat(set.rps()).isEqualTo(27700.83);
            assertThat(set.latency().avgMillis()).hasValue(0.487);
            assertThat(set.latency().minMillis()).hasValue(0.088);
            assertThat(Metric.P50.valueOf(set)).hasValue(0.439);
            assertThat(set.latency().percentile(95)).hasValue(0.767);
            assertThat(Metric.P99.valueOf(set)).hasValue(2.559);
            assertThat(Metric.MAX.valueOf(set)).hasValue(4.839);
            assertThat(only(results, "LPUSH").latency().maxMillis()).hasValue(43.295);
        }

        @Test
        void doesNotInventPercentilesItWasNotGiven() {
            BenchResult set = RedisBenchmarkOutput.parse(Fixtures.read("redis7-csv-set-pipelined.csv"))
                    .get(0);

            assertThat(set.rps()).isEqualTo(161290.33);
            assertThat(Metric.P90.valueOf(set)).isEmpty();
            assertThat(Metric.P999.valueOf(set)).isEmpty();
        }

        @Test
        void keepsTheCommandOfACustomCommandRunAsItsName() {
            BenchResult set = RedisBenchmarkOutput.parse(Fixtures.read("redis7-csv-custom-command.csv"))
                    .get(0);

            assertThat(set.test()).isEqualTo("SET FLEETFIX:BENCH:KEY:__RAND_INT__ XXXXXXXXXXXXXXXX");
            assertThat(set.rps()).isPositive();
        }

        @Test
        void readsTheRpsOnlyCsvOfRedis6Before62() {
            String out = "\"PING_INLINE\",\"86206.90\"\n\"SET\",\"85470.09\"\n";

            List<BenchResult> results = RedisBenchmarkOutput.parse(out);

            assertThat(results).extracting(BenchResult::test).containsExactly("PING_INLINE", "SET");
            assertThat(results.get(1).rps()).isEqualTo(85470.09);
            assertThat(results.get(1).latency()).isEqualTo(Latency.UNKNOWN);
        }
    }

    @Nested
    class Quiet {
        @Test
        void readsRedis7LinesAndTheirMedianBehindTheProgressRedraws() {
            String out = Fixtures.read("redis7-q.txt");
            assertThat(RedisBenchmarkOutput.detect(out)).isEqualTo(Format.QUIET);

            List<BenchResult> results = RedisBenchmarkOutput.parse(out);

            assertThat(results).extracting(BenchResult::test).containsExactly("SET", "GET", "INCR", "LPUSH");
            assertThat(results.get(0).rps()).isEqualTo(41407.87);
            assertThat(Metric.P50.valueOf(results.get(0))).hasValue(0.303);
            assertThat(Metric.P50.valueOf(results.get(3))).hasValue(0.415);
            assertThat(results.get(3).rps()).isEqualTo(30257.19);
        }

        @Test
        void readsThePlainLineOfOlderVersions() {
            List<BenchResult> results = RedisBenchmarkOutput.parse("SET: 374531.84 requests per second\n");

            assertThat(results).singleElement().satisfies(r -> {
                assertThat(r.test()).isEqualTo("SET");
                assertThat(r.rps()).isEqualTo(374531.84);
                assertThat(Metric.P50.valueOf(r)).isEmpty();
            });
        }

        @Test
        void readsTheSeedsGluedAndMistranslatedLines() {
            List<BenchResult> results = RedisBenchmarkOutput.parse(Fixtures.read("seed-2.8-q-nagle-default.txt"));

            assertThat(results)
                    .extracting(BenchResult::test)
                    .containsExactly(
                            "SET",
                            "GET",
                            "INCR",
                            "LPUSH",
                            "LPOP",
                            "SADD",
                            "SPOP",
                            "LPUSH (NEEDED TO BENCHMARK LRANGE)",
                            "LRANGE_600 (FIRST ELEMENTS)",
                            "MSET (TEN KEYS)");
            assertThat(only(results, "SET").rps()).isEqualTo(51599.59);
            assertThat(only(results, "LPUSH").rps()).isEqualTo(54112.55); // "reques TS per second"
            assertThat(only(results, "LPUSH (NEEDED TO BENCHMARK LRANGE)").rps())
                    .isEqualTo(49067.71);
            assertThat(only(results, "MSET (TEN KEYS)").rps()).isEqualTo(33134.53); // "Requests"
        }

        @Test
        void readsAllThreeSeedRuns() {
            assertThat(only(RedisBenchmarkOutput.parse(Fixtures.read("seed-2.8-q-nagle-off.txt")), "MSET (TEN KEYS)")
                            .rps())
                    .isEqualTo(26766.60);
            assertThat(only(
                                    RedisBenchmarkOutput.parse(Fixtures.read("seed-2.8-q-nagle-on.txt")),
                                    "LRANGE_600 (FIRST ELEMENTS)")
                            .rps())
                    .isEqualTo(406.73);
        }

        @Test
        void failsNamingTheOutputWhenThereIsNoResult() {
            assertThatThrownBy(() -> RedisBenchmarkOutput.parse(Fixtures.read("redis7-q-error-not-integer.txt")))
                    .isInstanceOf(BenchmarkException.class)
                    .hasMessageContaining("holds no result");
        }
    }

    @Nested
    class Verbose {
        @Test
        void readsTheSeedsThpAlwaysRunWithItsTail() {
            String out = Fixtures.read("seed-2.8-thp-always.txt");
            assertThat(RedisBenchmarkOutput.detect(out)).isEqualTo(Format.VERBOSE);

            BenchResult set = RedisBenchmarkOutput.parse(out).get(0);

            assertThat(set.test()).isEqualTo("SET");
            assertThat(set.rps()).isEqualTo(241382.62);
            assertThat(set.requests()).hasValue(10_000_000);
            // "keep alive: 1" glued to "98.62%" must not read as 198.62%
            assertThat(set.latency().distribution().get(0)).isEqualTo(new LatencyPoint(98.62, 1));
            assertThat(Metric.P50.valueOf(set)).hasValue(1);
            assertThat(Metric.P99.valueOf(set)).hasValue(22);
            assertThat(Metric.P999.valueOf(set)).hasValue(42);
            assertThat(Metric.P9999.valueOf(set)).hasValue(98);
            assertThat(Metric.MAX.valueOf(set)).hasValue(169);
        }

        @Test
        void readsTheSeedsThpNeverRunWithSplitNumbers() {
            BenchResult set = RedisBenchmarkOutput.parse(Fixtures.read("seed-2.8-thp-never.txt"))
                    .get(0);

            assertThat(set.rps()).isEqualTo(374321.53);
            assertThat(set.requests()).hasValue(10_000_000);
            assertThat(set.latency().distribution())
                    .extracting(LatencyPoint::percent)
                    .containsExactly(99.70, 99.71, 100.0, 100.0); // "100 .00%"
            assertThat(Metric.P99.valueOf(set)).hasValue(1);
            assertThat(Metric.P999.valueOf(set)).hasValue(3);
            assertThat(Metric.MAX.valueOf(set)).hasValue(3);
        }

        @Test
        void readsRedis7PercentileTableAndSummary() {
            List<BenchResult> results = RedisBenchmarkOutput.parse(Fixtures.read("redis7-verbose-set-get.txt"));

            assertThat(results).extracting(BenchResult::test).containsExactly("SET", "GET");
            BenchResult set = results.get(0);
            assertThat(set.rps()).isEqualTo(31250.00);
            assertThat(set.requests()).hasValue(20000);
            assertThat(set.latency().avgMillis()).isPresent();
            // the percentile table, not the coarser cumulative one
            assertThat(set.latency().distribution()).hasSize(17);
            assertThat(Metric.P999.valueOf(set)).hasValue(5.783);
            assertThat(Metric.P9999.valueOf(set)).hasValue(6.175);
            assertThat(Metric.P50.valueOf(set))
                    .hasValue(set.latency().reported().get(50.0));
            BenchResult get = results.get(1);
            assertThat(get.rps()).isEqualTo(40899.80);
            assertThat(Metric.MAX.valueOf(get)).hasValue(7.303);
        }

        @Test
        void percentilesOfEveryParsedDistributionNeverDecrease() {
            for (String fixture :
                    List.of("seed-2.8-thp-always.txt", "seed-2.8-thp-never.txt", "redis7-verbose-set-get.txt")) {
                for (BenchResult r : RedisBenchmarkOutput.parse(Fixtures.read(fixture))) {
                    double previous = 0;
                    for (Metric m :
                            List.of(Metric.P50, Metric.P90, Metric.P99, Metric.P999, Metric.P9999, Metric.MAX)) {
                        double value = m.valueOf(r).orElseThrow();
                        assertThat(value)
                                .as(fixture + " " + r.test() + " " + m.label())
                                .isGreaterThanOrEqualTo(previous);
                        previous = value;
                    }
                }
            }
        }
    }
}
