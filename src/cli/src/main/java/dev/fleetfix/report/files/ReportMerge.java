package dev.fleetfix.report.files;

import dev.fleetfix.InputException;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.ReportModelMapper;
import dev.fleetfix.report.model.BenchmarkReport;
import dev.fleetfix.report.model.ComparisonReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.PlayReport;
import dev.fleetfix.report.model.RunInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code fleetfix report merge}: the reports of several runs of one playbook (the shards of one change) as one fleet
 * report. Runs of another playbook, another version of it, another fleetfix or another mode are refused, and so is a
 * host that two reports hold: each host is done by one shard. The fleet benchmark verdict is computed again over every
 * host's comparisons, by the same code as a single run's.
 */
public final class ReportMerge {
    private ReportMerge() {}

    /** One report and the directory it was read from, to name in messages. */
    public record Input(Path dir, FleetReport report) {
        public Input {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(report, "report");
        }
    }

    /**
     * The merged report and what it lacks.
     *
     * @param report the fleet report; hosts no input covered are in it as untouched
     * @param uncovered selected hosts that no input's report holds, in inventory order
     * @param unexpected hosts of the reports that the selection does not hold
     * @param notes what the merge could not check (a report without a playbook digest)
     */
    public record Merged(FleetReport report, List<String> uncovered, List<String> unexpected, List<String> notes) {
        public Merged {
            uncovered = List.copyOf(uncovered);
            unexpected = List.copyOf(unexpected);
            notes = List.copyOf(notes);
        }

        /** What the merge tells before the recap: hosts no shard covered, hosts outside the selection, checks not made. */
        public List<String> warnings() {
            List<String> lines = new ArrayList<>();
            if (!uncovered.isEmpty()) {
                lines.add(uncovered.size() + " host" + (uncovered.size() == 1 ? "" : "s") + " " + UNCOVERED + ": "
                        + HostText.clean(String.join(", ", uncovered)));
            }
            if (!unexpected.isEmpty()) {
                lines.add("in the reports but not in the inventory's selection: "
                        + HostText.clean(String.join(", ", unexpected)));
            }
            notes.forEach(n -> lines.add(HostText.clean(n)));
            return lines;
        }

        /** Every selected host covered and every run ended ok. */
        public boolean complete() {
            return uncovered.isEmpty() && "ok".equals(report.run().outcome());
        }
    }

    /** Why an uncovered host is untouched, in the merged report. */
    static final String UNCOVERED = "in no shard's report (fleetfix report merge)";

    /**
     * Merges {@code inputs}, in their order.
     *
     * @param selection the hosts the shards should have covered, in inventory order; empty when not known
     * @throws InputException for runs of different playbooks, versions or modes, or a host in two reports
     */
    public static Merged merge(List<Input> inputs, Optional<List<String>> selection) {
        if (inputs.isEmpty()) {
            throw new InputException("report merge: give one report DIR at least");
        }
        List<String> notes = new ArrayList<>();
        checkSameRun(inputs, notes);
        Map<String, Input> owner = owners(inputs);
        List<String> uncovered = selection.orElse(List.of()).stream()
                .filter(h -> !owner.containsKey(h))
                .toList();
        List<String> unexpected = selection.isEmpty()
                ? List.of()
                : owner.keySet().stream()
                        .filter(h -> !selection.get().contains(h))
                        .toList();
        FleetReport report = ReportJson.sanitized(new FleetReport(
                FleetReport.SCHEMA_VERSION,
                run(inputs, uncovered),
                plays(inputs),
                hosts(inputs, selection, uncovered),
                benchmarks(inputs)));
        return new Merged(report, uncovered, unexpected, notes);
    }

    private static void checkSameRun(List<Input> inputs, List<String> notes) {
        Input first = inputs.get(0);
        RunInfo one = first.report().run();
        for (Input other : inputs.subList(1, inputs.size())) {
            RunInfo run = other.report().run();
            same(first, other, "playbook", fileName(one.playbook()), fileName(run.playbook()));
            if (one.playbookSha256() != null && run.playbookSha256() != null) {
                same(first, other, "playbook version (sha256)", one.playbookSha256(), run.playbookSha256());
            } else {
                notes.add("not checked that " + first.dir() + " and " + other.dir() + " ran the same version of "
                        + fileName(one.playbook()) + ": a report written before fleetfix recorded its sha256");
            }
            if (one.fleetfixVersion() != null && run.fleetfixVersion() != null) {
                same(first, other, "fleetfix version", one.fleetfixVersion(), run.fleetfixVersion());
            }
            same(first, other, "mode", one.check() ? "--check" : "apply", run.check() ? "--check" : "apply");
            same(first, other, "plays", playNames(first.report()), playNames(other.report()));
        }
    }

    private static void same(Input a, Input b, String what, Object x, Object y) {
        if (!Objects.equals(x, y)) {
            throw new InputException("report merge: " + b.dir() + " is not a shard of the run in " + a.dir() + ": "
                    + what + " " + y + ", not " + x + " (merge the reports of one playbook's shards)");
        }
    }

    private static String fileName(String playbook) {
        Path name = Path.of(playbook).getFileName();
        return name == null ? playbook : name.toString();
    }

    private static String playNames(FleetReport report) {
        return report.plays().stream().map(PlayReport::name).collect(Collectors.joining(", ", "[", "]"));
    }

    /** Which input holds each host; a host held twice is refused, naming both. */
    private static Map<String, Input> owners(List<Input> inputs) {
        Map<String, Input> owner = new LinkedHashMap<>();
        for (Input input : inputs) {
            for (HostReport host : input.report().hosts()) {
                Input before = owner.putIfAbsent(host.name(), input);
                if (before != null && before != input) {
                    throw new InputException("report merge: host " + host.name() + " is in " + before.dir() + " and "
                            + input.dir() + ": shards must not overlap (was one cut given to both, or a run"
                            + " repeated?)");
                }
            }
        }
        return owner;
    }

    private static RunInfo run(List<Input> inputs, List<String> uncovered) {
        List<RunInfo> runs = inputs.stream().map(i -> i.report().run()).toList();
        RunInfo first = runs.get(0);
        Instant start = runs.stream()
                .map(r -> Instant.parse(r.startedAt()))
                .min(Instant::compareTo)
                .orElseThrow();
        boolean ended = runs.stream().allMatch(r -> r.endedAt() != null);
        Instant end = ended
                ? runs.stream()
                        .map(r -> Instant.parse(r.endedAt()))
                        .max(Instant::compareTo)
                        .orElseThrow()
                : null;
        String outcome = runs.stream()
                .map(RunInfo::outcome)
                .filter(o -> !"ok".equals(o))
                .findFirst()
                .orElse(first.outcome());
        List<String> untouched = new ArrayList<>(all(runs, RunInfo::untouched));
        untouched.addAll(uncovered);
        return new RunInfo(
                runs.stream().map(RunInfo::id).collect(Collectors.joining("+")),
                first.playbook(),
                first.check(),
                runs.stream().anyMatch(RunInfo::diff),
                runs.stream().mapToInt(RunInfo::forks).sum(),
                start.toString(),
                end == null ? null : end.toString(),
                end == null
                        ? runs.stream().mapToLong(RunInfo::elapsedMs).max().orElse(0)
                        : Duration.between(start, end).toMillis(),
                outcome,
                reason(inputs, uncovered),
                all(runs, RunInfo::done),
                all(runs, RunInfo::failed),
                untouched,
                all(runs, RunInfo::changed),
                first.playbookSha256(),
                first.fleetfixVersion());
    }

    /** Each shard's reason, named by its directory, then the hosts no shard covered. */
    private static String reason(List<Input> inputs, List<String> uncovered) {
        List<String> reasons = new ArrayList<>();
        for (Input input : inputs) {
            if (!input.report().run().reason().isEmpty()) {
                reasons.add(input.dir() + ": " + input.report().run().reason());
            }
        }
        if (!uncovered.isEmpty()) {
            reasons.add(uncovered.size() + " host" + (uncovered.size() == 1 ? "" : "s") + " " + UNCOVERED + ": "
                    + String.join(", ", uncovered));
        }
        return String.join("; ", reasons);
    }

    private static List<String> all(List<RunInfo> runs, Function<RunInfo, List<String>> field) {
        return runs.stream().flatMap(r -> field.apply(r).stream()).toList();
    }

    /** Each play once, its batches those of every shard, one after the other. */
    private static List<PlayReport> plays(List<Input> inputs) {
        Map<String, List<PlayReport>> byName = new LinkedHashMap<>();
        for (Input input : inputs) {
            input.report().plays().forEach(p -> byName.computeIfAbsent(p.name(), k -> new ArrayList<>())
                    .add(p));
        }
        List<PlayReport> plays = new ArrayList<>();
        byName.forEach((name, shards) -> {
            PlayReport first = shards.get(0);
            plays.add(new PlayReport(
                    name,
                    shards.stream().flatMap(p -> p.batches().stream()).toList(),
                    first.maxFailPercentage(),
                    first.window(),
                    joined(shards.stream().map(PlayReport::halted).toList()),
                    shards.stream()
                            .map(PlayReport::windowClosed)
                            .filter(Objects::nonNull)
                            .findFirst()
                            .orElse(null)));
        });
        return plays;
    }

    private static String joined(List<String> values) {
        List<String> present = values.stream().filter(Objects::nonNull).toList();
        return present.isEmpty() ? null : String.join("; ", present);
    }

    /** In inventory order when the selection is known, the uncovered ones as untouched; else in input order. */
    private static List<HostReport> hosts(
            List<Input> inputs, Optional<List<String>> selection, List<String> uncovered) {
        Map<String, HostReport> byName = new LinkedHashMap<>();
        inputs.forEach(i -> i.report().hosts().forEach(h -> byName.put(h.name(), h)));
        Set<String> missing = Set.copyOf(uncovered);
        if (selection.isEmpty()) {
            return List.copyOf(byName.values());
        }
        List<HostReport> hosts = new ArrayList<>();
        Map<String, HostReport> rest = new HashMap<>(byName);
        for (String name : selection.get()) {
            if (missing.contains(name)) {
                hosts.add(new HostReport(name, "untouched", UNCOVERED, 0, Map.of(), null, null, List.of(), null));
            } else if (rest.containsKey(name)) {
                hosts.add(rest.remove(name));
            }
        }
        byName.values().stream().filter(h -> rest.containsKey(h.name())).forEach(hosts::add);
        return hosts;
    }

    private static BenchmarkReport benchmarks(List<Input> inputs) {
        List<BenchmarkReport> all =
                inputs.stream().map(i -> i.report().benchmarks()).toList();
        List<ComparisonReport> comparisons =
                all.stream().flatMap(b -> b.comparisons().stream()).toList();
        return new BenchmarkReport(
                all.stream().flatMap(b -> b.runs().stream()).toList(),
                comparisons,
                ReportModelMapper.fleet(comparisons),
                all.stream().flatMap(b -> b.sweep().stream()).toList(),
                all.stream().flatMap(b -> b.sweepComparisons().stream()).toList());
    }

    /** Writes report.json, junit.xml and report.html of {@code report} into {@code dir}, as {@code apply --report}. */
    public static void write(Path dir, FleetReport report) {
        for (ReportFormat format : ReportFormat.values()) {
            ReportFiles.write(dir.resolve(format.fileName()), format.render(report));
        }
    }
}
