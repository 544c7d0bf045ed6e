package dev.fleetfix.inventory.ansible;

import dev.fleetfix.Secret;
import dev.fleetfix.yaml.YamlValue;
import java.util.OptionalInt;

/**
 * How an inventory value is read as a TCP port ({@code ansible_port}, {@code redis_port}, a
 * {@code redis_instances} entry's {@code port}): a YAML number or a string of digits, 1..65535.
 * Each caller words its own error, since each names a different key.
 */
final class InventoryPort {

    private InventoryPort() {}

    /** The port, or empty when the value is not a whole number in 1..65535 (or not a number at all). */
    static OptionalInt parse(YamlValue node) {
        Object value = node.value();
        if (value instanceof Secret secret) {
            value = secret.revealAsSetting(); // a value of a vault-encrypted file
        }
        if (!(value instanceof Number || value instanceof String)) {
            return OptionalInt.empty();
        }
        String text = value instanceof String s ? s.strip() : String.valueOf(value);
        try {
            int port = Integer.parseInt(text);
            return port >= 1 && port <= 65535 ? OptionalInt.of(port) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
