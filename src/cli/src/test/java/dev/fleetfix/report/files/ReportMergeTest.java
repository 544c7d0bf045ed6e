package dev.fleetfix.report.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.report.ReportModelMapper;
import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.report.html.HtmlPage;
import dev.fleetfix.report.model.BenchmarkReport;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.PlayReport;
import dev.fleetfix.report.model.RunInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The synthetic run (r1 and r2 benchmarked before and after, r3 failed, r4 untouched) cut into two shards' reports and
 * merged again: the merge must give back what the single run reported.
 */
class ReportMergeTest {
    private static final Path A = Path.of("shard-1");
    private static final Path B = Path.of("shard-2");

    private final FleetReport whole = whole();

    private static FleetReport whole() {
        ReportCollector collector = new ReportCollector();
        SyntheticRun.play(collector);
        return collector.report();
    }

    @Test
    void theShardsMergedAreTheSingleRunTheFleetVerdictComputedOverEveryHost() {
        FleetReport one = shard(whole, Set.of("r1", "r3"));
        FleetReport two = shard(whole, Set.of("r2", "r4"));
        // each shard alone has one benchmarked host: its fleet verdict is that host's
        assertThat(one.benchmarks().fleet())
                .allSatisfy(f -> assertThat(f.hosts()).containsExactly("r1"));

        ReportMerge.Merged merged = ReportMerge.merge(
                List.of(new ReportMerge.Input(A, one), new ReportMerge.Input(B, two)), Optional.of(SyntheticRun.HOSTS));

        assertThat(merged.uncovered()).isEmpty();
        assertThat(merged.report().hosts()).extracting(HostReport::name).containsExactly("r1", "r2", "r3", "r4");
        assertThat(merged.report().hosts())
                .extracting(HostReport::outcome)
                .containsExactlyElementsOf(
                        whole.hosts().stream().map(HostReport::outcome).toList());
        assertThat(merged.report().benchmarks().fleet())
                .isNotEmpty()
                .isEqualTo(whole.benchmarks().fleet());
        assertThat(merged.report().benchmarks().fleet())
                .allSatisfy(f -> assertThat(f.hosts()).containsExactly("r1", "r2"));
        assertThat(merged.report().run().failed())
                .containsExactlyInAnyOrderElementsOf(whole.run().failed());
        assertThat(merged.report().run().id())
                .isEqualTo(whole.run().id() + "+" + whole.run().id());
    }

    @Test
    void aHostInTwoReportsIsRefusedNamingTheHostAndBothDirectories() {
        FleetReport one = shard(whole, Set.of("r1", "r3"));
        FleetReport two = shard(whole, Set.of("r3", "r4"));

        assertThatThrownBy(() -> ReportMerge.merge(
                        List.of(new ReportMerge.Input(A, one), new ReportMerge.Input(B, two)), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("report merge: host r3 is in shard-1 and shard-2: shards must not overlap");
    }

    @Test
    void anotherPlaybookOrVersionOfItIsRefused() {
        FleetReport one = shard(whole, Set.of("r1"));
        FleetReport other = withRun(shard(whole, Set.of("r2")), "other.yaml", "abc");
        FleetReport edited = withRun(shard(whole, Set.of("r2")), "thp-off.yaml", "def");
        FleetReport sameVersion = withRun(one, "thp-off.yaml", "abc");

        assertThatThrownBy(() -> ReportMerge.merge(
                        List.of(new ReportMerge.Input(A, sameVersion), new ReportMerge.Input(B, other)),
                        Optional.empty()))
                .hasMessage("report merge: shard-2 is not a shard of the run in shard-1: playbook other.yaml, not"
                        + " thp-off.yaml (merge the reports of one playbook's shards)");
        assertThatThrownBy(() -> ReportMerge.merge(
                        List.of(new ReportMerge.Input(A, sameVersion), new ReportMerge.Input(B, edited)),
                        Optional.empty()))
                .hasMessageContaining("playbook version (sha256) def, not abc");
    }

    @Test
    void hostsNoShardCoveredAreNamedAndUntouchedInTheMergedReport() {
        FleetReport one = shard(whole, Set.of("r1", "r2"));

        ReportMerge.Merged merged =
                ReportMerge.merge(List.of(new ReportMerge.Input(A, one)), Optional.of(SyntheticRun.HOSTS));

        assertThat(merged.uncovered()).containsExactly("r3", "r4");
        assertThat(merged.complete()).isFalse();
        assertThat(merged.warnings()).contains("2 hosts in no shard's report (fleetfix report merge): r3, r4");
        assertThat(merged.report().run().untouched()).contains("r3", "r4");
        assertThat(merged.report().hosts())
                .filteredOn(h -> h.name().equals("r4"))
                .singleElement()
                .extracting(HostReport::reason)
                .isEqualTo(ReportMerge.UNCOVERED);
        // JUnit and HTML render the merged model as they render a run's
        assertThat(JunitXml.render(merged.report())).contains("r4");
        assertThat(HtmlPage.render(merged.report())).contains("r4");
    }

    /** The report the run would have written, had it run on {@code hosts} only. */
    static FleetReport shard(FleetReport report, Set<String> hosts) {
        RunInfo r = report.run();
        BenchmarkReport b = report.benchmarks();
        return new FleetReport(
                FleetReport.SCHEMA_VERSION,
                new RunInfo(
                        r.id(),
                        r.playbook(),
                        r.check(),
                        r.diff(),
                        r.forks(),
                        r.startedAt(),
                        r.endedAt(),
                        r.elapsedMs(),
                        r.outcome(),
                        r.reason(),
                        r.done().stream().filter(hosts::contains).toList(),
                        r.failed().stream().filter(hosts::contains).toList(),
                        r.untouched().stream().filter(hosts::contains).toList(),
                        r.changed().stream().filter(hosts::contains).toList(),
                        r.playbookSha256(),
                        r.fleetfixVersion()),
                report.plays().stream()
                        .map(p -> new PlayReport(
                                p.name(),
                                p.batches().stream()
                                        .map(batch -> batch.stream()
                                                .filter(hosts::contains)
                                                .toList())
                                        .filter(batch -> !batch.isEmpty())
                                        .toList(),
                                p.maxFailPercentage(),
                                p.window(),
                                p.halted(),
                                p.windowClosed()))
                        .toList(),
                report.hosts().stream().filter(h -> hosts.contains(h.name())).toList(),
                new BenchmarkReport(
                        b.runs().stream().filter(x -> hosts.contains(x.host())).toList(),
                        b.comparisons().stream()
                                .filter(x -> hosts.contains(x.host()))
                                .toList(),
                        ReportModelMapper.fleet(b.comparisons().stream()
                                .filter(x -> hosts.contains(x.host()))
                                .toList()),
                        List.of(),
                        List.of()));
    }

    private static FleetReport withRun(FleetReport report, String playbook, String sha256) {
        RunInfo r = report.run();
        return new FleetReport(
                FleetReport.SCHEMA_VERSION,
                new RunInfo(
                        r.id(),
                        playbook,
                        r.check(),
                        r.diff(),
                        r.forks(),
                        r.startedAt(),
                        r.endedAt(),
                        r.elapsedMs(),
                        r.outcome(),
                        r.reason(),
                        r.done(),
                        r.failed(),
                        r.untouched(),
                        r.changed(),
                        sha256,
                        r.fleetfixVersion()),
                report.plays(),
                report.hosts(),
                report.benchmarks());
    }
}
