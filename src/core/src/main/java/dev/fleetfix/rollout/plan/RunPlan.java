package dev.fleetfix.rollout.plan;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.steps.StepHandler;
import dev.fleetfix.steps.facts.FactCondition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A playbook made ready to run: every play's hosts and batches, and every step resolved and
 * validated for every host. Building it touches no host; every input error surfaces here.
 */
public record RunPlan(Playbook playbook, List<PlannedPlay> plays, RunOptions options) {
    public RunPlan {
        plays = List.copyOf(plays);
    }

    /**
     * A step ready to run on one host.
     *
     * @param index the step's place in the play as written, from 1: the same whichever steps tags leave out, so
     *     that the journal and the reports name a step alike in every run
     */
    public record PlannedStep(int index, Step step, StepHandler handler, Optional<FactCondition> when) {}

    /**
     * A play with its batches and each host's steps.
     *
     * @param play the play with the steps that run: those {@code --tags} and {@code --skip-tags} select
     * @param leftOutByTags the play's other steps, in order, which no host runs
     */
    public record PlannedPlay(
            Play play,
            BatchPlan batches,
            Optional<ChangeWindow> window,
            Map<String, List<PlannedStep>> stepsByHost,
            List<Step> leftOutByTags) {
        public PlannedPlay {
            stepsByHost = Map.copyOf(stepsByHost);
            leftOutByTags = List.copyOf(leftOutByTags);
        }

        /** Tags left every step of the play out: it runs on no host. */
        public boolean emptiedByTags() {
            return play.steps().isEmpty() && !leftOutByTags.isEmpty();
        }

        public List<Host> hosts() {
            List<Host> all = new ArrayList<>();
            batches.batches().forEach(all::addAll);
            return all;
        }
    }

    /** Every host name some play runs on, in first-seen order (not those of a play tags left empty). */
    public List<String> hostNames() {
        Set<String> names = new LinkedHashSet<>();
        for (PlannedPlay p : plays) {
            if (p.emptiedByTags()) {
                continue;
            }
            p.hosts().forEach(h -> names.add(h.name()));
        }
        return List.copyOf(names);
    }
}
