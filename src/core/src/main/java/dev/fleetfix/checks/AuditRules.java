package dev.fleetfix.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a host's facts into findings and a verdict.
 *
 * <p><b>The rule.</b> A host is <em>at-risk</em> when at least one finding is a risk, <em>ok</em>
 * otherwise; advice never changes the verdict. <em>Unreachable</em> is decided before these rules:
 * only when the host itself cannot be reached over its transport. Risks:
 *
 * <ul>
 *   <li>Redis is exposed to THP: {@code enabled} is {@code [always]} and Redis does not run with
 *       {@code disable-thp yes} (older than 6.2, set to no, or unknown because Redis is down);
 *   <li>the Redis process holds huge pages ({@code AnonHugePages} above 0), whatever the settings say;
 *   <li>THP is safe now but will be {@code [always]} after a reboot, and Redis cannot opt out;
 *   <li>{@code vm.overcommit_memory} is not 1: a fork for BGSAVE or an AOF rewrite may fail;
 *   <li>{@code net.core.somaxconn} is below Redis's {@code tcp-backlog}: the kernel truncates the backlog;
 *   <li>Redis does not answer while the host does. This is at-risk, not unreachable: the host was
 *       audited, and a Redis that is down is the most pressing finding an operator can get. A Redis
 *       that refused fleetfix's credentials is said to be so ({@code redis-auth}), not down.
 * </ul>
 *
 * Advice: THP files that are not the kernel's (not on sysfs: a container's own view; then the THP risk
 * claims no era's cost), THP {@code [always]} while Redis opts out with {@code disable-thp yes} (low risk for Redis, the
 * rest of the host still pays), a THP setting that is not persisted but would not come back as
 * {@code [always]}, {@code defrag [always]}, facts that could not be read (smaps without root), and
 * the commands fleetfix needs that Redis refuses it (renamed away, or not in its ACL user's rights).
 */
public final class AuditRules {
    private AuditRules() {}

    public static HostAudit judge(HostFacts facts) {
        List<Finding> findings = new ArrayList<>();
        redisDown(facts).ifPresent(findings::add);
        thpExposure(facts).ifPresent(findings::add);
        thpNotKernels(facts).ifPresent(findings::add);
        hugePagesHeld(facts).ifPresent(findings::add);
        persistence(facts).ifPresent(findings::add);
        defrag(facts).ifPresent(findings::add);
        overcommit(facts).ifPresent(findings::add);
        somaxconn(facts).ifPresent(findings::add);
        refused(facts).ifPresent(findings::add);
        unreadable(facts, findings);
        List<Finding> ordered = new ArrayList<>();
        findings.stream().filter(Finding::isRisk).forEach(ordered::add);
        findings.stream().filter(f -> !f.isRisk()).forEach(ordered::add);
        HostVerdict verdict = ordered.stream().anyMatch(Finding::isRisk) ? HostVerdict.AT_RISK : HostVerdict.OK;
        return new HostAudit(facts.host(), verdict, ordered, Optional.of(facts));
    }

    private static Optional<Finding> redisDown(HostFacts facts) {
        RedisFacts redis = facts.redis();
        return redis.error().map(reason -> {
            if (redis.authFailed()) {
                return Finding.risk(
                        "redis-auth",
                        "Redis on " + redis.endpoint() + " runs but refused fleetfix's credentials: " + reason
                                + "; check redis_user and the redis_password source");
            }
            if (redis.serverFull()) {
                return Finding.risk(
                        "redis-full",
                        "Redis on " + redis.endpoint() + " runs but refused fleetfix's connection: " + reason
                                + "; its facts are unknown until a client leaves or maxclients is raised");
            }
            return Finding.risk("redis-down", "Redis is not answering on " + redis.endpoint() + ": " + reason);
        });
    }

    /** Commands fleetfix needs that this Redis would not run for it: the facts behind them are unknown. */
    private static Optional<Finding> refused(HostFacts facts) {
        List<String> refused = facts.redis().refused();
        if (refused.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Finding.advice(
                "redis-refused",
                "Redis refuses commands fleetfix needs: " + String.join(", ", refused)
                        + "; what they read is unknown, and restarts that need them are refused (docs/inventory.md"
                        + " names the minimal ACL)"));
    }

    private static Optional<Finding> thpExposure(HostFacts facts) {
        if (!facts.thp().isAlways()) {
            return Optional.empty();
        }
        RedisFacts redis = facts.redis();
        if (!redis.reachable()) {
            return Optional.of(Finding.risk(
                    "thp-exposed",
                    "THP is [always] and Redis could not be asked whether it opts out (disable-thp): set never"));
        }
        String name = redis.shortName();
        if (redis.disableThp().equals(Optional.of(true))) {
            return Optional.of(Finding.advice(
                    "thp-low-risk",
                    "THP is [always], but " + name
                            + " runs with disable-thp yes: low risk for Redis; set never or madvise for the rest"
                            + " of the host"));
        }
        if (redis.disableThp().equals(Optional.of(false))) {
            return Optional.of(Finding.risk(
                    "thp-exposed",
                    "THP is [always] and " + name
                            + " runs with disable-thp no: "
                            + consequence(facts, Optional.of(false))
                            + "; set never (or disable-thp yes)"));
        }
        if (redis.canOptOutOfThp()) {
            return Optional.of(Finding.risk(
                    "thp-exposed",
                    "THP is [always] and " + name
                            + "'s disable-thp could not be read (CONFIG refused): "
                            + consequence(facts, Optional.empty())
                            + ", unless it is yes; set never"));
        }
        return Optional.of(Finding.risk(
                "thp-exposed",
                "THP is [always] and " + name
                        + " cannot opt out: " + consequence(facts, Optional.empty())
                        + "; set never"));
    }

    /**
     * What THP always costs Redis here. When the THP file is not the kernel's, the kernel's own mode is
     * unknown from this view, so no era's cost (fork spikes, bloat) is claimed.
     */
    private static String consequence(HostFacts facts, Optional<Boolean> disableThp) {
        if (facts.thp().kernels().equals(Optional.of(false))) {
            return "what it costs Redis depends on the kernel's own setting, which this file is not (see"
                    + " thp-not-kernel)";
        }
        return ThpEra.consequence(facts.kernelRelease(), disableThp);
    }

    /** A THP file that is not on sysfs: a container's own view, or a file put over the kernel's. */
    private static Optional<Finding> thpNotKernels(HostFacts facts) {
        ThpFacts thp = facts.thp();
        if (!thp.kernels().equals(Optional.of(false))) {
            return Optional.empty();
        }
        return Optional.of(Finding.advice(
                "thp-not-kernel",
                "THP under " + thp.sysfsDir().orElse(ThpFacts.STANDARD_DIR) + " is not the kernel's (on "
                        + thp.filesystem().orElseThrow() + ", not sysfs): the setting here does not reach the"
                        + " kernel, so changing it cannot change what Redis gets, unless something on this host"
                        + " carries it to Redis (e.g. a container with its own view of /sys); check the THP of the"
                        + " machine that runs this kernel"));
    }

    private static Optional<Finding> hugePagesHeld(HostFacts facts) {
        RedisProcess process = facts.redisProcess();
        if (process.anonHugePagesKb().isEmpty() || process.anonHugePagesKb().getAsLong() == 0) {
            return Optional.empty();
        }
        long mb = Math.max(1, Math.round(process.anonHugePagesKb().getAsLong() / 1024.0));
        return Optional.of(Finding.risk("anon-huge-pages", "Redis holds " + mb + " MB of huge pages (AnonHugePages)"));
    }

    private static Optional<Finding> persistence(HostFacts facts) {
        Optional<ThpMode> now = facts.thp().enabled();
        if (now.isEmpty() || (now.get() != ThpMode.NEVER && now.get() != ThpMode.MADVISE)) {
            return Optional.empty();
        }
        Optional<ThpMode> afterReboot = facts.thp().supported() ? facts.boot().enabledAfterReboot() : now;
        if (afterReboot.equals(now)) {
            return Optional.empty();
        }
        if (afterReboot.isEmpty() && now.get() == ThpMode.MADVISE) {
            return Optional.empty(); // madvise is the default of many distributions' kernels: nothing to say
        }
        if (afterReboot.isEmpty()) {
            return Optional.of(Finding.advice(
                    "thp-not-persisted",
                    "THP setting is not persisted: nothing sets [" + now.get()
                            + "] at boot, so it returns to the kernel's default after reboot"));
        }
        String text = "THP setting is not persisted: it will return to [" + afterReboot.get() + "] after reboot";
        boolean redisOptsOut = facts.redis().disableThp().equals(Optional.of(true));
        if (afterReboot.get() == ThpMode.ALWAYS && !redisOptsOut) {
            return Optional.of(Finding.risk("thp-not-persisted", text));
        }
        return Optional.of(Finding.advice("thp-not-persisted", text));
    }

    private static Optional<Finding> defrag(HostFacts facts) {
        boolean thpOn = facts.thp()
                .enabled()
                .filter(m -> m == ThpMode.ALWAYS || m == ThpMode.MADVISE)
                .isPresent();
        if (thpOn && facts.thp().defrag().equals(Optional.of(ThpMode.ALWAYS))) {
            return Optional.of(Finding.advice(
                    "thp-defrag",
                    "THP defrag is [always]: page faults may stall on memory compaction; set madvise or never"));
        }
        return Optional.empty();
    }

    private static Optional<Finding> overcommit(HostFacts facts) {
        if (facts.overcommitMemory().isEmpty() || facts.overcommitMemory().getAsInt() == 1) {
            return Optional.empty();
        }
        return Optional.of(Finding.risk(
                "overcommit",
                "vm.overcommit_memory is " + facts.overcommitMemory().getAsInt()
                        + ": BGSAVE may fail under memory pressure; set 1"));
    }

    private static Optional<Finding> somaxconn(HostFacts facts) {
        if (facts.somaxconn().isEmpty() || facts.redis().tcpBacklog().isEmpty()) {
            return Optional.empty();
        }
        int somaxconn = facts.somaxconn().getAsInt();
        int backlog = facts.redis().tcpBacklog().getAsInt();
        if (somaxconn >= backlog) {
            return Optional.empty();
        }
        return Optional.of(Finding.risk(
                "somaxconn",
                "net.core.somaxconn " + somaxconn + " is below Redis tcp-backlog " + backlog
                        + ": the kernel silently truncates the backlog"));
    }

    private static void unreadable(HostFacts facts, List<Finding> findings) {
        if (facts.thp().supported() && facts.thp().enabled().isEmpty()) {
            findings.add(Finding.advice(
                    "thp-unreadable",
                    "THP enabled could not be read under "
                            + facts.thp().sysfsDir().get()));
        }
        if (facts.overcommitMemory().isEmpty()) {
            findings.add(Finding.advice("sysctl-unreadable", "vm.overcommit_memory could not be read"));
        }
        RedisProcess process = facts.redisProcess();
        process.error().ifPresent(error -> {
            String pid = process.pid().isPresent() ? " (pid " + process.pid().getAsLong() + ")" : "";
            String hint = facts.root() ? "" : "; reading it needs root (set become for this host)";
            findings.add(Finding.advice(
                    "huge-pages-unknown", "Redis's AnonHugePages could not be read" + pid + ": " + error + hint));
        });
    }
}
