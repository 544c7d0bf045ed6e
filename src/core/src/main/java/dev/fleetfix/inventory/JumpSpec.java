package dev.fleetfix.inventory;

import java.util.Optional;

/**
 * A jump host as written in the inventory ({@code jump:}): {@code user@bastion:22},
 * {@code bastion:2222}, {@code [2001:db8::1]:22} or {@code bastion}. Parsed when the inventory is
 * loaded, so a bad one is an input error naming its line, not a failure at connection time.
 */
public record JumpSpec(Optional<String> user, String address, int port) {

    public JumpSpec {
        if (address.isBlank()) {
            throw new IllegalArgumentException("jump host address must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("jump host port must be 1..65535, was " + port);
        }
    }

    /** @throws IllegalArgumentException naming what is wrong with {@code spec} */
    public static JumpSpec parse(String spec) {
        String rest = spec.strip();
        if (rest.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
            throw new IllegalArgumentException(
                    "jump host '" + UnitName.printable(spec) + "': no spaces or control" + " characters allowed");
        }
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
            } else if (!tail.isEmpty()) {
                throw new IllegalArgumentException("jump host '" + spec + "': unexpected '" + tail + "' after ']'");
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
        return new JumpSpec(user, address, port);
    }

    private static int parsePort(String spec, String text) {
        if (text.isEmpty() || !text.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("jump host '" + spec + "': port '" + text + "' is not a number");
        }
        if (text.length() > 5 || Integer.parseInt(text) > 65535 || Integer.parseInt(text) < 1) {
            throw new IllegalArgumentException("jump host '" + spec + "': port " + text + " is not in 1..65535");
        }
        return Integer.parseInt(text);
    }

    @Override
    public String toString() {
        return user.map(u -> u + "@").orElse("") + address + ":" + port;
    }
}
