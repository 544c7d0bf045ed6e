package dev.fleetfix.steps;

import dev.fleetfix.checks.RunningService;
import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.DiscoveredService;
import dev.fleetfix.steps.facts.ShellFacts;
import dev.fleetfix.steps.host.HostFiles;
import dev.fleetfix.steps.model.StepArgs;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.steps.persist.PersistMethod;
import dev.fleetfix.steps.persist.PersistMethods;
import dev.fleetfix.steps.restart.PendingRestart;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code persist_thp: {method: auto}}: makes the THP modes survive a reboot. Methods: systemd,
 * tmpfiles, rc.local, grub, auto (systemd when the host runs it, else grub and rc.local, or rc.local
 * alone without grub: see {@link PersistMethods#auto()}). The systemd unit is ordered before {@code before_unit}, else
 * the inventory's {@code redis_service} (every instance's), else the units found running the machine's Redis ({@link
 * DiscoveredService}); never an assumed {@code redis-server}.
 */
final class PersistThpStep implements StepType {
    static final List<String> METHODS = List.of("auto", "systemd", "tmpfiles", "rc.local", "grub", "tuned");

    @Override
    public StepSignature signature() {
        return StepSignature.of("persist_thp", Set.of("method", "enabled", "defrag", "before_unit"));
    }

    @Override
    public StepDoc doc() {
        return StepDoc.of(
                "Keeps the THP setting across reboots, in place before Redis starts.",
                "- persist_thp: {method: auto}",
                new StepDoc.Arg(
                        "method",
                        "auto|systemd|tmpfiles|rc.local|grub|tuned",
                        "auto",
                        "- persist_thp: {method: systemd}",
                        "How: auto picks a systemd oneshot unit ordered before Redis where PID 1 is systemd, else"
                                + " the kernel command line (grub) and rc.local; and a tuned child profile where tuned"
                                + " would put THP back."),
                new StepDoc.Arg(
                        "enabled",
                        "always|madvise|never",
                        "never",
                        "- persist_thp: {enabled: madvise}",
                        "The THP mode set at boot."),
                new StepDoc.Arg(
                        "defrag",
                        "always|defer|defer+madvise|madvise|never",
                        "never",
                        "- persist_thp: {defrag: madvise}",
                        "The defrag mode set at boot."),
                new StepDoc.Arg(
                        "before_unit",
                        "systemd unit name",
                        "the inventory's redis_service, else the units found running Redis",
                        "- persist_thp: {before_unit: redis-server.service}",
                        "The unit the systemd oneshot is ordered before."));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        String methodName = args.choice("method", "auto", METHODS);
        String enabled = args.choice("enabled", "never", ThpStep.ENABLED);
        String defrag = args.choice("defrag", "never", ThpStep.DEFRAG);
        // every instance of the machine: the unit file is the machine's, the same for each of them; where neither
        // the step nor the inventory names a service, the units found running Redis (at run time, on the host)
        Optional<String> named = args.text("before_unit")
                .or(() -> args.host().vars().containsKey("redis_service")
                        ? Optional.of(instanceServices(args)
                                .orElse(args.host().redis().serviceUnit()))
                        : Optional.empty());
        // The names go into the unit file's Before= line: a newline would add lines that run as root at boot.
        named.ifPresent(unit -> {
            for (String word : unit.strip().split("\\s+")) {
                UnitName.problem(word).ifPresent(problem -> {
                    throw args.error("before_unit: " + problem);
                });
            }
        });
        PersistMethod method = PersistMethods.named(methodName);
        return ctx -> {
            String dir = ctx.state()
                    .fact("thp.path")
                    .filter(p -> !p.equals("none"))
                    .or(() -> ThpStep.thpDir(ctx))
                    .orElse(null);
            if (dir == null) {
                return StepResult.failed("no THP directory on this host");
            }
            // thp.path is what the host printed; it goes into a unit, rc.local or tmpfiles line that
            // runs as root at boot, so only the kernel's own directories are written there
            if (!ShellFacts.isThpDir(dir)) {
                return StepResult.failed("host " + ctx.host().name() + ": thp.path '" + dir
                        + "' is not a THP directory of the kernel (" + ShellFacts.THP_DIRS
                        + "); nothing written to the boot files");
            }
            StepResult.Builder result = new StepResult.Builder();
            String unit = named.orElseGet(() -> discoveredUnits(ctx, result));
            method.persist(ctx, new PersistMethod.Target(dir, enabled, defrag, unit), result);
            StepResult done = result.build();
            if (!ctx.check() && done.status() == StepStatus.CHANGED) {
                // After the write, as the methods write several files: a run that dies between the two loses
                // only a restart that the running kernel's setting (the thp step's record) does not need.
                PendingRestart.mark(ctx, "persist_thp changed the boot settings");
            }
            return done;
        };
    }

    /**
     * The units that start the host's Redis at boot, as found running it (a unit, or supervisord's own unit), space
     * separated; empty when none was found, which the result notes: {@code Before=basic.target} alone then orders
     * the unit before every service that keeps systemd's default dependencies.
     */
    private static String discoveredUnits(StepContext ctx, StepResult.Builder result) {
        List<RunningService> found = DiscoveredService.of(ctx, machinePorts(ctx));
        List<String> units = new ArrayList<>();
        for (RunningService s : found) {
            s.facts().forEach(result::fact);
            s.bootUnit()
                    .filter(u -> UnitName.problem(u).isEmpty() && !units.contains(u))
                    .ifPresentOrElse(
                            units::add,
                            () -> result.note("the unit's Before= names no Redis unit (" + s.describe() + ")"));
        }
        if (units.isEmpty()) {
            // Redis down for now: the units that an earlier run found stay, so the file does not change with it
            units.addAll(unitsInFile(ctx));
            if (!units.isEmpty()) {
                result.note("kept the Before= units of " + PersistMethods.UNIT_PATH + ": " + String.join(" ", units));
            }
        }
        return String.join(" ", units);
    }

    /** The units after basic.target on the Before= line of fleetfix's own unit file, when there is one. */
    private static List<String> unitsInFile(StepContext ctx) {
        String file = HostFiles.read(ctx, PersistMethods.UNIT_PATH).orElse("");
        List<String> units = new ArrayList<>();
        if (!file.startsWith("# Managed by fleetfix")) {
            return units;
        }
        for (String line : file.split("\n")) {
            if (line.startsWith("Before=basic.target")) {
                for (String word :
                        line.substring("Before=basic.target".length()).strip().split("\\s+")) {
                    if (!word.isEmpty() && UnitName.problem(word).isEmpty() && !units.contains(word)) {
                        units.add(word);
                    }
                }
            }
        }
        return units;
    }

    /** Every Redis port of the machine: its instances' ({@code redis_instance_ports}), else the host's own. */
    private static List<Integer> machinePorts(StepContext ctx) {
        if (ctx.host().vars().get("redis_instance_ports") instanceof List<?> list && !list.isEmpty()) {
            List<Integer> ports = new ArrayList<>();
            for (Object port : list) {
                if (port instanceof Integer p && !ports.contains(p)) {
                    ports.add(p);
                }
            }
            if (!ports.isEmpty()) {
                return ports;
            }
        }
        return List.of(ctx.host().redis().port());
    }

    private static java.util.Optional<String> instanceServices(StepArgs args) {
        Object services = args.host().vars().get("redis_instance_services");
        if (services instanceof List<?> list && !list.isEmpty()) {
            return java.util.Optional.of(
                    String.join(" ", list.stream().map(String::valueOf).toList()));
        }
        return java.util.Optional.empty();
    }
}
