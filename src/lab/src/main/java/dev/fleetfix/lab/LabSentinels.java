package dev.fleetfix.lab;

import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts the Sentinels of a lab once its Redis hosts are up and replicating, and waits until each one knows the
 * primary, all its replicas and every other Sentinel: from then on a failover can be asked of any of them.
 */
final class LabSentinels {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final LabFleet fleet;
    private final LabTopology topology;
    private final LabRedisCli cli;

    LabSentinels(LabFleet fleet, LabTopology topology, LabRedisCli cli) {
        this.fleet = fleet;
        this.topology = topology;
        this.cli = cli;
    }

    void start() {
        List<String> sentinels = topology.sentinels();
        if (sentinels.isEmpty()) {
            return;
        }
        for (String host : sentinels) {
            install(host);
        }
        String primary = topology.sentinelPrimary().orElseThrow();
        int replicas = topology.replicasOf(primary).size();
        LabWait.until(
                TIMEOUT,
                "every Sentinel (" + String.join(", ", sentinels) + ") to see " + primary + " with " + replicas
                        + " replicas and " + (sentinels.size() - 1) + " other Sentinels",
                () -> firstUnaware(sentinels, fleet.host(primary), replicas));
    }

    /** The unit and config come from the host's lab files; Sentinel owns its copy of the config from then on. */
    private void install(String host) {
        String unit = LabSentinelConf.UNIT;
        ExecResult installed = fleet.rootExec(
                host,
                "install -o redis -g redis -m 0640 /etc/fleetfix-lab/sentinel.conf " + LabSentinelConf.CONFIG_PATH
                        + " && install -m 0644 /etc/fleetfix-lab/" + unit + " /etc/systemd/system/" + unit
                        + " && systemctl daemon-reload && systemctl enable --now " + unit);
        if (!installed.ok()) {
            throw new LabException("lab host " + host + ": its Sentinel did not start (exit " + installed.exitCode()
                    + "): " + installed.errorText() + "\n"
                    + fleet.rootExec(host, "journalctl --no-pager -n 20 -u " + unit)
                            .stdout());
        }
    }

    private Optional<String> firstUnaware(List<String> sentinels, LabHost primary, int replicas) {
        for (String host : sentinels) {
            ExecResult reply = cli.sentinel(host, "sentinel master " + LabFleet.SENTINEL_MASTER);
            Map<String, String> master = LabRedisCli.pairs(reply.stdout());
            if (!reply.ok() || !master.containsKey("num-slaves")) {
                return Optional.of("Sentinel on " + host + ": " + LabRedisCli.problem(reply));
            }
            boolean aware = master.get("ip").equals(primary.address())
                    && master.get("port").equals(Integer.toString(primary.redisPort()))
                    && master.get("num-slaves").equals(Integer.toString(replicas))
                    && master.get("num-other-sentinels").equals(Integer.toString(sentinels.size() - 1));
            if (!aware) {
                return Optional.of("Sentinel on " + host + " sees " + master.get("ip") + ":" + master.get("port")
                        + " (" + master.get("flags") + ") with num-slaves " + master.get("num-slaves")
                        + ", num-other-sentinels " + master.get("num-other-sentinels"));
            }
        }
        return Optional.empty();
    }
}
