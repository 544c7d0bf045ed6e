package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.transport.ExecResult;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Service discovery on lab hosts that share one kernel network namespace, each with its Redis at its own 127.0.0.x
 * on the same port: each host finds its own Redis by address, and a host whose Redis is stopped says it is not
 * running, whatever listens at the other addresses of the machine.
 */
class DiscoveryByAddressIT {
    @RegisterExtension
    static final LabFleetExtension fleet =
            LabFleetExtension.of(LabHostSpec.named("disc-1"), LabHostSpec.named("disc-2"));

    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode()).as(command + ": " + result.stderr()).isZero();
        return result.stdout().strip();
    }

    private static String endpoint(String host) {
        return fleet.host(host).address() + ":" + fleet.host(host).redisPort();
    }

    /** The text of the host's redis-service finding in audit --json (its exit is THP's verdict, not this). */
    private static String service(String host) throws IOException {
        CliRun run = CliRun.of("audit", "-i", fleet.inventoryFile().toString(), "--limit", host, "--json");
        JsonNode json = new ObjectMapper().readTree(run.stdout());
        for (JsonNode finding : json.at("/hosts/0/findings")) {
            if (finding.at("/code").asText().equals("redis-service")) {
                return finding.at("/text").asText();
            }
        }
        throw new AssertionError("no redis-service finding for " + host + "\n" + run);
    }

    @Test
    void eachHostFindsItsOwnRedisAndAStoppedOneIsNotRunning() throws IOException {
        int port = fleet.host("disc-1").redisPort();
        // what makes this a test: both listeners on one port, each visible from the other host
        assertThat(fleet.host("disc-2").redisPort()).isEqualTo(port);
        String listeners = root("disc-1", "ss -ltnH 'sport = :" + port + "'");
        assertThat(listeners).contains(endpoint("disc-1"), endpoint("disc-2"));

        for (String host : new String[] {"disc-1", "disc-2"}) {
            String pid = root(
                    host,
                    "redis-cli -h " + fleet.host(host).address() + " -p " + port
                            + " info server | sed -n 's/^process_id:\\([0-9]*\\).*/\\1/p'");
            assertThat(service(host))
                    .as(host)
                    .startsWith("redis on :" + port + " (pid " + pid + ") run by systemd unit ")
                    .doesNotContain("listen on");
        }

        fleet.stopRedis("disc-2");
        try {
            assertThat(service("disc-2"))
                    .isEqualTo("redis on :" + port + ": nothing listens on " + endpoint("disc-2")
                            + ": Redis is not running there (connecting to it: connection refused)");
            assertThat(service("disc-1")).startsWith("redis on :" + port + " (pid ");
        } finally {
            fleet.startRedis("disc-2");
        }
    }
}
