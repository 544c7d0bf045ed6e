package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabPreset;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.report.model.ChangeReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.GateReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.StepReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@code apply --check} forecasts is what {@code apply} then does, host by host: the same
 * outcome, the same changes, the same restart path and route, the same gates awaited (and passed).
 * On three lab presets of three hosts; on {@code thp-always} lab-2's Redis is stopped first, and the
 * forecast must say the run starts it, which the run then does.
 */
class CheckForecastIT {
    private static final String THP_OFF =
            """
            - name: THP off, persisted, rolling restart
              hosts: all
              serial: [1, "50%"]
              max_fail_percentage: 0
              steps:
                - audit: {}
                - thp: {enabled: never, defrag: never}
                - persist_thp: {method: auto}
                - restart_redis: {unit: "{{ redis_service }}", failback: true, timeout: 60s}
                - wait_healthy: {timeout: 60s, gates: [ping, loading_done, role_unchanged, replica_synced]}
                - assert: {that: "thp.enabled == never and thp.defrag == never"}
            """;

    @TempDir
    Path dir;

    /** What a host's forecast and its run must agree on. */
    record Outcome(String outcome, List<String> changes, String restartPath, String restartRoute, List<String> gates) {}

    @ParameterizedTest
    @EnumSource(
            value = LabPreset.class,
            names = {"THP_ALWAYS", "REPLICATED", "SENTINEL"})
    void theForecastIsWhatTheRunDoes(LabPreset preset) throws Exception {
        try (LabFleet fleet = LabFleet.start(3, preset)) {
            LabData lab = new LabData(fleet, List.of("lab-1", "lab-2", "lab-3"));
            boolean stopped = preset == LabPreset.THP_ALWAYS;
            if (stopped) {
                fleet.stopRedis("lab-2");
            }
            Path forecastDir = dir.resolve(preset.cliName() + "-check");
            CliRun check = lab.apply(dir, THP_OFF, "--check", "--report", forecastDir.toString())
                    .expectExit(ExitCode.CHANGES_PENDING);
            assertThat(check.stdout())
                    .contains("FORECAST (check mode: nothing was changed; what apply would do)")
                    .doesNotContain("waiting:");
            if (stopped) {
                assertThat(lab.cli("lab-2", "PING"))
                        .as("check mode started nothing")
                        .doesNotContain("PONG");
                assertThat(check.stdout())
                        .contains("lab-2: would change")
                        .contains("  restart: start it (it does not answer now)");
            }

            Path runDir = dir.resolve(preset.cliName() + "-run");
            lab.apply(dir, THP_OFF, "--report", runDir.toString()).expectExit(ExitCode.OK);

            Map<String, Outcome> forecast = outcomes(ReportJson.read(forecastDir.resolve(ReportJson.FILE)));
            Map<String, Outcome> run = outcomes(ReportJson.read(runDir.resolve(ReportJson.FILE)));
            assertThat(forecast).as(preset.cliName()).isEqualTo(run);
            assertThat(run.values()).allSatisfy(o -> assertThat(o.restartPath()).isNotEqualTo("refuse"));
            for (String host : List.of("lab-1", "lab-2", "lab-3")) {
                assertThat(lab.cli(host, "PING")).as(host).contains("PONG");
                assertThat(fleet.thp(host).strip()).as(host).isEqualTo("never");
            }
            if (preset != LabPreset.THP_ALWAYS) {
                assertThat(run.get("lab-1").restartRoute())
                        .isEqualTo(preset == LabPreset.SENTINEL ? "sentinel" : "failover");
                assertThat(lab.cli("lab-1", "INFO replication")).contains("role:master");
            }
        }
    }

    private static Map<String, Outcome> outcomes(FleetReport report) {
        Map<String, Outcome> outcomes = new TreeMap<>();
        for (HostReport host : report.hosts()) {
            Optional<StepReport> restart = step(host, "restart_redis");
            outcomes.put(
                    host.name(),
                    new Outcome(
                            host.outcome(),
                            host.steps().stream()
                                    .filter(s -> s.status().equals("changed")
                                            && !s.type().equals("restart_redis"))
                                    .flatMap(s -> s.changes().stream())
                                    .map(CheckForecastIT::change)
                                    .toList(),
                            restart.map(s -> s.facts().getOrDefault("restart.path", s.status()))
                                    .orElse("none"),
                            restart.map(s -> s.facts().getOrDefault("restart.route", "none"))
                                    .orElse("none"),
                            awaited(step(host, "wait_healthy"))));
        }
        return outcomes;
    }

    /** File contents differ by design (backup names carry the run id): the path and kind of change are compared. */
    private static String change(ChangeReport c) {
        return c.what() + " " + c.before() + " → " + c.after();
    }

    /** The gates apply waited for (and that passed), or that the forecast says apply would wait for. */
    private static List<String> awaited(Optional<StepReport> step) {
        if (step.isEmpty()) {
            return List.of();
        }
        return step.get().gates().stream()
                .flatMap(g -> g.parts().isEmpty() ? java.util.stream.Stream.of(g) : g.parts().stream())
                .filter(g -> g.forecast() == null ? g.passed() : g.forecast().startsWith("apply waits"))
                .map(GateReport::gate)
                .toList();
    }

    private static Optional<StepReport> step(HostReport host, String type) {
        return host.steps().stream().filter(s -> s.type().equals(type)).findFirst();
    }
}
