package dev.fleetfix.steps.facts;

import dev.fleetfix.checks.Finding;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.HostAuditor;
import dev.fleetfix.checks.HostFacts;
import dev.fleetfix.checks.HostVerdict;
import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code audit} step's facts from the audit service ({@link HostAuditor}: THP, boot settings,
 * kernel, Redis, findings), plus what the engine itself needs that the audit does not cover (init
 * system, distro, grub tool: {@link ShellFacts}). An unreachable host fails the step.
 */
public final class AuditorFacts implements FactGatherer {
    private final HostAuditor auditor;
    private final ShellFacts shellFacts = new ShellFacts();

    public AuditorFacts(HostAuditor auditor) {
        this.auditor = auditor;
    }

    @Override
    public Map<String, String> gather(StepContext ctx) {
        RedisConnector redis = (host, timeout) -> ctx.redis().open(timeout);
        HostAuditor.HostRead read = auditor.read(ctx.host(), ctx.shell(), redis);
        HostAudit audit = read.audit();
        if (audit.verdict() == HostVerdict.UNREACHABLE) {
            throw new StepFailure("audit: "
                    + audit.findings().stream().map(Finding::text).findFirst().orElse("unreachable"));
        }
        Map<String, String> facts = new LinkedHashMap<>(shellFacts.gather(ctx));
        // the service, found in the audit's own trip (as root): held, so that the steps that restart Redis or order a
        // unit before it need not ask again
        read.service().ifPresent(service -> {
            facts.putAll(service.facts());
            ctx.state().services().hold(List.of(ctx.host().redis().port()), List.of(service));
        });
        HostFacts f = audit.facts().orElseThrow();
        facts.put("audit.verdict", audit.verdict().word());
        for (Finding finding : audit.findings()) {
            facts.put("finding." + finding.code(), finding.severity().word() + ": " + finding.text());
        }
        facts.put("kernel", f.kernelRelease());
        f.thp().enabled().map(ThpMode::word).ifPresent(v -> facts.put("thp.enabled", v));
        f.thp().defrag().map(ThpMode::word).ifPresent(v -> facts.put("thp.defrag", v));
        f.thp().filesystem().ifPresent(v -> facts.put("thp.filesystem", v));
        facts.put("redis.state", f.redis().reachable() ? "answered" : f.redis().authFailed() ? "auth failed" : "down");
        f.redis().version().ifPresent(v -> facts.put("redis.version", v));
        f.redis().disableThp().ifPresent(v -> facts.put("redis.disable_thp", v ? "yes" : "no"));
        f.overcommitMemory().ifPresent(v -> facts.put("vm.overcommit_memory", Integer.toString(v)));
        f.somaxconn().ifPresent(v -> facts.put("net.core.somaxconn", Integer.toString(v)));
        f.redis().tcpBacklog().ifPresent(v -> facts.put("redis.tcp_backlog", Integer.toString(v)));
        return facts;
    }
}
