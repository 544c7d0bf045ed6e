package dev.fleetfix.lab;

import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ShellQuote;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * redis-cli run as root inside a lab host, against that host's own Redis or Sentinel, as an operator logged in
 * there would: how the lab forms clusters and checks Sentinels without a client library of its own.
 */
final class LabRedisCli {
    private final LabFleet fleet;
    private final LabTopology topology;

    LabRedisCli(LabFleet fleet, LabTopology topology) {
        this.fleet = fleet;
        this.topology = topology;
    }

    /** {@code args} against the host's Redis, with its password; the command's output on stdout. */
    ExecResult redis(String host, String args) {
        LabHost target = fleet.host(host);
        return fleet.rootExec(
                host,
                command(
                        target.address(),
                        target.redisPort(),
                        topology.spec(host).requirepass(),
                        args));
    }

    /** {@code args} against the host's Sentinel, which has no password. */
    ExecResult sentinel(String host, String args) {
        LabHost target = fleet.host(host);
        int port = target.sentinelPort()
                .orElseThrow(() -> new IllegalArgumentException("lab host " + host + " runs no Sentinel"));
        return fleet.rootExec(host, command(target.address(), port, Optional.empty(), args));
    }

    /** Empty when the replica's link to its primary is up, else what its INFO replication says. */
    Optional<String> linkProblem(String replica) {
        ExecResult info = redis(replica, "info replication");
        String status = fields(info.stdout()).get("master_link_status");
        if (info.ok() && "up".equals(status)) {
            return Optional.empty();
        }
        return Optional.of(replica + ": " + (status == null ? problem(info) : "master_link_status:" + status));
    }

    /** REDISCLI_AUTH keeps the password off the command line and redis-cli's warning about it off stderr. */
    static String command(String address, int port, Optional<String> password, String args) {
        String auth =
                password.map(p -> "REDISCLI_AUTH=" + ShellQuote.quote(p) + " ").orElse("");
        return auth + "redis-cli -h " + address + " -p " + port + " " + args;
    }

    /** The {@code key:value} lines of INFO or CLUSTER INFO. */
    static Map<String, String> fields(String output) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : output.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    /** A flat array reply of names and values (SENTINEL MASTER), which redis-cli prints one element a line. */
    static Map<String, String> pairs(String output) {
        List<String> lines = output.lines().toList();
        Map<String, String> pairs = new LinkedHashMap<>();
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            pairs.put(lines.get(i), lines.get(i + 1));
        }
        return pairs;
    }

    /** What a failed or refused redis-cli call said, for a message. */
    static String problem(ExecResult result) {
        String text = result.ok() ? result.stdout().strip() : result.errorText();
        return text.isEmpty() ? "no answer (exit " + result.exitCode() + ")" : text;
    }
}
