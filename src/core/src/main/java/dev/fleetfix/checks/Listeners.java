package dev.fleetfix.checks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The listeners of one port at one address, from the discovery script's lines: {@code listen=ADDR:PORT PID...} (from
 * {@code ss}), else {@code proc.listen=HEXADDR:HEXPORT INODE} with {@code proc.inode=INODE PID} (from
 * {@code /proc/net/tcp*} and the processes' descriptors). Output without either, nor {@code info.pid=} (an older
 * script's, or a fake host's), counts {@code sockets=} and every process, as the port alone did.
 *
 * @param sockets the listeners at the address
 * @param pids the processes that hold one of them; empty with {@code any}
 * @param any no listener lines: every process counts
 */
record Listeners(int sockets, Set<Long> pids, boolean any) {
    private static final int MAX = 64;

    static Listeners of(String address, Map<String, List<String>> lines) {
        List<String> ss = lines.getOrDefault("listen", List.of());
        List<String> proc = lines.getOrDefault("proc.listen", List.of());
        // the script names the process INFO gave along with the listeners: then no listener is no listener
        if (ss.isEmpty() && proc.isEmpty() && !lines.containsKey("info.pid")) {
            long counted = Math.max(count(lines, "sockets"), count(lines, "proc.sockets"));
            return new Listeners((int) Math.min(counted, MAX), Set.of(), true);
        }
        // ss counts when it ran; the processes come from ss, and from the descriptors where ss named none
        int ssSockets = 0;
        Set<Long> pids = new LinkedHashSet<>();
        for (String line : ss.stream().limit(MAX).toList()) {
            String[] words = line.strip().split("\\s+");
            if (Listener.at(address, words[0])) {
                ssSockets++;
                for (int i = 1; i < words.length; i++) {
                    DiscoveryOutput.number(words[i]).ifPresent(pids::add);
                }
            }
        }
        Set<String> inodes = new LinkedHashSet<>();
        int procSockets = 0;
        for (String line : proc.stream().limit(MAX).toList()) {
            String[] words = line.strip().split("\\s+");
            if (Listener.at(address, words[0])) {
                procSockets++;
                inodes.addAll(List.of(words).subList(1, words.length));
            }
        }
        for (String line : lines.getOrDefault("proc.inode", List.of())) {
            String[] words = line.strip().split("\\s+");
            if (words.length == 2 && inodes.contains(words[0])) {
                DiscoveryOutput.number(words[1]).ifPresent(pids::add);
            }
        }
        return new Listeners(ss.isEmpty() ? procSockets : ssSockets, Set.copyOf(pids), false);
    }

    boolean holds(long pid) {
        return any || pids.contains(pid);
    }

    /** ":6379", or "127.0.0.3:6379" when listeners were told apart by address. */
    String where(String address, int port) {
        String named = address.equalsIgnoreCase("localhost") ? "127.0.0.1" : address.strip();
        boolean ip = Listener.ip(named).isPresent();
        return (ip && !any ? (named.contains(":") ? "[" + named + "]" : named) : "") + ":" + port;
    }

    private static long count(Map<String, List<String>> lines, String key) {
        return DiscoveryOutput.number(lines.getOrDefault(key, List.of("")).get(0))
                .orElse(0L);
    }
}
