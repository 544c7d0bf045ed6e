package dev.fleetfix.report.console;

import dev.fleetfix.Counts;
import dev.fleetfix.report.Effects;
import dev.fleetfix.report.Elapsed;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.RedisEvidence;
import dev.fleetfix.report.SweepTable;
import dev.fleetfix.report.VerdictText;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.MetricReport;
import dev.fleetfix.report.model.RunInfo;
import dev.fleetfix.report.model.StepReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

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
        out.println(ansi.bold("RECAP") + " (" + Elapsed.human(Duration.ofMillis(run.elapsedMs())) + ")");
        int width =
                report.hosts().stream().mapToInt(h -> h.name().length()).max().orElse(4);
        for (HostReport host : report.hosts()) {
            out.println(String.format(Locale.ROOT, "%-" + width + "s : ", host.name()) + counts(ansi, host));
        }
        outcome(out, ansi, run);
        benchmarks(out, ansi, report);
        SweepTable.write(out, report.benchmarks());
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
        if (host.outcome().equals("failed") && failed == 0) {
            // refused in preflight, or failed outside any step (a gate, a lock, a crash): a failed host counts in
            // failed= as in Ansible's recap, so that grepping failed=[1-9] finds every one
            failed = 1;
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
                out.println(ansi.green("ok: " + Counts.of(run.done().size(), "host") + " done"));
            }
        } else {
            out.println(ansi.red(run.outcome().replace('_', ' ') + ": " + HostText.oneLine(run.reason())));
            out.println("  done:      " + names(run.done()));
            out.println("  failed:    " + names(run.failed()));
            out.println("  untouched: " + names(run.untouched()));
        }
    }

    private static void benchmarks(PrintWriter out, Ansi ansi, FleetReport report) {
        if (report.benchmarks().comparisons().isEmpty()) {
            return;
        }
        out.println(
                ansi.bold("BENCHMARKS") + " after vs before: median of the samples (batches of windows) before → after,"
                        + " its change [95 % interval]; improved or regressed needs the change shown beyond its floor, p < 0.01"
                        + " after Holm (the design says which floor); no change detected, every figure shown within its floor"
                        + " at 0.05; else inconclusive, with why (fleetfix doc verdicts)");
        Set<String> designs = new LinkedHashSet<>();
        report.benchmarks().comparisons().forEach(c -> designs.add(c.design()));
        designs.stream().filter(d -> d != null).forEach(d -> out.println("  design: " + d));
        for (ComparisonReport c : report.benchmarks().comparisons()) {
            comparison(out, ansi, report, c);
        }
        List<HostReport> benchmarked = report.hosts().stream()
                .filter(host -> report.benchmarks().comparisons().stream()
                        .anyMatch(c -> c.host().equals(host.name())))
                .toList();
        for (HostReport host : benchmarked) {
            Effects.expectation(host).ifPresent(e -> out.println("  expect " + host.name() + ": " + e));
        }
        for (FleetComparisonReport f : report.benchmarks().fleet()) {
            fleet(out, ansi, f);
        }
        boolean noneCanShow = !benchmarked.isEmpty()
                && benchmarked.stream()
                        .allMatch(h -> Effects.latencyEffectCanShow(h).equals(Optional.of(false)));
        if (noneCanShow) {
            out.println("THP's latency effect cannot show on " + (benchmarked.size() == 1 ? "this host" : "these hosts")
                    + " (THP not the kernel's, a kernel of 5.8 or later that copies 4 KiB on write after fork, or a"
                    + " Redis that keeps itself off THP; each host's 'expect' line says which):"
                    + " the benchmarks say only whether anything else changed");
        }
    }

    /** One host's comparison: its verdict and figures, then its noise floor, notes and Redis's own figures. */
    private static void comparison(PrintWriter out, Ansi ansi, FleetReport report, ComparisonReport c) {
        StringBuilder figures = new StringBuilder();
        for (MetricReport m : c.metrics()) {
            if (Effects.shown(m, HOST_FIGURES)) {
                figures.append(", ")
                        .append(m.metric())
                        .append(' ')
                        .append(Effects.compared(m))
                        .append(' ')
                        .append(Effects.of(m));
            }
        }
        String samples = c.metrics().isEmpty() || c.metrics().get(0).sampleUnit() == null
                ? ""
                : ", " + c.metrics().get(0).beforeSamples() + " vs "
                        + c.metrics().get(0).afterSamples() + " "
                        + plural(c.metrics().get(0).sampleUnit());
        out.println("  " + c.host() + " " + c.name() + " " + c.test() + ": "
                + verdict(ansi, c.verdict(), c.reason()) + " ("
                + c.beforeRounds() + " vs " + c.afterRounds() + " rounds" + samples + ")" + figures);
        if (!c.calibration().isEmpty()) {
            out.println("    noise floor (A/A, before measured twice): "
                    + c.calibration().stream()
                            .filter(m -> HOST_FIGURES.contains(m.metric()))
                            .map(m -> m.metric() + " " + Effects.of(m))
                            .collect(Collectors.joining(", ")));
        }
        c.notes().forEach(n -> out.println("    note: " + HostText.oneLine(n)));
        RedisEvidence.of(report, c)
                .ifPresent(e -> out.println("    redis (its own figures after the last round): " + e));
    }

    /** A benchmark's verdict over the fleet: how many hosts went each way, and the effects over hosts. */
    private static void fleet(PrintWriter out, Ansi ansi, FleetComparisonReport f) {
        String effects = f.effects().entrySet().stream()
                .filter(e -> HOST_FIGURES.contains(e.getKey()))
                .map(e -> Effects.of(e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
        out.println("benchmark " + f.name() + " " + f.test() + ": " + verdict(ansi, f.verdict(), f.reason())
                + " (" + f.improved() + " improved, " + f.regressed() + " regressed, " + f.noChangeDetected()
                + " no change detected, " + f.inconclusive() + " inconclusive"
                + (effects.isEmpty() ? "" : "; over hosts: " + effects) + ")");
    }

    private static String verdict(Ansi ansi, String verdict, String reason) {
        String word = VerdictText.word(verdict);
        String coloured =
                switch (verdict) {
                    case "improved" -> ansi.green(word);
                    case "regressed" -> ansi.red(word);
                    default -> word;
                };
        return coloured + VerdictText.of(verdict, reason).substring(word.length());
    }

    private static String names(List<String> names) {
        return names.isEmpty() ? "-" : String.join(", ", names);
    }

    /** "batches", "windows", "rounds": the samples a comparison rests on. */
    private static String plural(String unit) {
        return unit.endsWith("ch") ? unit + "es" : unit + "s";
    }
}
