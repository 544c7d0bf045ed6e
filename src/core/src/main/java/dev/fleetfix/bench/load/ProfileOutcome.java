package dev.fleetfix.bench.load;

import java.util.List;
import java.util.Objects;

/** What a benchmark profile did: ran, with its figures, or skipped, with the reason. */
public sealed interface ProfileOutcome {

    /**
     * @param load the figures of the measured part
     * @param forks the BGSAVEs triggered while it ran
     * @param keysDeleted benchmark keys removed afterwards
     */
    record Ran(LoadResult load, List<ForkSample> forks, long keysDeleted) implements ProfileOutcome {
        public Ran {
            Objects.requireNonNull(load, "load");
            forks = List.copyOf(forks);
        }
    }

    record Skipped(String reason) implements ProfileOutcome {
        public Skipped {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
