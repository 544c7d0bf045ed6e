package dev.fleetfix.redis.load;

import java.util.List;

/** One client connection of the builtin generator; used by one thread only. */
public interface BenchConnection extends AutoCloseable {

    /**
     * Sends the operations as one pipeline and waits for every reply.
     *
     * @return how many replies were errors
     */
    int execute(List<BenchOp> ops);

    @Override
    void close();
}
