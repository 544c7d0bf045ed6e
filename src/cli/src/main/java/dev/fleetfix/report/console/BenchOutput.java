package dev.fleetfix.report.console;

import dev.fleetfix.Progress;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.SweepTable;
import dev.fleetfix.report.files.ReportJson;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;

/** What {@code fleetfix bench} prints: the benchmark table, or its JSON. */
public final class BenchOutput {
    private BenchOutput() {}

    /** JSON on stdout, so a script can parse it whole; skips and failures go to stderr as text. */
    /**
     * The hosts' progress while they are measured, one after another, as {@code live} paces it: which round, the rps
     * so far, and the time since the benchmark started ({@code [00:42]}).
     */
    public static Function<Host, Progress.Listener> progress(LiveLine live, Clock clock) {
        Instant start = clock.instant();
        return host -> live.listener(host.name(), clock, start);
    }

    public static void json(List<HostBenchmark.Outcome> outcomes, PrintWriter out, PrintWriter err) {
        List<BenchRun> runs = new ArrayList<>();
        for (HostBenchmark.Outcome o : outcomes) {
            runs.addAll(o.rounds());
            o.skipped().ifPresent(reason -> err.println(o.host().name() + ": skipped: " + reason));
            if (o.failure().isPresent()) {
                err.println(o.host().name() + ": failed: " + o.failure().get());
            }
        }
        out.print(ReportJson.writeBenchmarks("bench", runs));
        out.flush();
        err.flush();
    }

    /** A sweep's table by point (value size, TCP_NODELAY); skips and failures after it. */
    public static void sweep(List<HostBenchmark.Outcome> outcomes, PrintWriter out) {
        List<BenchRun> runs = new ArrayList<>();
        outcomes.forEach(o -> runs.addAll(o.rounds()));
        SweepTable.write(out, "bench", runs);
        for (HostBenchmark.Outcome o : outcomes) {
            o.skipped().ifPresent(reason -> out.println(o.host().name() + ": skipped: " + HostText.clean(reason)));
            o.failure().ifPresent(failure -> out.println(o.host().name() + ": failed: " + HostText.clean(failure)));
        }
        out.flush();
    }

    /** One line a host, test and round: requests a second and latency percentiles; skips and failures after. */
    public static void table(List<HostBenchmark.Outcome> outcomes, PrintWriter out) {
        List<Metric> shown = List.of(Metric.P50, Metric.P90, Metric.P99, Metric.P999, Metric.P9999, Metric.MAX);
        out.printf(Locale.ROOT, "%-16s %-16s %5s %10s", "HOST", "TEST", "ROUND", "RPS");
        shown.forEach(m -> out.printf(Locale.ROOT, " %9s", m.label()));
        out.println();
        for (HostBenchmark.Outcome o : outcomes) {
            int round = 0;
            for (BenchRun run : o.rounds()) {
                round++;
                for (BenchResult r : run.results()) {
                    out.printf(Locale.ROOT, "%-16s %-16s %5d %10.0f", o.host().name(), r.test(), round, r.rps());
                    for (Metric m : shown) {
                        OptionalDouble v = m.valueOf(r);
                        out.printf(
                                Locale.ROOT,
                                " %9s",
                                v.isPresent() ? String.format(Locale.ROOT, "%.3f", v.getAsDouble()) : "-");
                    }
                    out.println();
                    if (r.errors() > 0) {
                        out.printf(
                                Locale.ROOT,
                                "%-16s %-16s %5d %,d error replies%s: the rps above counts them; this round enters no"
                                        + " verdict%n",
                                o.host().name(),
                                r.test(),
                                round,
                                r.errors(),
                                r.requests().isPresent()
                                        ? String.format(
                                                Locale.ROOT,
                                                " of %,d requests",
                                                r.requests().getAsLong())
                                        : "");
                    }
                }
            }
            // reasons quote the host (redis-benchmark's stderr, Redis errors): never raw on a terminal
            o.skipped().ifPresent(reason -> out.println(o.host().name() + ": skipped: " + HostText.clean(reason)));
            if (o.failure().isPresent()) {
                out.println(o.host().name() + ": failed: "
                        + HostText.clean(o.failure().get()));
            }
        }
        out.println("latencies in ms");
        out.flush();
    }
}
