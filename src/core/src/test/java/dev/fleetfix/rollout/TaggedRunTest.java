package dev.fleetfix.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.Harness;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.rollout.event.PlayStarted;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.RunSummary;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.steps.restart.PendingRestart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine runs only the steps the tags select; the plan and the run's events name the others. */
class TaggedRunTest {
    @TempDir
    Path dir;

    private static RunOptions tags(String only, String skip) {
        return Harness.sequential()
                .withTags(TagSelection.of(
                        only.isEmpty() ? List.of() : List.of(only), skip.isEmpty() ? List.of() : List.of(skip)));
    }

    private static String thpOff() throws Exception {
        return Files.readString(Path.of("playbooks/thp-off.yaml"));
    }

    @Test
    void thePlanLeavesOutWhatTheTagsDoNotSelectAndKeepsEachStepsPlaceInThePlay() throws Exception {
        Harness h = new Harness(dir, "r1");
        RunPlan plan = h.plan(thpOff(), tags("", "benchmark,restart"));

        RunPlan.PlannedPlay play = plan.plays().get(0);
        assertThat(play.leftOutByTags())
                .extracting(Step::name)
                .containsExactly("benchmark before", "restart_redis", "wait_healthy", "benchmark after");
        assertThat(play.stepsByHost().get("r1"))
                .extracting(s -> s.index() + " " + s.step().name())
                .containsExactly("1 audit", "3 thp", "4 persist_thp", "7 assert");
        assertThat(play.emptiedByTags()).isFalse();
    }

    @Test
    void skippingTheRestartLeavesTheHostsOwnRecordSoALaterRestartOnlyRunStillRestarts() throws Exception {
        Harness h = new Harness(dir, "r1", "r2");

        RunSummary changed = h.run(thpOff(), tags("", "benchmark,restart"));

        assertThat(changed.outcome()).as(h.events.toString()).isEqualTo(RunOutcome.OK);
        assertThat(h.hosts.values()).allSatisfy(host -> {
            assertThat(host.thp("enabled")).isEqualTo("never");
            assertThat(host.redis().restarts()).isZero();
            assertThat(host.read(PendingRestart.PATH)).isPresent();
        });
        assertThat(h.events)
                .filteredOn(PlayStarted.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(((PlayStarted) e).leftOutByTags())
                        .containsExactly("benchmark before", "restart_redis", "wait_healthy", "benchmark after"));
        assertThat(h.events)
                .filteredOn(RunStarted.class::isInstance)
                .singleElement()
                .satisfies(
                        e -> assertThat(((RunStarted) e).tags().describe()).isEqualTo("all; skip: benchmark, restart"));
        assertThat(stepsRun(h)).doesNotContain("restart_redis", "wait_healthy", "benchmark before");

        // the restart alone: the thp step does not run, yet the host's record says Redis has not restarted since
        RunSummary restarted = h.run(thpOff(), tags("restart", ""));

        assertThat(restarted.outcome()).as(h.events.toString()).isEqualTo(RunOutcome.OK);
        assertThat(stepsRun(h)).containsOnly("audit", "restart_redis", "wait_healthy");
        assertThat(h.hosts.values()).allSatisfy(host -> {
            assertThat(host.redis().restarts()).isEqualTo(1);
            assertThat(host.read(PendingRestart.PATH)).isEmpty();
        });

        // nothing pending any more: the same restart-only run restarts nothing
        h.run(thpOff(), tags("restart", ""));
        assertThat(h.hosts.values())
                .allSatisfy(host -> assertThat(host.redis().restarts()).isEqualTo(1));
    }

    @Test
    void kernelTuningsRestartAloneIsSkippedForItsUnknownFactNeverRunBlind() throws Exception {
        Harness h = new Harness(dir, "r1");

        RunSummary summary = h.run(Files.readString(Path.of("playbooks/kernel-tuning.yaml")), tags("restart", ""));

        assertThat(summary.outcome()).as(h.events.toString()).isEqualTo(RunOutcome.OK);
        assertThat(stepsRun(h)).containsExactly("audit", "restart where a value needs it", "wait_healthy");
        assertThat(h.result("r1", "restart_redis").message()).contains("fact 'redis.restart_needed' is unknown");
        assertThat(h.host("r1").redis().restarts()).isZero();
    }

    @Test
    void aPlayWhoseEveryStepIsLeftOutTouchesNoHost() throws Exception {
        Harness h = new Harness(dir, "r1");
        String yaml =
                """
                - hosts: all
                  steps:
                    - thp: {}
                      tags: thp
                - hosts: all
                  steps:
                    - audit: {}
                      tags: facts
                """;

        RunSummary summary = h.run(yaml, tags("facts", ""));

        assertThat(summary.outcome()).isEqualTo(RunOutcome.OK);
        List<PlayStarted> plays = h.events.stream()
                .filter(PlayStarted.class::isInstance)
                .map(PlayStarted.class::cast)
                .toList();
        assertThat(plays).extracting(PlayStarted::emptiedByTags).containsExactly(true, false);
        assertThat(stepsRun(h)).containsExactly("audit");
        assertThat(h.host("r1").thp("enabled")).isEqualTo("always");
    }

    private static List<String> stepsRun(Harness h) {
        return h.events.stream()
                .filter(StepFinished.class::isInstance)
                .map(e -> ((StepFinished) e).step())
                .toList();
    }
}
