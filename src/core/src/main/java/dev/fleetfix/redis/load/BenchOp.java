package dev.fleetfix.redis.load;

import java.util.Objects;

/**
 * One command of a pipeline. {@code value} is the payload of SET and LPUSH and is ignored by GET
 * and INCR; the generator shares one array between operations, so it must not be changed.
 */
public record BenchOp(Operation command, String key, byte[] value) {
    public BenchOp {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
