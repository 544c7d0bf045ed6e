package dev.fleetfix.steps;

import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.steps.restart.PendingRestart;
import java.util.List;
import java.util.Set;

/**
 * {@code persist_thp: {method: auto}}: makes the THP modes survive a reboot. Methods: systemd,
 * tmpfiles, rc.local, grub, auto (systemd when the host runs it, else grub and rc.local, or rc.local
 * alone without grub: see {@link PersistMethods#auto()}).
 */
final class PersistThpStep implements StepType {
    static final List<String> METHODS = List.of("auto", "systemd", "tmpfiles", "rc.local", "grub", "tuned");

    @Override
    public StepSignature signature() {
        return StepSignature.of("persist_thp", Set.of("method", "enabled", "defrag", "before_unit"));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        String methodName = args.choice("method", "auto", METHODS);
        String enabled = args.choice("enabled", "never", ThpStep.ENABLED);
        String defrag = args.choice("defrag", "never", ThpStep.DEFRAG);
        // every instance of the machine: the unit file is the machine's, the same for each of them
        String unit = args.text(
                "before_unit", instanceServices(args).orElse(args.host().redis().serviceUnit()));
        // The names go into the unit file's Before= line: a newline would add lines that run as root at boot.
        for (String word : unit.strip().split("\\s+")) {
            UnitName.problem(word).ifPresent(problem -> {
                throw args.error("before_unit: " + problem);
            });
        }
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

    private static java.util.Optional<String> instanceServices(StepArgs args) {
        Object services = args.host().vars().get("redis_instance_services");
        if (services instanceof List<?> list && !list.isEmpty()) {
            return java.util.Optional.of(
                    String.join(" ", list.stream().map(String::valueOf).toList()));
        }
        return java.util.Optional.empty();
    }
}
