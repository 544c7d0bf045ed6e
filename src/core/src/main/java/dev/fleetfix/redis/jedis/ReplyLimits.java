package dev.fleetfix.redis.jedis;

/**
 * How much one Redis reply may cost before it is taken for what it is: not a Redis server, or a
 * hostile one. Jedis allocates what a reply announces before reading it ({@code $2000000000} is a
 * 2 GB array, {@code *2000000000} a list of that capacity) and parses nesting by recursion, so these
 * bounds are enforced on the bytes as they pass, before Jedis sees them.
 *
 * @param maxReplyBytes bytes of one whole reply, bulk lengths as announced
 * @param maxElements elements announced by all the arrays, sets and maps of one reply together
 * @param maxDepth arrays inside arrays
 */
record ReplyLimits(long maxReplyBytes, long maxElements, int maxDepth) {
    /**
     * Far above anything fleetfix asks for (INFO, CONFIG GET, SCAN by a thousand, benchmark values
     * of at most 1 MiB, CLUSTER SLOTS of a fragmented cluster), far below what hurts a control node.
     */
    static final ReplyLimits DEFAULT = new ReplyLimits(64L << 20, 1L << 20, 32);

    ReplyLimits {
        if (maxReplyBytes < 1 || maxElements < 1 || maxDepth < 1) {
            throw new IllegalArgumentException("reply limits must be positive: " + maxReplyBytes + " bytes, "
                    + maxElements + " elements, depth " + maxDepth);
        }
    }
}
