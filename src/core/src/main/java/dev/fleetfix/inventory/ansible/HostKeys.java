package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host key as Ansible's parse_address reads it: {@code name}, {@code name:port} ({@code [2001:db8::1]:2222} for an
 * IPv6 address), and ranges ({@code redis-[01:03]}, {@code node-[a:c]}, {@code [0:10:2]}) that stand for several
 * hosts. Every problem is an {@link InputException} naming the key's file:line:column.
 */
final class HostKeys {
    static final Pattern HOST_RANGE = Pattern.compile("\\[([0-9a-zA-Z]+):([0-9a-zA-Z]+)(?::([0-9]+))?\\]");

    private static final Pattern HOST_PORT = Pattern.compile("^([^:\\[\\]]+(?:\\[[^\\]]*\\][^:\\[\\]]*)*):([0-9]+)$");
    /** Ansible's bracketed_hostport, for an IPv6 address with a port: {@code [2001:db8::1]:2222}. */
    private static final Pattern BRACKETED_HOST_PORT = Pattern.compile("^\\[([^\\]]+)\\]:([0-9]+)$");

    private final Path file;
    /** Whether ranges are expanded (in every source but a host list). */
    private final boolean ranges;

    HostKeys(Path file, boolean ranges) {
        this.file = file;
        this.ranges = ranges;
    }

    /** The hosts {@code entry}'s key stands for, each with its body: a {@code name:port} key sets ansible_port. */
    List<YamlValue.Entry> hosts(YamlValue.Entry entry) {
        if (!entry.textKey()) {
            // PyYAML types the key 1234 as a number, and Ansible refuses it rather than guess the name meant
            throw new InputException(
                    file,
                    entry.line(),
                    entry.column(),
                    "Host pattern " + entry.key() + " must be a string. Enclose integers/floats in quotation marks"
                            + " (\"" + entry.key() + "\":)");
        }
        String key = entry.key();
        YamlValue.Entry body = entry;
        Matcher port = HOST_PORT.matcher(key);
        Matcher bracketed = BRACKETED_HOST_PORT.matcher(key);
        if (bracketed.matches() && HostPattern.isIpv6(bracketed.group(1))) {
            port = bracketed;
        }
        if (port.matches()) {
            key = port.group(1);
            Map<String, YamlValue.Entry> vars = new LinkedHashMap<>();
            vars.put(
                    "ansible_port",
                    new YamlValue.Entry(
                            "ansible_port",
                            entry.line(),
                            entry.column(),
                            new YamlValue.Scalar(port(port.group(2), entry), entry.line(), entry.column())));
            if (entry.value().isMapping()) {
                vars.putAll(entry.value().fields());
            }
            YamlValue value = entry.value().isNull() || entry.value().isMapping()
                    ? new YamlValue.Mapping(
                            vars, entry.value().line(), entry.value().column())
                    : entry.value();
            body = new YamlValue.Entry(key, entry.line(), entry.column(), value);
        }
        List<YamlValue.Entry> hosts = new ArrayList<>();
        for (String name : ranges ? expandRanges(key, entry) : List.of(key)) {
            hosts.add(new YamlValue.Entry(name, body.line(), body.column(), body.value()));
        }
        return hosts;
    }

    private List<String> expandRanges(String key, YamlValue.Entry where) {
        Matcher range = HOST_RANGE.matcher(key);
        if (!range.find()) {
            return List.of(key);
        }
        String head = key.substring(0, range.start());
        String tail = key.substring(range.end());
        String start = range.group(1);
        String end = range.group(2);
        int step = range.group(3) == null ? 1 : bound(range.group(3), where);
        List<String> names = new ArrayList<>();
        boolean numeric =
                start.chars().allMatch(Character::isDigit) && end.chars().allMatch(Character::isDigit);
        boolean alpha = start.length() == 1
                && end.length() == 1
                && Character.isLetter(start.charAt(0))
                && Character.isLetter(end.charAt(0));
        if (step < 1 || !(numeric || alpha)) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "host range in \"" + where.key()
                            + "\" must be [start:end] or [start:end:step] of numbers or single letters");
        }
        int from = numeric ? bound(start, where) : start.charAt(0);
        int to = numeric ? bound(end, where) : end.charAt(0);
        if (from > to) {
            throw new InputException(
                    file, where.line(), where.column(), "host range in \"" + where.key() + "\" runs backwards");
        }
        long count = ((long) to - from) / step + 1;
        if (count > InventoryLoader.MAX_HOSTS) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "host range in \"" + where.key() + "\" stands for " + count + " hosts, more than the "
                            + InventoryLoader.MAX_HOSTS + " one range may name");
        }
        for (int i = from; i <= to; i += step) {
            String item = numeric ? String.format("%0" + start.length() + "d", i) : String.valueOf((char) i);
            names.addAll(expandRanges(head + item + tail, where));
        }
        return names;
    }

    /** A range bound or step: digits that fit an int, else an error naming the host key. */
    private int bound(String digits, YamlValue.Entry where) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new InputException(
                    file,
                    where.line(),
                    where.column(),
                    "host range in \"" + where.key() + "\": " + digits + " is out of range");
        }
    }

    private Integer port(String digits, YamlValue.Entry where) {
        if (digits.length() <= 5 && Integer.parseInt(digits) >= 1 && Integer.parseInt(digits) <= 65535) {
            return Integer.valueOf(digits);
        }
        throw new InputException(
                file,
                where.line(),
                where.column(),
                "host \"" + where.key() + "\": port " + digits + " is not in 1..65535");
    }
}
