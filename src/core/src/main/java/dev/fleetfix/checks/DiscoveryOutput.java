package dev.fleetfix.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What {@code discovery.sh} printed, read and bounded, for {@link ServiceDiscovery}: the host's own lines (before any
 * {@code port=}), then for each port asked for its lines and the processes detailed under it ({@code pid=} and the
 * lines that follow). At most {@link #MAX_LINES} lines of at most {@link #MAX_LINE} characters count, and
 * {@link #MAX_PROCS} processes a port; a second block of one port, or one of a port not asked for, is skipped.
 *
 * @param host the host's lines ({@code pid1}, {@code self.pidns}, {@code info.config}): the first of each key
 * @param ports the blocks of the ports asked for that the output covers
 */
record DiscoveryOutput(Map<String, String> host, Map<Integer, Port> ports) {
    static final int MAX_LINES = 2000;
    static final int MAX_LINE = 4096;
    static final int MAX_PROCS = 17;
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_.@+=,/-]{1,1024}");

    /**
     * One port's block.
     *
     * @param lines its own lines, before its first process ({@code listen=}, {@code sockets=}, {@code info.pid=})
     * @param procs the processes detailed under it, in order
     */
    record Port(Map<String, List<String>> lines, List<Proc> procs) {
        /** The first value of {@code key} in the port's own lines; empty without one. */
        String first(String key) {
            return lines.getOrDefault(key, List.of("")).get(0);
        }
    }

    /** One process's lines: {@code one} keeps the first value of each key, {@code many} all of them. */
    record Proc(long pid, Map<String, String> one, Map<String, List<String>> many) {
        String get(String key) {
            return one.getOrDefault(key, "");
        }

        List<String> all(String key) {
            return many.getOrDefault(key, List.of());
        }

        /** Its command line's first argument: a path, or a process title ("redis-server 127.0.0.1:6379"). */
        String command() {
            return all("pid.arg").stream().findFirst().orElse("");
        }

        /** The names it runs by: its {@code comm}, and the base name of its command's first word. */
        Set<String> names() {
            return new LinkedHashSet<>(
                    List.of(get("pid.comm"), baseName(command().split(" ", 2)[0])));
        }

        /** The PIDs of its parents, nearest first ({@code parent=PID COMM}). */
        List<Long> ancestors() {
            List<Long> out = new ArrayList<>();
            for (String line : all("parent")) {
                number(line.split(" ", 2)[0]).ifPresent(out::add);
            }
            return out;
        }
    }

    /** Reads {@code output}, keeping the blocks of {@code asked} only. */
    static DiscoveryOutput read(String output, List<Integer> asked) {
        Map<String, String> host = new LinkedHashMap<>();
        Map<Integer, List<String[]>> blocks = new LinkedHashMap<>();
        List<String[]> current = null;
        int lines = 0;
        for (String line : output.split("\n", -1)) {
            if (++lines > MAX_LINES) {
                break;
            }
            int eq = line.indexOf('=');
            if (line.length() > MAX_LINE || eq <= 0) {
                continue;
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (key.equals("port")) {
                current = null;
                try {
                    int port = Integer.parseInt(value);
                    if (asked.contains(port) && !blocks.containsKey(port)) {
                        current = new ArrayList<>();
                        blocks.put(port, current);
                    }
                } catch (NumberFormatException e) {
                    // garbled: the lines that follow belong to no port
                }
            } else if (current != null) {
                current.add(new String[] {key, value});
            } else {
                host.putIfAbsent(key, value);
            }
        }
        Map<Integer, Port> ports = new LinkedHashMap<>();
        blocks.forEach((port, block) -> ports.put(port, port(block)));
        return new DiscoveryOutput(host, ports);
    }

    /** The config file INFO named ({@code info.config}), when it is a path. */
    Optional<String> infoConfig() {
        return path(host.getOrDefault("info.config", ""));
    }

    private static Port port(List<String[]> block) {
        Map<String, List<String>> own = new LinkedHashMap<>();
        List<Proc> procs = new ArrayList<>();
        Proc proc = null;
        for (String[] kv : block) {
            if (kv[0].equals("pid")) {
                OptionalLong pid = number(kv[1]);
                proc = pid.isEmpty() || procs.size() >= MAX_PROCS
                        ? null
                        : new Proc(pid.getAsLong(), new LinkedHashMap<>(), new LinkedHashMap<>());
                if (proc != null) {
                    procs.add(proc);
                }
            } else if (proc != null) {
                proc.one().putIfAbsent(kv[0], kv[1]);
                proc.many().computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
            } else {
                own.computeIfAbsent(kv[0], k -> new ArrayList<>()).add(kv[1]);
            }
        }
        return new Port(own, procs);
    }

    /** An absolute path of plain characters, without {@code /../}; empty otherwise. */
    static Optional<String> path(String value) {
        return PATH.matcher(value).matches() && !value.contains("/../") ? Optional.of(value) : Optional.empty();
    }

    /** The last part of a path. */
    static String baseName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** A decimal of at most 18 digits; empty otherwise. */
    static OptionalLong number(String value) {
        return value.matches("\\d{1,18}") ? OptionalLong.of(Long.parseLong(value)) : OptionalLong.empty();
    }
}
