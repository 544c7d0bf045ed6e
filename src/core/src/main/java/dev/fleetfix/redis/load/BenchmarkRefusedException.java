package dev.fleetfix.redis.load;

import java.util.List;

/** A benchmark would put the host's own data at risk; the message says why and whether --force helps. */
public class BenchmarkRefusedException extends BenchmarkException {
    private final List<String> reasons;

    public BenchmarkRefusedException(String host, List<String> reasons, boolean forceable) {
        super("host " + host + ": refusing to benchmark: " + String.join("; ", reasons)
                + (forceable ? " (use --force to run anyway)" : ""));
        this.reasons = List.copyOf(reasons);
    }

    public List<String> reasons() {
        return reasons;
    }
}
