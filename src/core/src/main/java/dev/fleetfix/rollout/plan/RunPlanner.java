package dev.fleetfix.rollout.plan;

import dev.fleetfix.InputException;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Location;
import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.playbook.Templates;
import dev.fleetfix.rollout.plan.RunPlan.PlannedPlay;
import dev.fleetfix.rollout.plan.RunPlan.PlannedStep;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.FactCondition;
import dev.fleetfix.steps.model.StepArgs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a parsed playbook into a {@link RunPlan}: selects each play's hosts, plans its batches,
 * parses its window, and resolves and prepares every step for every host, so that a missing
 * variable or a bad argument stops the run before any host is contacted.
 *
 * <p>The steps are those the run's {@link TagSelection} selects; the play's others are left out here, in the
 * plan, and named in it, so that every later part of the run (batches, preflight, hosts) sees only what runs.
 * A play without a {@code restart_redis} step left in reads no replication to order its batches.
 *
 * <p>Variables, lowest precedence first: the host's inventory variables; {@code inventory_hostname} and
 * {@code playbook_dir} (Ansible's magic variables);
 * {@code redis_service} and {@code redis_port} (from the inventory's Redis settings, unless set);
 * the play's {@code vars} (which may use the former).
 */
public final class RunPlanner {
    private final StepRegistry steps;
    private final HostOrdering ordering;
    private final boolean forRun;

    /** A planner for a run, in inventory order. */
    public RunPlanner(StepRegistry steps) {
        this(steps, HostOrdering.inventoryOrder(), true);
    }

    /**
     * @param forRun whether the plan is for a run that contacts the hosts: each play's hosts must then be usable
     *     ({@link Host#requireUsable()}) before the ordering reads any Redis, and a step argument that uses a value
     *     that cannot be evaluated refuses the run. A plan for a listing ({@code --list-hosts}, {@code
     *     --syntax-check}) needs neither: what a host's variables hold is checked when a run uses them, as Ansible
     *     templates them only then
     */
    public RunPlanner(StepRegistry steps, HostOrdering ordering, boolean forRun) {
        this.steps = steps;
        this.ordering = ordering;
        this.forRun = forRun;
    }

    public RunPlan plan(Playbook playbook, HostSelector hosts, RunOptions options) {
        Playbook run = options.startAtTask()
                .map(name -> StartAtTask.from(playbook, name, options.tags()))
                .orElse(playbook);
        List<PlannedPlay> plays = new ArrayList<>();
        for (Play play : run.plays()) {
            plays.add(plan(play, hosts, options));
        }
        return new RunPlan(run, plays, options);
    }

    private PlannedPlay plan(Play written, HostSelector selector, RunOptions options) {
        List<Step> chosen = options.tags().steps(written);
        List<Step> leftOut =
                written.steps().stream().filter(step -> !chosen.contains(step)).toList();
        Play play = written.withSteps(chosen);
        List<Host> selected = selectHosts(play, selector);
        if (forRun) {
            // before the ordering reads any Redis: what a run cannot evaluate stops it before any host is touched
            selected.forEach(Host::requireUsable);
        }
        BatchPlan batches = Machines.split(ordering.batches(play, selected));
        List<Host> hosts = batches.batches().stream().flatMap(List::stream).toList();
        Optional<ChangeWindow> window = options.window().or(() -> play.window().map(text -> {
            try {
                return ChangeWindow.parse(text);
            } catch (IllegalArgumentException e) {
                throw play.location().error(e.getMessage());
            }
        }));
        Map<String, List<PlannedStep>> byHost = new LinkedHashMap<>();
        for (Host host : hosts) {
            List<PlannedStep> planned = new ArrayList<>();
            try {
                Map<String, Object> vars = variables(play, host, options.extraVars());
                for (Step step : chosen) {
                    planned.add(prepare(written.steps().indexOf(step) + 1, step, host, vars));
                }
            } catch (InputException e) {
                if (forRun || !holdsUnknowns(host)) {
                    throw e;
                }
                // a listing does not use the host's values: its steps are left unplanned, a run refuses them
                planned.clear();
            }
            byHost.put(host.name(), planned);
        }
        return new PlannedPlay(play, batches, window, byHost, leftOut);
    }

    /** The play's hosts; a pattern that cannot be parsed or matches nothing is named with the play's place. */
    private static List<Host> selectHosts(Play play, HostSelector selector) {
        try {
            return selector.select(play.hosts());
        } catch (InputException e) {
            if (e.file().isPresent()) {
                throw e;
            }
            throw play.location().error("hosts: " + e.getMessage());
        }
    }

    /**
     * The host's variables, then the play's, then the extra vars ({@code -e}), which win over both as in
     * Ansible. An extra var the inventory already holds (it is the inventory's top layer) keeps the value the
     * inventory resolved, templates included.
     */
    static Map<String, Object> variables(Play play, Host host, Map<String, Object> extraVars) {
        Map<String, Object> vars = new LinkedHashMap<>(host.vars());
        vars.put("inventory_hostname", host.name());
        playbookDir(play).ifPresent(dir -> vars.put("playbook_dir", dir));
        vars.putIfAbsent("redis_service", host.redis().serviceUnit());
        vars.putIfAbsent("redis_port", host.redis().port());
        Map<String, Object> extra = new LinkedHashMap<>();
        extraVars.forEach((k, v) -> extra.put(k, host.vars().getOrDefault(k, v)));
        vars.putAll(extra);
        Map<String, Object> base = Map.copyOf(withoutNulls(vars));
        play.vars().forEach((k, v) -> vars.put(k, Templates.render(v, base, play.location(), "vars." + k, false)));
        vars.putAll(extra);
        // the host's own name is not a variable to override, from the play or the command line
        vars.put("inventory_hostname", host.name());
        return withoutNulls(vars);
    }

    /** Ansible's {@code playbook_dir}: the directory of the playbook's file, absolute. */
    private static Optional<String> playbookDir(Play play) {
        return Optional.ofNullable(play.location().file())
                .map(file -> file.toAbsolutePath().normalize().getParent())
                .map(Object::toString);
    }

    /** Whether some of the host's variables are unknown to a listing: not evaluated, or in an undecrypted file. */
    private static boolean holdsUnknowns(Host host) {
        return host.unusable().isPresent()
                || host.sealedVars().isPresent()
                || host.vars().values().stream().anyMatch(Unevaluated.class::isInstance);
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> vars) {
        Map<String, Object> out = new LinkedHashMap<>();
        vars.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    private PlannedStep prepare(int index, Step step, Host host, Map<String, Object> vars) {
        StepSignature signature = steps.signature(step.type())
                .orElseThrow(() -> step.location().error("unknown step type '" + step.type() + "'"));
        Location at = step.location();
        Map<String, Object> resolved = new LinkedHashMap<>();
        step.args()
                .forEach((name, value) -> resolved.put(
                        name,
                        Templates.render(
                                value,
                                vars,
                                at,
                                step.type() + "." + name + " (host " + host.name() + ")",
                                signature.shellArgs().contains(name))));
        Step ready = step.withArgs(resolved);
        Optional<FactCondition> when = step.when().map(text -> {
            try {
                return FactCondition.parse(text);
            } catch (IllegalArgumentException e) {
                throw at.error("when: " + e.getMessage());
            }
        });
        return new PlannedStep(index, ready, steps.prepare(new StepArgs(ready, host)), when);
    }
}
