package dev.fleetfix.steps;

import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.playbook.StepSignature;
import java.util.List;
import java.util.Set;

/**
 * {@code persist_thp: {method: auto}}: makes the THP modes survive a reboot. Methods: systemd,
 * tmpfiles, rc.local, grub, auto (systemd when the host runs it, else rc.local).
 */
final class PersistThpStep implements StepType {
    static final List<String> METHODS = List.of("auto", "systemd", "tmpfiles", "rc.local", "grub");

    @Override
    public StepSignature signature() {
        return StepSignature.of("persist_thp", Set.of("method", "enabled", "defrag", "before_unit"));
    }

    @Override
    public StepHandler prepare(StepArgs args) {
        String methodName = args.choice("method", "auto", METHODS);
        String enabled = args.choice("enabled", "never", ThpStep.ENABLED);
        String defrag = args.choice("defrag", "never", ThpStep.DEFRAG);
        String unit = args.text("before_unit", args.host().redis().serviceUnit());
        // It goes into the unit file's Before= line: a newline would add lines that run as root at boot.
        UnitName.problem(unit).ifPresent(problem -> {
            throw args.error("before_unit: " + problem);
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
            StepResult.Builder result = new StepResult.Builder();
            method.persist(ctx, new PersistMethod.Target(dir, enabled, defrag, unit), result);
            return result.build();
        };
    }
}
