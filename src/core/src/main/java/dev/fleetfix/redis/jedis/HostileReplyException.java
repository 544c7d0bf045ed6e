package dev.fleetfix.redis.jedis;

import java.io.IOException;

/**
 * A reply over a {@link ReplyLimits} bound, or bytes that are no Redis reply. An {@link IOException}
 * because that is what Jedis expects from its socket: it wraps it and marks the connection broken, so
 * nothing more is read from a stream that has lost its footing.
 */
final class HostileReplyException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param what what the server sent, as in "sent a reply over 64 MiB" */
    HostileReplyException(String what) {
        super("the server sent " + what + ": not a Redis server, or a hostile one");
    }
}
