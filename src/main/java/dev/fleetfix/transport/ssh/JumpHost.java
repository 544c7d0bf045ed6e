package dev.fleetfix.transport.ssh;

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

    static JumpHost parse(String spec) {
        String rest = spec.strip();
        Optional<String> user = Optional.empty();
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            user = Optional.of(rest.substring(0, at)).filter(u -> !u.isEmpty());
            rest = rest.substring(at + 1);
        }
        int port = 22;
        String address = rest;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("jump host '" + spec + "': missing ']'");
            }
            address = rest.substring(1, close);
            String tail = rest.substring(close + 1);
            if (tail.startsWith(":")) {
                port = parsePort(spec, tail.substring(1));
            }
        } else {
            int colon = rest.lastIndexOf(':');
            if (colon >= 0 && rest.indexOf(':') == colon) {
                address = rest.substring(0, colon);
                port = parsePort(spec, rest.substring(colon + 1));
            }
        }
        if (address.isBlank()) {
            throw new IllegalArgumentException("jump host '" + spec + "': no address; expected user@host:port");
        }
        return new JumpHost(user, address, port);
    }

    private static int parsePort(String spec, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("jump host '" + spec + "': port '" + text + "' is not a number", e);
        }
    }

    @Override
    public String toString() {
        return user.map(u -> u + "@").orElse("") + address + ":" + port;
    }
}
