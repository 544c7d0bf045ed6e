package dev.fleetfix;

import java.util.Objects;

/**
 * A value that must never be printed: {@link #toString()} is redacted, only {@link #reveal()} gives it. Made, it is
 * known to {@link KnownSecrets}, so that it is scrubbed from every output even when a peer says it back.
 */
public final class Secret {
    private final String value;

    private Secret(String value) {
        this.value = Objects.requireNonNull(value, "value");
        KnownSecrets.register(value);
    }

    public static Secret of(String value) {
        return new Secret(value);
    }

    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return "******";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret other && other.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
