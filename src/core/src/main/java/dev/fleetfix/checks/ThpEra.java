package dev.fleetfix.checks;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What THP {@code always} means for a host's Redis, by era: the kernel decides how a write after
 * fork copies a huge page, and Redis 6.2+ can keep itself off THP whatever the host says.
 *
 * <ul>
 *   <li>kernel before 5.8: the first write to a huge page after fork copies all 2 MiB; BGSAVE and
 *       AOF rewrites under write load show latency spikes;
 *   <li>kernel 5.8 and later: such a write splits the huge page and copies 4 KiB (kernel commit
 *       3917c80280c9); the latency effect is small, memory effects (bloat, fragmentation) remain;
 *   <li>Redis with {@code disable-thp yes}: the host setting does not reach Redis's memory at all.
 * </ul>
 */
public final class ThpEra {
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** What to expect from THP on this host. */
    public enum Effect {
        /** Redis keeps itself off THP. */
        OPTED_OUT,
        /** Whole huge pages are copied on write after fork: latency spikes. */
        FORK_SPIKES,
        /** Small latency effect; memory effects remain. */
        MEMORY_ONLY,
        /** The kernel release could not be read: assume the old behaviour. */
        UNKNOWN_KERNEL
    }

    private ThpEra() {}

    public static Effect of(String kernelRelease, Optional<Boolean> disableThp) {
        if (disableThp.equals(Optional.of(true))) {
            return Effect.OPTED_OUT;
        }
        Matcher m = RELEASE.matcher(kernelRelease == null ? "" : kernelRelease.strip());
        if (!m.find()) {
            return Effect.UNKNOWN_KERNEL;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        boolean splitsOnWrite = major > 5 || (major == 5 && minor >= 8);
        return splitsOnWrite ? Effect.MEMORY_ONLY : Effect.FORK_SPIKES;
    }

    /** What THP always costs Redis on this host, for the audit's finding. */
    public static String consequence(String kernelRelease, Optional<Boolean> disableThp) {
        return switch (of(kernelRelease, disableThp)) {
            case OPTED_OUT -> "low risk for Redis, which keeps itself off THP";
            case FORK_SPIKES -> "latency spikes on fork (BGSAVE, AOF rewrite): kernel " + kernelRelease
                    + " copies whole 2 MiB pages on write after fork";
            case MEMORY_ONLY -> "memory bloat and fragmentation; fork latency is little affected on kernel "
                    + kernelRelease + " (5.8+ copies 4 KiB, not 2 MiB, on write after fork)";
            case UNKNOWN_KERNEL -> "latency spikes on fork (BGSAVE, AOF rewrite) on kernels before 5.8 (this kernel's release could not"
                    + " be read)";
        };
    }

    /** What a before/after benchmark of turning THP off should show on this host. */
    public static String expectation(String kernelRelease, Optional<Boolean> disableThp) {
        return switch (of(kernelRelease, disableThp)) {
            case OPTED_OUT -> "Redis runs with disable-thp yes: the host's THP setting does not reach it; expect no"
                    + " change from THP";
            case FORK_SPIKES -> "kernel " + kernelRelease + " < 5.8 copies whole huge pages on write after fork: expect"
                    + " the fork-time tail (p99.9, max) to improve";
            case MEMORY_ONLY -> "kernel " + kernelRelease + " >= 5.8 copies 4 KiB on write after fork: expect no"
                    + " latency change from THP; THP's memory effects (AnonHugePages, fragmentation) are what changes";
            case UNKNOWN_KERNEL -> "kernel release unknown: no expectation";
        };
    }
}
