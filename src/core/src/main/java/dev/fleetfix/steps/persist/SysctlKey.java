package dev.fleetfix.steps.persist;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A kernel parameter's name and the value a playbook wants for it, checked when the playbook is read:
 * only the characters sysctl names use, and a number where the kernel reads a number.
 *
 * @param name the dotted name ({@code vm.overcommit_memory}), as sysctl.d files spell it
 * @param value the value, whitespace between its fields collapsed to one space
 */
public record SysctlKey(String name, String value, boolean atLeast) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_\\-]*([./][A-Za-z0-9_\\-:@+]+)+");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

    /** Parameters the kernel reads as one integer, with the range it accepts. */
    private static final Map<String, long[]> NUMERIC = Map.of(
            "vm.overcommit_memory", new long[] {0, 2},
            "vm.overcommit_ratio", new long[] {0, Integer.MAX_VALUE},
            "vm.swappiness", new long[] {0, 200},
            "net.core.somaxconn", new long[] {1, Integer.MAX_VALUE},
            "net.ipv4.tcp_max_syn_backlog", new long[] {1, Integer.MAX_VALUE},
            "vm.max_map_count", new long[] {1, Integer.MAX_VALUE});

    public SysctlKey {
        problem(name, value).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        if (atLeast && !NUMERIC.containsKey(dotted(name))) {
            throw new IllegalArgumentException(name + ": at_least needs a parameter the kernel reads as one number");
        }
        name = dotted(name);
        value = value.strip().replaceAll("\\s+", " ");
    }

    /** Exactly this value. */
    public SysctlKey(String name, String value) {
        this(name, value, false);
    }

    /**
     * The exact value to set on a host whose kernel reads {@code kernelText}: for {@code at_least}, the larger of
     * the two, so a host tuned higher is never lowered (in the running kernel or at boot); else this value.
     */
    public SysctlKey against(String kernelText) {
        if (!atLeast) {
            return this;
        }
        try {
            long running = Long.parseLong(kernelText.strip());
            return new SysctlKey(name, Long.toString(Math.max(running, Long.parseLong(value))));
        } catch (NumberFormatException e) {
            return new SysctlKey(name, value);
        }
    }

    /** Whether at_least may be asked of this parameter: one the kernel reads as one number. */
    public static boolean numeric(String name) {
        return NUMERIC.containsKey(dotted(name));
    }

    /** What is wrong with this name and value, or empty when the kernel could take them. */
    public static Optional<String> problem(String name, String value) {
        if (name == null || !NAME.matcher(name).matches() || name.contains("..")) {
            return Optional.of("'" + name + "' is not a sysctl name (letters, digits, _ - separated by . or /)");
        }
        if (value == null || value.isBlank()) {
            return Optional.of(name + ": empty value");
        }
        if (value.contains("\n") || value.contains("\r")) {
            return Optional.of(name + ": the value holds a line break; a sysctl.d line would end there");
        }
        long[] range = NUMERIC.get(dotted(name));
        if (range != null) {
            String v = value.strip();
            if (!INTEGER.matcher(v).matches()) {
                return Optional.of(name + ": expected a number, was '" + v + "'");
            }
            long n;
            try {
                n = Long.parseLong(v);
            } catch (NumberFormatException e) {
                n = Long.MAX_VALUE;
            }
            if (n < range[0] || n > range[1]) {
                return Optional.of(name + ": expected " + range[0] + ".." + range[1] + ", was " + v);
            }
        }
        return Optional.empty();
    }

    /**
     * The dotted spelling of a name: {@code vm/overcommit_memory} and {@code vm.overcommit_memory} are the same
     * parameter. When the first separator is a slash, slashes and dots swap (sysctl.d(5)).
     */
    public static String dotted(String name) {
        String n = name.startsWith("-") ? name.substring(1) : name;
        int dot = n.indexOf('.');
        int slash = n.indexOf('/');
        boolean slashFirst = slash >= 0 && (dot < 0 || slash < dot);
        return slashFirst ? swap(n) : n;
    }

    private static String swap(String n) {
        StringBuilder b = new StringBuilder(n.length());
        for (char c : n.toCharArray()) {
            b.append(c == '/' ? '.' : c == '.' ? '/' : c);
        }
        return b.toString();
    }

    /** The file under {@code /proc/sys} that holds the running value. */
    public String procPath() {
        return "/proc/sys/" + swap(name);
    }

    /** Whether the kernel's text (tabs between the fields of a range) says this value. */
    public boolean holds(String kernelText) {
        return kernelText.strip().replaceAll("\\s+", " ").equals(value);
    }

    /** Per network namespace: a Redis in a container has its own copy. */
    public boolean perNetworkNamespace() {
        return name.startsWith("net.");
    }
}
