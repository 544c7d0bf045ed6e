package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabThp;
import dev.fleetfix.transport.ExecResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code fleetfix audit} against lab hosts with real sshd, systemd and redis-server. */
class AuditIT {
    private static final String PASSWORD = "audit-2.pw";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            // THP always, Redis with disable-thp no: exposed
            LabHostSpec.named("audit-1").withThp(LabThp.ALWAYS),
            // a RHEL 6 kernel's THP directory, THP always, Redis opting out: low risk; a password file
            LabHostSpec.named("audit-2")
                    .withThp(LabThp.ALWAYS)
                    .withRhel6Thp()
                    .withDisableThp(true)
                    .withPassword(PASSWORD),
            // THP never: ok once overcommit is 1
            LabHostSpec.named("audit-3").withThp(LabThp.NEVER).withThpDefrag(LabThp.NEVER),
            // for outages
            LabHostSpec.named("audit-4").withThp(LabThp.MADVISE));

    private static String inventory;

    @BeforeAll
    static void prepareHosts() {
        inventory = fleet.inventoryFile().toString();
        // vm.overcommit_memory is the machine's, shared by every container; a bind mount in audit-3's own
        // mount namespace gives that host a 1 without touching the machine.
        root(
                "audit-3",
                "echo 1 > /run/overcommit_memory && mount --bind /run/overcommit_memory"
                        + " /proc/sys/vm/overcommit_memory && cat /proc/sys/vm/overcommit_memory");
    }

    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode()).as(command + ": " + result.stderr()).isZero();
        return result.stdout().strip();
    }

    private static String address(String host) {
        return fleet.host(host).address();
    }

    /** Where the host's Redis listens, as the inventory says ({@code 127.0.0.11:6379}). */
    private static String redisEndpoint(String host) {
        return fleet.host(host).address() + ":" + fleet.host(host).redisPort();
    }

    private static String row(CliRun run, String host) {
        return run.stdout()
                .lines()
                .filter(line -> line.startsWith(host + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + host + "\n" + run));
    }

    @Test
    void auditsHostsWithDifferentThpModes() {
        CliRun run = CliRun.of("audit", "-i", inventory, "--limit", "audit-1:audit-2:audit-3")
                .expectExit(1);

        String kernel = root("audit-1", "uname -r");
        assertThat(row(run, "audit-1"))
                .as(run.toString())
                .contains(kernel, "always/madvise", "master", "no", "at-risk");
        assertThat(row(run, "audit-2")).as(run.toString()).contains("always/", "yes", "at-risk");
        assertThat(row(run, "audit-3")).as(run.toString()).contains("never/never", "  1  ", " ok");
        assertThat(run.stdout())
                .as(run.toString())
                // a lab host's THP is a plain file over sysfs: no era's cost is claimed for it, and a note says why
                .contains("    risk: THP is [always] and Redis 7.0 runs with disable-thp no: what it costs Redis"
                        + " depends on the kernel's own setting, which this file is not (see thp-not-kernel); set never"
                        + " (or disable-thp yes)")
                .containsPattern("    note: THP under /sys/kernel/mm/transparent_hugepage is not the kernel's \\(on"
                        + " [\\w/.+-]+, not sysfs\\): the setting here does not reach the kernel, so changing it"
                        + " cannot change what Redis gets")
                .doesNotContain("latency spikes")
                .doesNotContain("memory bloat")
                .contains("    note: THP is [always], but Redis 7.0 runs with disable-thp yes: low risk for Redis;"
                        + " set never or madvise for the rest of the host")
                .contains("    risk: vm.overcommit_memory is 0: BGSAVE may fail under memory pressure; set 1")
                .contains("    note: THP setting is not persisted: nothing sets [never] at boot")
                .endsWith("3 hosts: 1 ok, 2 at-risk, 0 unreachable\n");
        // an audit that lasts a second prints progress lines there (how many is the machine's speed); nothing else
        assertThat(run.stderrWithoutProgress()).as(run.toString()).isEmpty();
    }

    @Test
    void jsonHasTheSameFacts() throws IOException {
        CliRun run = CliRun.of("audit", "-i", inventory, "--limit", "audit-1:audit-2:audit-3", "--json")
                .expectExit(1);
        JsonNode json = new ObjectMapper().readTree(run.stdout());

        assertThat(json.at("/summary/ok").asInt()).as(run.toString()).isEqualTo(1);
        assertThat(json.at("/hosts").findValuesAsText("host")).containsExactly("audit-1", "audit-2", "audit-3");
        JsonNode one = json.at("/hosts/0/facts");
        assertThat(one.at("/kernel").asText()).isEqualTo(root("audit-1", "uname -r"));
        assertThat(one.at("/root").asBoolean()).as("become through sudo").isTrue();
        assertThat(one.at("/thp/sysfs_dir").asText()).isEqualTo("/sys/kernel/mm/transparent_hugepage");
        // the lab's THP file is bind-mounted from the lab's directory: not sysfs, and JSON says which it is
        assertThat(one.at("/thp/filesystem").asText()).isNotBlank().isNotEqualTo("sysfs");
        assertThat(one.at("/thp/enabled").asText()).isEqualTo("always");
        assertThat(one.at("/thp/defrag").asText()).isEqualTo("madvise");
        assertThat(one.at("/net_core_somaxconn").asInt())
                .isEqualTo(Integer.parseInt(root("audit-1", "cat /proc/sys/net/core/somaxconn")));
        assertThat(one.at("/redis/endpoint").asText()).isEqualTo(redisEndpoint("audit-1"));
        assertThat(one.at("/redis/version").asText()).startsWith("7.");
        assertThat(one.at("/redis/role").asText()).isEqualTo("master");
        assertThat(one.at("/redis/disable_thp").asBoolean()).isFalse();
        assertThat(one.at("/redis/tcp_backlog").asInt()).isEqualTo(511);
        assertThat(one.at("/redis_process/pid").asLong())
                .isEqualTo(one.at("/redis/process_id").asLong());
        assertThat(one.at("/redis_process/anon_huge_pages_kb").isNumber())
                .as("smaps_rollup read as root: " + one.at("/redis_process"))
                .isTrue();
        assertThat(json.at("/hosts/0/findings").findValuesAsText("code")).contains("thp-exposed", "overcommit");

        JsonNode two = json.at("/hosts/1/facts");
        assertThat(two.at("/thp/sysfs_dir").asText()).isEqualTo("/sys/kernel/mm/redhat_transparent_hugepage");
        assertThat(two.at("/thp/enabled").asText()).isEqualTo("always");
        assertThat(two.at("/redis/disable_thp").asBoolean()).isTrue();
        assertThat(two.at("/redis/version").asText())
                .as("authenticated with the password file")
                .startsWith("7.");
        assertThat(run.stdout()).doesNotContain(PASSWORD);

        JsonNode three = json.at("/hosts/2");
        assertThat(three.at("/verdict").asText()).isEqualTo("ok");
        assertThat(three.at("/facts/thp/enabled").asText()).isEqualTo("never");
        assertThat(three.at("/facts/vm_overcommit_memory").asInt()).isEqualTo(1);
    }

    @Test
    void exitsZeroWhenEveryHostIsOk() {
        CliRun run = CliRun.of("audit", "-i", inventory, "--limit", "audit-3").expectExit(0);

        assertThat(run.stdout()).as(run.toString()).endsWith("1 host: 1 ok, 0 at-risk, 0 unreachable\n");
    }

    @Test
    void aPersistedSettingIsFoundAndNamed() {
        root(
                "audit-3",
                "printf '%s\\n' '[Unit]' 'Description=THP off' '[Service]' 'Type=oneshot'"
                        + " \"ExecStart=/bin/sh -c 'echo never > /sys/kernel/mm/transparent_hugepage/enabled'\""
                        + " '[Install]' 'WantedBy=multi-user.target' > /etc/systemd/system/audit-thp.service"
                        + " && systemctl enable audit-thp.service 2>/dev/null");
        try {
            CliRun run =
                    CliRun.of("audit", "-i", inventory, "--limit", "audit-3").expectExit(0);

            assertThat(row(run, "audit-3")).as(run.toString()).contains(" systemd ");
            assertThat(run.stdout()).as(run.toString()).doesNotContain("not persisted");
        } finally {
            root(
                    "audit-3",
                    "systemctl disable audit-thp.service 2>/dev/null; rm -f /etc/systemd/system/audit-thp.service");
        }
    }

    @Test
    void aHostWhoseRedisIsDownSaysSoAndAHostWithoutSshIsUnreachable() {
        fleet.stopRedis("audit-4");
        try {
            CliRun down =
                    CliRun.of("audit", "-i", inventory, "--limit", "audit-4").expectExit(1);

            assertThat(row(down, "audit-4")).as(down.toString()).contains(" down ", "at-risk");
            assertThat(down.stdout())
                    .as(down.toString())
                    .contains(
                            "    risk: Redis is not answering on " + redisEndpoint("audit-4") + ": connection refused");

            fleet.stopSshd("audit-4");
            CliRun unreachable = CliRun.of("audit", "-i", inventory, "--limit", "audit-4", "--json")
                    .expectExit(1);
            JsonNode host = new ObjectMapper().readTree(unreachable.stdout()).at("/hosts/0");
            assertThat(host.at("/verdict").asText()).as(unreachable.toString()).isEqualTo("unreachable");
            assertThat(host.at("/facts").isNull()).isTrue();
            assertThat(host.at("/findings/0/text").asText())
                    .as(unreachable.toString())
                    .contains("audit-4", address("audit-4"));
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            fleet.startSshd("audit-4");
            fleet.startRedis("audit-4");
        }
    }

    @Test
    void openMetricsOfThreeHostsParseWithPrometheusOwnParsersAndCarryAThpGaugePerHost() throws Exception {
        Path file = Files.createTempDirectory("fleetfix-metrics").resolve("fleetfix.prom");
        CliRun run = CliRun.of(
                        "audit",
                        "-i",
                        inventory,
                        "--limit",
                        "audit-1:audit-2:audit-3",
                        "--format",
                        "openmetrics",
                        "--output",
                        file.toString())
                .expectExit(1);
        assertThat(run.stdout()).as(run.toString()).isEmpty();
        assertThat(Files.getPosixFilePermissions(file))
                .as("node_exporter runs as another user")
                .contains(PosixFilePermission.OTHERS_READ);

        Process parser = new ProcessBuilder(
                        "/usr/bin/python3",
                        Path.of("src/core/src/test/resources/openmetrics/parse.py")
                                .toString(),
                        file.toString())
                .redirectErrorStream(true)
                .start();
        String parsed = new String(parser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(parser.waitFor())
                .as(
                        "the Prometheus client's parsers (Debian python3-prometheus-client) rejected:%n%s%n%s",
                        parsed, Files.readString(file))
                .isZero();
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> samples = new ArrayList<>();
        for (String line : parsed.strip().split("\n")) {
            samples.add(json.readTree(line));
        }
        Map<String, String> thpByHost = new TreeMap<>();
        samples.stream()
                .filter(s -> s.path("name").asText().equals("fleetfix_thp_enabled"))
                .filter(s -> s.path("value").asDouble() == 1.0)
                .forEach(s -> thpByHost.put(
                        s.at("/labels/host").asText(), s.at("/labels/mode").asText()));
        assertThat(thpByHost)
                .containsExactly(
                        Map.entry("audit-1", "always"), Map.entry("audit-2", "always"), Map.entry("audit-3", "never"));
        assertThat(samples)
                .filteredOn(s -> s.path("name").asText().equals("fleetfix_host_verdict")
                        && s.path("value").asDouble() == 1.0)
                .extracting(s -> s.at("/labels/host").asText() + "="
                        + s.at("/labels/verdict").asText())
                .containsExactlyInAnyOrder("audit-1=at-risk", "audit-2=at-risk", "audit-3=ok");
        assertThat(samples.get(samples.size() - 1).path("classic_samples").asInt())
                .as("the classic text parser reads as many samples")
                .isEqualTo(samples.size() - 1);
    }
}
