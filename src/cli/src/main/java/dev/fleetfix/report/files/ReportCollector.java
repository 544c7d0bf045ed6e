package dev.fleetfix.report.files;

import dev.fleetfix.FleetfixVersion;
import dev.fleetfix.report.Effects;
import dev.fleetfix.report.ReportModelMapper;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.PlayReport;
import dev.fleetfix.report.model.RunInfo;
import dev.fleetfix.report.model.StepReport;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.event.PlayHalted;
import dev.fleetfix.rollout.event.PlayStarted;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.event.WindowClosed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Folds a run's events into a {@link FleetReport}: the one model the JSON, JUnit, HTML and console
 * recap render. Listeners are called one event at a time, so no locking here.
 */
public final class ReportCollector implements RunListener {
    private RunStarted started;
    private String playbookSha256;
    private RunEnded ended;
    private final Map<String, PlayState> plays = new LinkedHashMap<>();
    private final Map<String, HostState> hosts = new LinkedHashMap<>();
    private final List<ReportModelMapper.MeasuredRun> benchmarks = new ArrayList<>();

    private static final class PlayState {
        PlayStarted started;
        String halted;
        String windowClosed;
    }

    private static final class HostState {
        HostOutcome outcome = HostOutcome.UNTOUCHED;
        String reason = "";
        Duration elapsed = Duration.ZERO;
        Map<String, String> facts = new TreeMap<>();
        final List<StepReport> steps = new ArrayList<>();
        String thpBefore;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunStarted e) {
            started = e;
            playbookSha256 = sha256(e.playbook()).orElse(null);
            e.hosts().forEach(this::host);
        } else if (event instanceof PlayStarted e) {
            play(e.play()).started = e;
        } else if (event instanceof StepFinished e) {
            step(e);
        } else if (event instanceof HostFinished e) {
            hostFinished(e);
        } else if (event instanceof BenchmarkFinished e) {
            benchmarks.add(new ReportModelMapper.MeasuredRun(e.step(), e.run()));
        } else if (event instanceof PlayHalted e) {
            play(e.play()).halted = e.reason();
        } else if (event instanceof WindowClosed e) {
            play(e.play()).windowClosed = e.window() + " (closed at " + e.localTime() + ")";
        } else if (event instanceof RunEnded e) {
            ended = e;
        }
    }

    private PlayState play(String name) {
        return plays.computeIfAbsent(name, n -> new PlayState());
    }

    private HostState host(String name) {
        return hosts.computeIfAbsent(name, n -> new HostState());
    }

    private void step(StepFinished e) {
        HostState h = host(e.host());
        StepReport step = ReportModelMapper.step(e);
        if (h.thpBefore == null) {
            h.thpBefore = step.changes().stream()
                    .filter(c -> c.what().equals("thp.enabled"))
                    .map(c -> c.before())
                    .findFirst()
                    .orElse(step.facts().get("thp.enabled"));
        }
        h.facts.putAll(step.facts());
        h.steps.add(step);
    }

    private void hostFinished(HostFinished e) {
        HostState h = host(e.host());
        // a failure in one play stays the host's outcome, whatever later plays say
        if (!h.outcome.failed() && e.outcome() != HostOutcome.UNTOUCHED) {
            h.outcome = e.outcome();
            h.reason = e.reason();
        }
        h.elapsed = h.elapsed.plus(e.elapsed());
        h.facts.putAll(e.facts());
    }

    /** The report so far; complete once {@link RunEnded} arrived. */
    public FleetReport report() {
        if (started == null) {
            throw new IllegalStateException("no run started yet");
        }
        List<PlayReport> playReports = new ArrayList<>();
        plays.forEach((name, p) -> playReports.add(new PlayReport(
                name,
                p.started == null ? List.of() : p.started.batches(),
                p.started == null ? 0 : p.started.maxFailPercentage(),
                p.started == null ? null : p.started.window().orElse(null),
                p.halted,
                p.windowClosed)));
        List<HostReport> hostReports = new ArrayList<>();
        hosts.forEach((name, h) -> hostReports.add(new HostReport(
                name,
                ReportModelMapper.word(h.outcome),
                h.reason,
                h.elapsed.toMillis(),
                h.facts,
                h.thpBefore,
                h.facts.getOrDefault("thp.enabled", h.thpBefore),
                h.steps,
                Effects.expectation(h.facts).orElse(null))));
        return ReportJson.sanitized(new FleetReport(
                FleetReport.SCHEMA_VERSION,
                runInfo(),
                playReports,
                hostReports,
                ReportModelMapper.benchmarks(benchmarks)));
    }

    private RunInfo runInfo() {
        RunSummary s = ended == null ? null : ended.summary();
        Instant end = ended == null ? null : ended.at();
        return new RunInfo(
                started.runId(),
                started.playbook().toString(),
                started.check(),
                started.diff(),
                started.forks(),
                started.at().toString(),
                end == null ? null : end.toString(),
                s == null ? 0 : s.elapsed().toMillis(),
                s == null ? null : ReportModelMapper.word(s.outcome()),
                s == null ? "" : s.reason(),
                s == null ? List.of() : s.done(),
                s == null ? List.of() : s.failed(),
                s == null ? List.of() : s.untouched(),
                s == null ? List.of() : s.changed(),
                playbookSha256,
                FleetfixVersion.get());
    }

    /** The file's digest, read when the run starts: the playbook {@code fleetfix report merge} checks runs share. */
    private static Optional<String> sha256(Path file) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return Optional.of(HexFormat.of().formatHex(digest));
        } catch (IOException | NoSuchAlgorithmException e) {
            return Optional.empty();
        }
    }
}
