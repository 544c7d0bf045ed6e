package dev.fleetfix.report;

import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.RunInfo;
import dev.fleetfix.report.model.StepReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The Ansible-like recap: ok/changed/failed/skipped/unreachable per host, then how the run ended.
 * Printed at the end of a run and by {@code fleetfix report show}, from the same model.
 */
public final class Recap {
    /** The figures a per-host comparison line shows: throughput and the tail THP stretches. */
    private static final List<String> HOST_FIGURES = List.of("rps", "p99", "p99.9", "max");

    private Recap() {}

    /** Prints the recap of a saved report. */
    public static void print(PrintWriter out, boolean color, FleetReport report) {
        print(out, new Ansi(color), report);
        out.flush();
    }

    static void print(PrintWriter out, Ansi ansi, FleetReport report) {
        RunInfo run = report.run();
        if (run.check()) {
            Forecast.print(out, ansi, report);
        }
        out.println(ansi.bold("RECAP") + " (" + ConsoleReporter.human(Duration.ofMillis(run.elapsedMs())) + ")");
        int width =
                report.hosts().stream().mapToInt(h -> h.name().length()).max().orElse(4);
        for (HostReport host : report.hosts()) {
            out.println(String.format(Locale.ROOT, "%-" + width + "s : ", host.name()) + counts(ansi, host));
        }
        outcome(out, ansi, run);
        benchmarks(out, ansi, report);
    }

    private static String counts(Ansi ansi, HostReport host) {
        int ok = count(host, "ok");
        int changed = count(host, "changed");
        int failed = count(host, "failed");
        int skipped = count(host, "skipped");
        int unreachable = count(host, "unreachable");
        if (host.outcome().equals("unreachable") && unreachable == 0) {
            unreachable = 1; // the host's shell never opened: no step ran
        }
        String f = String.format(Locale.ROOT, "failed=%-3d", failed);
        String u = String.format(Locale.ROOT, "unreachable=%d", unreachable);
        return ansi.green(String.format(Locale.ROOT, "ok=%-3d", ok)) + " "
                + ansi.yellow(String.format(Locale.ROOT, "changed=%-3d", changed)) + " "
                + (failed > 0 ? ansi.red(f) : f) + " "
                + String.format(Locale.ROOT, "skipped=%-3d", skipped) + " "
                + (unreachable > 0 ? ansi.red(u) : u);
    }

    private static int count(HostReport host, String status) {
        return (int) host.steps().stream()
                .map(StepReport::status)
                .filter(status::equals)
                .count();
    }

    private static void outcome(PrintWriter out, Ansi ansi, RunInfo run) {
        if (run.outcome() == null) {
            out.println(ansi.red("unfinished: the run did not end"));
        } else if (run.outcome().equals("ok")) {
            if (run.check()) {
                out.println(
                        run.changed().isEmpty()
                                ? ansi.green("check: nothing to change")
                                : ansi.yellow("check: changes pending on " + String.join(", ", run.changed())));
            } else {
                out.println(ansi.green("ok: " + run.done().size() + " hosts done"));
            }
        } else {
            out.println(ansi.red(run.outcome().replace('_', ' ') + ": " + ConsoleReporter.oneLine(run.reason())));
            out.println("  done:      " + names(run.done()));
            out.println("  failed:    " + names(run.failed()));
            out.println("  untouched: " + names(run.untouched()));
        }
    }

    private static void benchmarks(PrintWriter out, Ansi ansi, FleetReport report) {
        if (!report.benchmarks().comparisons().isEmpty()) {
            out.println(ansi.bold("BENCHMARKS") + " after vs before, medians of the rounds (latencies in ms)");
        }
        for (ComparisonReport c : report.benchmarks().comparisons()) {
            StringBuilder figures = new StringBuilder();
            for (MetricReport m : c.metrics()) {
                if (HOST_FIGURES.contains(m.metric())) {
                    String format = m.metric().equals("rps") ? "%s %,.0f → %,.0f" : "%s %.2f → %.2f";
                    figures.append(", ")
                            .append(String.format(Locale.ROOT, format, m.metric(), m.beforeMedian(), m.afterMedian()));
                }
            }
            out.println("  " + c.host() + " " + c.name() + " " + c.test() + ": " + verdict(ansi, c.verdict()) + " ("
                    + c.beforeRounds() + " vs " + c.afterRounds() + " rounds)" + figures);
        }
        for (var f : report.benchmarks().fleet()) {
            String coloured = verdict(ansi, f.verdict());
            StringBuilder ratios = new StringBuilder();
            f.medianRatio()
                    .forEach((metric, ratio) ->
                            ratios.append(' ').append(metric).append(String.format(Locale.ROOT, " ×%.2f", ratio)));
            out.println("benchmark " + f.name() + " " + f.test() + ": " + coloured + " on "
                    + f.hosts().size() + " hosts (after/before:" + ratios + ")");
        }
    }

    private static String verdict(Ansi ansi, String verdict) {
        String text = verdict.replace('_', ' ');
        return switch (verdict) {
            case "improved" -> ansi.green(text);
            case "regressed" -> ansi.red(text);
            default -> text;
        };
    }

    private static String names(List<String> names) {
        return names.isEmpty() ? "-" : String.join(", ", names);
    }
}
