package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.regex.Matcher;

/**
 * How many hosts the inventory's sources name, counted before any range is expanded: eight INI lines of
 * {@code a[0:999999]} (110 bytes) each stayed under the cap of one range, and expanding them filled gigabytes
 * before anything was said. Every source of the inventory adds to one count; the host key that would take it past
 * {@link InventoryLoader#MAX_HOSTS} is refused by file:line:column.
 *
 * <p>What is counted is the expansion's work: a host key counts each time it is written (a host in three groups
 * three times), since each is expanded. The cap is far above any fleet, and the count can only be too high, never
 * too low, so no expansion is started that the cap would not allow.
 */
final class HostCount {
    private long total;

    /** Counts the host keys of one source document, as {@link InventoryLoader} reads its groups. */
    void add(Path file, YamlValue root) {
        if (root.isMapping()) {
            root.fields().values().forEach(group -> group(file, group.value()));
        }
    }

    private void group(Path file, YamlValue body) {
        if (!body.isMapping()) {
            return; // the loader names the shape that is wrong
        }
        for (YamlValue.Entry section : body.fields().values()) {
            YamlValue value = section.value();
            if (section.key().equals("hosts")) {
                if (value.value() instanceof String key) {
                    host(file, new YamlValue.Entry(key, value.line(), value.column(), value));
                } else if (value.isMapping()) {
                    value.fields().values().forEach(host -> host(file, host));
                }
            } else if (section.key().equals("children") && value.isMapping()) {
                value.fields().values().forEach(child -> group(file, child.value()));
            }
        }
    }

    private void host(Path file, YamlValue.Entry key) {
        total += names(key.key());
        if (total > InventoryLoader.MAX_HOSTS) {
            throw new InputException(
                    file,
                    key.line(),
                    key.column(),
                    "host \"" + key.key() + "\" takes the inventory past " + InventoryLoader.MAX_HOSTS
                            + " host names (all sources and groups together, ranges expanded), the most fleetfix"
                            + " reads");
        }
    }

    /**
     * How many hosts a key stands for: the product of its ranges' lengths, capped just past the limit so that
     * nested ranges cannot overflow. A malformed range counts as one: the loader refuses it with its own message.
     */
    static long names(String key) {
        long product = 1;
        Matcher range = HostKeys.HOST_RANGE.matcher(key);
        while (range.find()) {
            product = Math.min(product * length(range), InventoryLoader.MAX_HOSTS + 1L);
        }
        return product;
    }

    private static long length(Matcher range) {
        String start = range.group(1);
        String end = range.group(2);
        try {
            long step = range.group(3) == null ? 1 : Long.parseLong(range.group(3));
            long from;
            long to;
            if (start.chars().allMatch(Character::isDigit) && end.chars().allMatch(Character::isDigit)) {
                from = Long.parseLong(start);
                to = Long.parseLong(end);
            } else if (start.length() == 1 && end.length() == 1) {
                from = start.charAt(0);
                to = end.charAt(0);
            } else {
                return 1;
            }
            return step < 1 || from > to ? 1 : (to - from) / step + 1;
        } catch (NumberFormatException e) {
            return InventoryLoader.MAX_HOSTS + 1L; // digits past a long: far more hosts than any cap
        }
    }
}
