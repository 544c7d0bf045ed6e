package dev.fleetfix.rollout.shard;

import dev.fleetfix.InputException;

/**
 * {@code --shard K/N}: this run takes share {@code index} of {@code count} (1-based), as {@link ShardAssignment} cuts
 * the selected hosts.
 *
 * @param index which share, 1 to {@code count}
 * @param count how many shards the selection is cut into
 */
public record ShardSpec(int index, int count) {
    /** More shards than this is a typo: a fleet of 10,000 hosts in shards of 10 is 1,000. */
    public static final int MAX_SHARDS = 10_000;

    public ShardSpec {
        if (count < 1 || count > MAX_SHARDS) {
            throw new InputException("--shard " + index + "/" + count + ": N must be 1.." + MAX_SHARDS);
        }
        if (index < 1 || index > count) {
            throw new InputException("--shard " + index + "/" + count + ": K must be 1.." + count);
        }
    }

    /**
     * Reads {@code K/N}.
     *
     * @throws InputException naming the text when it is not two whole numbers with 1 <= K <= N
     */
    public static ShardSpec parse(String text) {
        String[] parts = text.strip().split("/", -1);
        if (parts.length != 2) {
            throw new InputException("--shard " + text + ": expected K/N, such as 2/3 (the second of three shards)");
        }
        try {
            return new ShardSpec(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
        } catch (NumberFormatException e) {
            throw new InputException("--shard " + text + ": expected K/N with whole numbers, such as 2/3");
        }
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
