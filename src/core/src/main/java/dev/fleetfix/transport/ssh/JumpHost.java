package dev.fleetfix.transport.ssh;

import dev.fleetfix.inventory.JumpSpec;
import java.util.Optional;

/**
 * A jump host as written in the inventory: {@code user@bastion:22}, {@code bastion:2222} or
 * {@code bastion}.
 */
record JumpHost(Optional<String> user, String address, int port) {

    JumpHost {
        if (address.isBlank()) {
            throw new IllegalArgumentException("jump host address must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("jump host port must be 1..65535, was " + port);
        }
    }

    /** Parsed by the inventory's {@link JumpSpec}, which already checked it when the inventory was loaded. */
    static JumpHost parse(String spec) {
        JumpSpec parsed = JumpSpec.parse(spec);
        return new JumpHost(parsed.user(), parsed.address(), parsed.port());
    }

    @Override
    public String toString() {
        return user.map(u -> u + "@").orElse("") + address + ":" + port;
    }
}
