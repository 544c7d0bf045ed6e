package dev.fleetfix.redis.load;

/**
 * The keys an earlier run left under the user's prefix (its cleanup stopped half-way): deleted before the next run
 * only when every key under the prefix is shaped as a run's ({@link RunKeys}). A prefix that holds anything else is
 * someone else's, and a key of theirs may have that shape too ({@code --prefix user:} with {@code
 * user:r0a1b2c3d:x}): then nothing is deleted, and the prefix check refuses or, with {@code --force}, runs beside
 * them.
 */
public final class EarlierRuns {
    private EarlierRuns() {}

    /**
     * Deletes what earlier runs left under {@code prefix} when nothing else is there; returns how many keys it
     * deleted. Counts are exact (no count bound, only SCAN's page bound): a keyspace too large to count is left alone.
     */
    public static long clean(BenchTarget target, String prefix) {
        BenchTarget.KeyCount all = target.countByPrefix(prefix, Long.MAX_VALUE);
        if (all.found() == 0 || !all.complete()) {
            return 0;
        }
        BenchTarget.KeyCount earlier = target.countEarlierRuns(prefix, Long.MAX_VALUE);
        if (!earlier.complete() || earlier.found() != all.found()) {
            return 0;
        }
        return target.deleteEarlierRuns(prefix);
    }

    /**
     * For a refusal of a prefix that holds keys: how many of them are shaped as an earlier run's and were not
     * deleted; empty when none are.
     */
    public static String notCleaned(BenchTarget target, String prefix, long atMost) {
        BenchTarget.KeyCount earlier = target.countEarlierRuns(prefix, atMost);
        if (earlier.found() == 0) {
            return "";
        }
        String many = earlier.found() >= atMost || !earlier.complete()
                ? "at least " + earlier.found()
                : Long.toString(earlier.found());
        return " (" + many + " of them are shaped as an earlier benchmark run's, '" + prefix
                + "r<8 hex digits>:...'; they were not deleted, because other keys share the prefix)";
    }
}
