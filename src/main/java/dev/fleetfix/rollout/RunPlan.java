package dev.fleetfix.rollout;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.steps.FactCondition;
import dev.fleetfix.steps.StepHandler;
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

    /** A step ready to run on one host. */
    public record PlannedStep(Step step, StepHandler handler, Optional<FactCondition> when) {}

    /** A play with its batches and each host's steps. */
    public record PlannedPlay(
            Play play, BatchPlan batches, Optional<ChangeWindow> window, Map<String, List<PlannedStep>> stepsByHost) {
        public PlannedPlay {
            stepsByHost = Map.copyOf(stepsByHost);
        }

        public List<Host> hosts() {
            List<Host> all = new ArrayList<>();
            batches.batches().forEach(all::addAll);
            return all;
        }
    }

    /** Every host name some play runs on, in first-seen order. */
    public List<String> hostNames() {
        Set<String> names = new LinkedHashSet<>();
        for (PlannedPlay p : plays) {
            p.hosts().forEach(h -> names.add(h.name()));
        }
        return List.copyOf(names);
    }
}
