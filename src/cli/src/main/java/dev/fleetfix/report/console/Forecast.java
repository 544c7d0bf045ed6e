package dev.fleetfix.report.console;

import dev.fleetfix.report.HostText;
import dev.fleetfix.report.model.ChangeReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.GateReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.StepReport;
import dev.fleetfix.steps.model.StepResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The recap of a check run: per host what apply would change, whether and by which route it would
 * restart Redis (or refuse to, and why), which gates it would wait for, and where it would fail.
 * Read from the report model, so {@code fleetfix report show} prints it too.
 */
final class Forecast {
    static final String RESTART = "restart_redis";
    static final String WAIT = "wait_healthy";
    private static final String CHECK_NOTE = StepResult.CHECK_NOTE;

    private Forecast() {}

    static void print(PrintWriter out, Ansi ansi, FleetReport report) {
        out.println(ansi.bold("FORECAST") + " (check mode: nothing was changed; what apply would do)");
        for (HostReport host : report.hosts()) {
            out.println(host.name() + ": " + verdict(ansi, host));
            for (String line : lines(host)) {
                out.println("  " + line);
            }
        }
    }

    private static String verdict(Ansi ansi, HostReport host) {
        return switch (host.outcome()) {
            case "failed" -> ansi.red("would fail") + " at " + failure(host);
            case "unreachable" -> ansi.red("unreachable: " + HostText.oneLine(host.reason()));
            case "untouched" -> "not reached: apply would stop before this host";
            default -> changes(host).isEmpty() && restarts(host).isEmpty()
                    ? ansi.green("nothing would change")
                    : ansi.yellow("would change");
        };
    }

    private static List<String> lines(HostReport host) {
        List<String> lines = new ArrayList<>();
        List<String> changes = changes(host);
        if (!changes.isEmpty()) {
            lines.add("change: " + String.join(", ", changes));
        }
        for (StepReport step : host.steps()) {
            if (step.status().equals("failed")) {
                lines.add(step.type().equals(RESTART) ? "restart: " + restart(step) : "fails: " + reason(step));
            } else if (step.type().equals(RESTART)) {
                lines.add("restart: " + restart(step));
            } else if (step.type().equals(WAIT)) {
                gates(step).ifPresent(lines::add);
            }
        }
        return lines;
    }

    /** "thp.enabled always → never" for every change but the restart, which has its own line. */
    private static List<String> changes(HostReport host) {
        List<String> changes = new ArrayList<>();
        for (StepReport step : host.steps()) {
            if (step.status().equals("changed") && !step.type().equals(RESTART)) {
                for (ChangeReport c : step.changes()) {
                    changes.add(c.what() + " " + c.before() + " → " + c.after());
                }
            }
        }
        return changes;
    }

    private static List<StepReport> restarts(HostReport host) {
        return host.steps().stream()
                .filter(s -> s.type().equals(RESTART) && s.status().equals("changed"))
                .toList();
    }

    /** The step a failed host stopped at, from its reason ("restart_redis: ..."). */
    private static String failure(HostReport host) {
        int colon = host.reason().indexOf(": ");
        return colon < 0 ? HostText.oneLine(host.reason()) : host.reason().substring(0, colon);
    }

    private static String reason(StepReport step) {
        return HostText.oneLine(step.message().replace("; " + CHECK_NOTE, ""));
    }

    private static String restart(StepReport step) {
        String reason = reason(step);
        return switch (step.status()) {
            case "changed" -> step.predicted().getOrDefault("redis.route", "restart") + " (" + reason + ")";
            case "skipped" -> "none (" + reason + ")";
            case "failed" -> reason;
            default -> step.status() + " (" + reason + ")";
        };
    }

    /** "gates: ping, loading_done: apply waits up to 60s once Redis is restarted". */
    private static Optional<String> gates(StepReport step) {
        Map<String, List<String>> byForecast = new LinkedHashMap<>();
        for (GateReport gate : step.gates()) {
            for (GateReport part : gate.parts().isEmpty() ? List.of(gate) : gate.parts()) {
                if (part.forecast() != null) {
                    byForecast
                            .computeIfAbsent(part.forecast(), f -> new ArrayList<>())
                            .add(part.gate());
                }
            }
        }
        if (byForecast.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        byForecast.forEach((forecast, names) -> parts.add(String.join(", ", names) + ": " + forecast));
        return Optional.of("gates: " + String.join("; ", parts));
    }
}
