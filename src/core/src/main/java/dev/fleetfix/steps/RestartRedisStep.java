package dev.fleetfix.steps;

import dev.fleetfix.checks.Container;
import dev.fleetfix.checks.RunningService;
import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.DiscoveredService;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.steps.restart.ContainerRoute;
import dev.fleetfix.steps.restart.PendingRestart;
import dev.fleetfix.steps.restart.RestartDue;
import dev.fleetfix.steps.restart.RestartOptions;
import dev.fleetfix.steps.restart.SafeRestart;
import dev.fleetfix.steps.restart.ServiceRestart;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code restart_redis: {unit: redis-server}} or {@code {command: "..."}}: restarts Redis (with
 * systemctl, or the SysV script on a host without systemd: {@link ServiceRestart}). Where neither the step nor
 * the inventory's {@code redis_service} names the service, it restarts the one found running Redis on its port
 * ({@link DiscoveredService}: a systemd unit, an init script, a supervisord program, a Docker or Podman container
 * through what manages it: {@link ContainerRoute}); a container whose data dir is no volume, one whose runtime
 * cannot be asked, a Redis whose service cannot be told, and one that is not running fail the step before anything
 * changes. Only when its
 * Redis has not yet run under a
 * change: the host's {@link PendingRestart} record is older than the Redis process, or an earlier step of this
 * play changed the host ({@link RestartDue}); unless {@code always: true}. Without losing data (see
 * {@link SafeRestart}); a hand-over journalled by a run that died is finished first (failed back) when it is still
 * the hosts' state, and dropped, saying so, when an operator moved the primary since ({@code HandoverResume}):
 *
 * <ul>
 *   <li>{@code topology: auto|off} (auto): read roles; replicas restart before their primary
 *       (the planner orders batches by the same setting);
 *   <li>{@code failover: auto|never|manual} (auto): fail a primary over to an in-sync replica
 *       first; {@code manual} hands it over by hand even where FAILOVER exists;
 *   <li>{@code failback: false}: make the old primary primary again afterwards;
 *   <li>{@code allow_data_loss: false}: restart even a Redis whose data lives only in memory;
 *   <li>{@code data_check: true}: key counts and a canary key around the restart;
 *   <li>{@code timeout: 90s}: bound on each wait.
 * </ul>
 *
 * Remembers the role before the restart ({@code redis.role_before}) and the role the
 * {@code role_unchanged} gate must see ({@code redis.role_expected}).
 */
final class RestartRedisStep implements StepType {
    static final Set<String> ARGS = Set.of(
            "unit",
            "command",
            "always",
            "timeout",
            "topology",
            "failover",
            "failback",
            "allow_data_loss",
            "data_check");

    @Override
    public StepSignature signature() {
        return new StepSignature("restart_redis", ARGS, Set.of("command"), Optional.empty());
    }

    @Override
    public StepDoc doc() {
        List<StepDoc.Arg> args = new ArrayList<>(whatAndWhen());
        args.addAll(how());
        return new StepDoc(
                "Restarts Redis without losing data, once per change, failing a primary over first.",
                "- restart_redis: {failover: auto, timeout: 120s}",
                args);
    }

    /** The arguments that say what to restart, when, and how long to wait. */
    private static List<StepDoc.Arg> whatAndWhen() {
        return List.of(
                new StepDoc.Arg(
                        "unit",
                        "systemd unit name",
                        "the inventory's redis_service, else the service found running Redis",
                        "- restart_redis: {unit: redis-server}",
                        "The service to restart (systemctl, or the SysV script without systemd). Not with command."),
                new StepDoc.Arg(
                        "command",
                        "shell text",
                        "none",
                        "- restart_redis: {command: \"sudo /usr/local/bin/redis-restart\"}",
                        "A command that restarts Redis instead of its service. Not with unit."),
                new StepDoc.Arg(
                        "always",
                        "boolean",
                        "false",
                        "- restart_redis: {always: true}",
                        "Restart even a Redis that already runs under the play's changes."),
                new StepDoc.Arg(
                        "timeout",
                        "duration",
                        "90s",
                        "- restart_redis: {timeout: 120s}",
                        "The bound on each wait (failover, restart, sync)."));
    }

    /** The arguments that say how a restart keeps the data and the primary role. */
    private static List<StepDoc.Arg> how() {
        return List.of(
                new StepDoc.Arg(
                        "topology",
                        "auto|off",
                        "auto",
                        "- restart_redis: {topology: off}",
                        "auto reads roles: replicas restart before their primary."),
                new StepDoc.Arg(
                        "failover",
                        "auto|never|manual",
                        "auto",
                        "- restart_redis: {failover: manual}",
                        "Fail a primary over to an in-sync replica first; manual hands it over by hand even where"
                                + " FAILOVER exists."),
                new StepDoc.Arg(
                        "failback",
                        "boolean",
                        "false",
                        "- restart_redis: {failback: true}",
                        "Make the old primary primary again afterwards (needs topology and failover auto)."),
                new StepDoc.Arg(
                        "allow_data_loss",
                        "boolean",
                        "false",
                        "- restart_redis: {allow_data_loss: true}",
                        "Restart even a Redis whose data lives only in memory."),
                new StepDoc.Arg(
                        "data_check",
                        "boolean",
                        "true",
                        "- restart_redis: {data_check: false}",
                        "Compare key counts and a canary key around the restart."));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        if (args.has("unit") && args.has("command")) {
            throw args.error("give either unit or command, not both");
        }
        Optional<String> command = args.text("command");
        // a unit named in the step or the inventory is used as is; else Valkey's own name on Valkey
        Optional<String> namedUnit = args.text("unit")
                .or(() -> args.host().vars().containsKey("redis_service")
                        ? Optional.of(args.host().redis().serviceUnit())
                        : Optional.empty());
        namedUnit.flatMap(UnitName::problem).ifPresent(problem -> {
            throw args.error("unit: " + problem);
        });
        boolean always = args.bool("always", false);
        RestartOptions options = options(args);
        return ctx -> {
            // before anything else: a canary left by a run that died would otherwise be counted as a user key
            List<String> first = new ArrayList<>();
            SafeRestart.removeLeftCanary(ctx).ifPresent(first::add);
            Optional<PendingRestart.Marker> marker = PendingRestart.read(ctx);
            RestartDue due = RestartDue.decide(
                    always,
                    ctx.state().changedInPlay(),
                    marker,
                    marker.isPresent() ? PendingRestart.redisStarted(ctx) : OptionalLong.empty());
            if (!due.due() && marker.flatMap(PendingRestart.Marker::handover).isEmpty()) {
                first.add(due.reason());
                if (due.fromHost() && !ctx.check()) {
                    // the record is satisfied for this Redis; removed once every Redis of the machine is
                    PendingRestart.clear(ctx).ifPresent(kept -> first.add(PendingRestart.PATH + " kept: " + kept));
                }
                return StepResult.skipped(String.join("; ", first)).withFacts(SafeRestart.roleFacts(ctx));
            }
            if (command.isPresent()) {
                return new SafeRestart(
                                options,
                                command.get(),
                                "redis (command)",
                                args.host().redis().serviceUnit())
                        .run(ctx, due, marker, first);
            }
            if (namedUnit.isPresent()) {
                return new Restart(ctx, options, due, marker, first, Map.of()).unit(namedUnit.get());
            }
            return restartFound(new Restart(ctx, options, due, marker, first, Map.of()));
        };
    }

    /** The step's choices of how to restart, checked together. */
    private static RestartOptions options(StepArgs args) {
        Duration timeout = args.duration("timeout", Duration.ofSeconds(90));
        boolean topology =
                args.choice("topology", "auto", List.of("auto", "off")).equals("auto");
        String failoverChoice = args.choice("failover", "auto", List.of("auto", "never", "manual"));
        boolean failover = !failoverChoice.equals("never");
        boolean failback = args.bool("failback", false);
        if (failback && (!topology || !failover)) {
            throw args.error("failback: true needs topology: auto and failover: auto");
        }
        return new RestartOptions(
                topology,
                failover,
                failback,
                args.bool("allow_data_loss", false),
                args.bool("data_check", true),
                timeout,
                failoverChoice.equals("manual"));
    }

    /** Nothing named: restarts what the host shows runs this Redis, never an assumed name. */
    private static StepResult restartFound(Restart none) throws InterruptedException {
        RunningService found = DiscoveredService.of(none.ctx());
        Restart restart = none.withFacts(found.facts());
        Optional<String> refused = DiscoveredService.refusal(found);
        if (refused.isPresent()) {
            return restart.refused(refused.get());
        }
        restart.notes().add("found " + found.describe());
        String name = found.name().orElseThrow();
        return switch (found.manager()) {
            case SUPERVISORD -> restart.program(name, found.supervisorConf());
            case CONTAINER -> restart.container(found);
            default -> restart.unit(name);
        };
    }

    /**
     * What each way of restarting is given: the host's context, the step's options, why the restart is due, the
     * host's pending-restart record, the notes so far (the step's message begins with them) and the facts of the
     * service found.
     */
    private record Restart(
            StepContext ctx,
            RestartOptions options,
            RestartDue due,
            Optional<PendingRestart.Marker> marker,
            List<String> notes,
            Map<String, String> facts) {

        Restart withFacts(Map<String, String> found) {
            return new Restart(ctx, options, due, marker, notes, found);
        }

        /** Nothing restarted: the step fails, saying why. */
        StepResult refused(String why) {
            notes.add(why + "; nothing restarted, Redis left as it was");
            return StepResult.failed(String.join("; ", notes)).withFacts(facts);
        }

        /** Restarts a systemd unit or SysV service by name ({@link ServiceRestart#script}). */
        StepResult unit(String unit) throws InterruptedException {
            SafeRestart restart =
                    new SafeRestart(options, ServiceRestart.script(unit), ServiceRestart.describe(unit), unit);
            return run(restart, "service " + unit, ServiceRestart.checkScript(unit));
        }

        /** Restarts a supervisord program with supervisorctl. */
        StepResult program(String program, Optional<String> conf) throws InterruptedException {
            String what = "supervisord program " + program;
            SafeRestart restart = new SafeRestart(
                    options,
                    ServiceRestart.supervisorScript(program, conf),
                    what,
                    program,
                    ServiceRestart.supervisorStateScript(program, conf));
            return run(restart, what, ServiceRestart.supervisorCheckScript(program, conf));
        }

        /**
         * Restarts a container through what manages it ({@link ContainerRoute}); one whose data dir would die with
         * it is refused first, unless {@code allow_data_loss}: in check mode too, so the preflight refuses the host;
         * and one whose route is gone, before anything is saved or recorded.
         */
        StepResult container(RunningService found) throws InterruptedException {
            Container container = found.container().orElseThrow();
            Optional<String> lost =
                    options.allowDataLoss() ? Optional.empty() : ContainerRoute.dataRefusal(ctx, container);
            if (lost.isPresent()) {
                return refused(lost.get());
            }
            ContainerRoute route = ContainerRoute.of(container, found.pid());
            // before the save and the host's restart record: a route that is gone (a compose project's directory)
            // fails here with nothing changed, also where no earlier change made the preflight refuse the host
            Optional<String> cannot = ctx.check() ? Optional.empty() : canRestart(ctx, route.check());
            if (cannot.isPresent()) {
                return refused(route.what() + " cannot be restarted on this host ("
                        + cannot.get().strip() + ")");
            }
            return run(new SafeRestart(options, route), route.what(), route.check());
        }

        /**
         * Runs the restart; in check mode, a forecast that Redis would be restarted holds only when {@code what} can
         * be restarted on the host ({@code checkScript}).
         */
        private StepResult run(SafeRestart restart, String what, String checkScript) throws InterruptedException {
            StepResult result = restart.run(ctx, due, marker, notes).withFacts(facts);
            if (ctx.check() && result.status() == StepStatus.CHANGED) {
                return canRestart(ctx, checkScript)
                        .map(why -> failedForecast(result, what, why))
                        .orElse(result);
            }
            return result;
        }
    }

    /**
     * Check mode: whether the service could be restarted on the host the way the restart would do it, read
     * without restarting anything; empty when it could, else why not. A forecast that Redis would be restarted is
     * only true when its service is there.
     */
    private static Optional<String> canRestart(StepContext ctx, String checkScript) {
        ExecResult r = ctx.shell().exec(Command.of(checkScript).asRoot().withTimeout(Duration.ofSeconds(20)));
        return r.ok() ? Optional.empty() : Optional.of(r.errorText());
    }

    private static StepResult failedForecast(StepResult result, String what, String why) {
        String decided = result.message().replace("; " + StepResult.CHECK_NOTE, "");
        return StepResult.failed("apply would fail: " + what + " cannot be restarted on this host (" + why.strip()
                        + "); it would restart Redis because " + decided)
                .withFacts(result.facts());
    }
}
