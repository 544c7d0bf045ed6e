package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.CliRun;
import dev.fleetfix.transport.ExecResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The eras preset: one host of each shape in one fleet, each checked from inside the host for what it claims to be
 * (server and version from INFO, its binary, PID 1, its instances), and reboots that keep the data and, on the host
 * without systemd, replay rc.local and the grub command line.
 */
class LabErasIT {
    private static final String THP = "/sys/kernel/mm/transparent_hugepage";

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabPreset.ERAS.specs(7));

    private static LabRedis redis;

    @BeforeAll
    static void prepareHosts() {
        System.out.printf(
                "LabErasIT: eras fleet of 7 hosts up in %.1f s%n",
                fleet.startedIn().toMillis() / 1e3);
        redis = new LabRedis(fleet.get(), Optional.empty());
    }

    @Test
    void eachHostRunsTheServerAndVersionOfItsShape() {
        assertThat(info("lab-1", 6379)).containsEntry("redis_version", "2.8.19");
        assertThat(info("lab-2", 6379).get("redis_version")).startsWith("6.2.");
        assertThat(info("lab-3", 6379).get("redis_version")).startsWith("7.0.");
        assertThat(info("lab-4", 6379).get("redis_version")).startsWith("8.0.");
        Map<String, String> valkey = info("lab-5", 6379);
        assertThat(valkey).containsEntry("server_name", "valkey");
        assertThat(valkey.get("valkey_version")).startsWith("8.1.");
        assertThat(info("lab-7", 6379).get("redis_version")).startsWith("7.0.");
        for (String host : List.of("lab-1", "lab-2", "lab-3", "lab-4", "lab-6", "lab-7")) {
            assertThat(info(host, fleet.host(host).redisPort())).doesNotContainKey("server_name");
        }
    }

    @Test
    void oldBuildsRunFromTheirOwnBinaryThroughDebiansUnit() {
        for (String host : List.of("lab-1", "lab-2")) {
            assertThat(root(host, "readlink /proc/$(systemctl show -p MainPID --value redis-server)/exe"))
                    .as(host)
                    .isEqualTo("/usr/local/bin/redis-server\n");
            assertThat(root(host, "systemctl show -p Type --value redis-server"))
                    .isEqualTo("simple\n");
            assertThat(root(host, "systemctl is-active redis-server")).isEqualTo("active\n");
            assertThat(info(host, 6379)).containsEntry("config_file", "/etc/redis/redis.conf");
        }
        assertThat(root("lab-1", "redis-server --version")).startsWith("Redis server v=2.8.19 ");
        // Debian's /usr/bin/redis-server is a link to its redis-check-rdb
        assertThat(root("lab-3", "readlink /proc/$(systemctl show -p MainPID --value redis-server)/exe"))
                .isEqualTo(root("lab-3", "readlink -f /usr/bin/redis-server"))
                .startsWith("/usr/bin/");
    }

    @Test
    void valkeyHostHasValkeysServiceConfigAndCli() {
        assertThat(root("lab-5", "systemctl is-active valkey-server")).isEqualTo("active\n");
        assertThat(root("lab-5", "systemctl is-enabled redis-server || true")).isEqualTo("disabled\n");
        assertThat(info("lab-5", 6379)).containsEntry("config_file", "/etc/valkey/valkey.conf");
        String address = fleet.host("lab-5").address();
        assertThat(root("lab-5", "valkey-cli -h " + address + " ping")).isEqualTo("PONG\n");
        assertThat(root("lab-4", "systemctl is-active redis-server")).isEqualTo("active\n");
        assertThat(root("lab-4", "systemctl is-enabled valkey-server || true")).isEqualTo("disabled\n");
    }

    @Test
    void multiInstanceHostRunsThreeTemplateInstances() {
        LabHost host = fleet.host("lab-6");
        assertThat(host.redisPorts()).containsExactly(6379, 6380, 6381);
        assertThat(host.services()).containsExactly("redis-server@6379", "redis-server@6380", "redis-server@6381");
        assertThat(root("lab-6", "systemctl is-active redis-server@6379 redis-server@6380 redis-server@6381"))
                .isEqualTo("active\nactive\nactive\n");
        assertThat(root("lab-6", "systemctl is-active redis-server || true")).isEqualTo("inactive\n");
        assertThat(root("lab-6", "pgrep -cx redis-server")).isEqualTo("3\n");
        for (int port : host.redisPorts()) {
            Map<String, String> info = info("lab-6", port);
            assertThat(info).containsEntry("tcp_port", Integer.toString(port));
            assertThat(info).containsEntry("config_file", LabHostSetup.instanceConfig(LabServer.REDIS_7_0, port));
            assertThat(info.get("config_file")).isEqualTo("/etc/redis/redis-" + port + ".conf");
        }
    }

    @Test
    void everyServerAndInstanceCanRewriteItsOwnConfigFile() {
        // failovers and remediations persist settings this way; each era writes to the file it was started with
        for (LabHost host : fleet.hosts()) {
            for (int port : host.redisPorts()) {
                String file = info(host.name(), port).get("config_file");
                cli(host.name(), port, "config set maxmemory-samples 7");
                assertThat(cli(host.name(), port, "config rewrite"))
                        .as(host.name() + ":" + port)
                        .isEqualTo("OK\n");
                assertThat(root(host.name(), "grep -c '^maxmemory-samples 7' " + file))
                        .as(file)
                        .isEqualTo("1\n");
            }
        }
    }

    @Test
    void redisFaultsGoThroughEachHostsInitAndUnits() throws InterruptedException {
        LabHost sysv = fleet.host("lab-7");
        fleet.stopRedis("lab-7");
        assertThat(LabProbe.redisUp(sysv.address(), sysv.redisPort())).isFalse();
        fleet.startRedis("lab-7");
        // the SysV script returns once redis-server has forked, maybe before it listens
        assertThat(LabRedis.await(
                        Duration.ofSeconds(10),
                        () -> Boolean.toString(LabProbe.redisUp(sysv.address(), sysv.redisPort())),
                        "true"::equals))
                .isEqualTo("true");

        LabHost multi = fleet.host("lab-6");
        fleet.stopRedis("lab-6");
        assertThat(multi.redisPorts()).noneMatch(port -> LabProbe.redisUp(multi.address(), port));
        fleet.startRedis("lab-6");
        assertThat(LabRedis.await(
                        Duration.ofSeconds(10),
                        () -> Boolean.toString(
                                multi.redisPorts().stream().allMatch(port -> LabProbe.redisUp(multi.address(), port))),
                        "true"::equals))
                .isEqualTo("true");

        // Debian's valkey-server unit restarts a crashed server, as redis-server's does
        String before = root("lab-5", "systemctl show -p MainPID --value valkey-server");
        fleet.killRedis("lab-5");
        String after = LabRedis.await(
                Duration.ofSeconds(15),
                () -> fleet.rootExec("lab-5", "systemctl show -p MainPID --value valkey-server")
                        .stdout(),
                pid -> !pid.equals(before) && !pid.equals("0\n"));
        assertThat(after).isNotEqualTo(before).isNotEqualTo("0\n");
    }

    @Test
    void pid1IsSystemdExceptOnTheSysvHost() {
        for (String host : List.of("lab-1", "lab-2", "lab-3", "lab-4", "lab-5", "lab-6")) {
            assertThat(fleet.pid1(host)).as(host).isEqualTo("systemd");
        }
        assertThat(fleet.pid1("lab-7")).isEqualTo("sysv-init");
        // what fleetfix itself reads to tell the init, through SSH and sudo as it logs in
        ExecResult facts = OpenSsh.run(
                fleet.get(), "lab-7", "test -d /run/systemd/system && echo systemd || echo other; sudo -n id -u");
        assertThat(facts.stdout()).as(facts.stderr()).isEqualTo("other\n0\n");
        assertThat(root("lab-7", "/etc/init.d/redis-server status; echo rc=$?")).contains("is running", "rc=0");
    }

    @Test
    void statusShowsEachInstancesServerAndVersion() {
        Map<String, LabHostStatus> status = new HashMap<>();
        fleet.status().forEach(s -> status.put(s.host().name(), s));

        assertThat(servers(status.get("lab-1"))).containsExactly("redis 2.8.19");
        assertThat(servers(status.get("lab-2"))).singleElement().asString().startsWith("redis 6.2.");
        assertThat(servers(status.get("lab-4"))).singleElement().asString().startsWith("redis 8.0.");
        assertThat(servers(status.get("lab-5"))).singleElement().asString().startsWith("valkey 8.1.");
        assertThat(servers(status.get("lab-6"))).hasSize(3).allSatisfy(s -> assertThat(s)
                .startsWith("redis 7.0."));
        assertThat(status.get("lab-7").host().init()).isEqualTo(LabInit.SYSV);
        assertThat(status.values()).allSatisfy(s -> assertThat(s.sshUp()).isTrue());
    }

    @Test
    void dataSurvivesRebootOfEveryServerAndEveryInstance() {
        List<String> single = List.of("lab-1", "lab-2", "lab-4", "lab-5");
        for (int i = 0; i < single.size(); i++) {
            redis.redis(single.get(i), "debug populate " + (1000 + i) + " era");
        }
        for (int port : fleet.host("lab-6").redisPorts()) {
            cli("lab-6", port, "debug populate " + port + " inst");
        }

        for (String host : single) {
            fleet.reboot(host);
        }
        fleet.reboot("lab-6");

        for (int i = 0; i < single.size(); i++) {
            assertThat(redis.redis(single.get(i), "dbsize")).as(single.get(i)).isEqualTo((1000 + i) + "\n");
        }
        assertThat(info("lab-1", 6379)).containsEntry("redis_version", "2.8.19");
        assertThat(info("lab-5", 6379)).containsEntry("server_name", "valkey");
        for (int port : fleet.host("lab-6").redisPorts()) {
            assertThat(cli("lab-6", port, "dbsize")).as("port " + port).isEqualTo(port + "\n");
        }
    }

    @Test
    void sysvRebootReplaysRcLocalAndGrubCommandLineAndKeepsData() {
        assertThat(fleet.thp("lab-7")).isEqualTo("[always] madvise never\n");
        redis.redis("lab-7", "debug populate 1500 sysv");
        root(
                "lab-7",
                "printf '%s\\n' '#!/bin/sh -e' 'echo never > " + THP + "/defrag' 'date > /var/lib/rc-local-ran'"
                        + " 'exit 0' > /etc/rc.local && chmod 0755 /etc/rc.local"
                        + " && sed -i 's/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\"/'"
                        + " /etc/default/grub");
        assertThat(root("lab-7", "cat " + THP + "/enabled"))
                .as("nothing applied before the reboot")
                .isEqualTo("[always] madvise never\n");

        CliRun reboot = lab("reboot", "lab-7");
        assertThat(reboot.exitCode()).as(reboot.toString()).isZero();
        assertThat(reboot.stdout()).contains("lab-7 rebooted");

        assertThat(fleet.pid1("lab-7")).isEqualTo("sysv-init");
        assertThat(fleet.thp("lab-7"))
                .as("grub's transparent_hugepage=never at boot")
                .isEqualTo("never\n");
        assertThat(root("lab-7", "cat " + THP + "/defrag"))
                .as("rc.local at boot")
                .isEqualTo("never\n");
        assertThat(root("lab-7", "test -s /var/lib/rc-local-ran && echo ran")).isEqualTo("ran\n");
        assertThat(root("lab-7", "cat /proc/cmdline")).contains("transparent_hugepage=never");
        assertThat(redis.redis("lab-7", "dbsize")).isEqualTo("1500\n");
    }

    @Test
    void labStatusPrintsFlavourVersionAndInitOfEachHostAndEveryInstance() {
        CliRun status = lab("status");

        assertThat(status.exitCode()).as(status.toString()).isZero();
        List<String> lines = status.stdout().lines().toList();
        assertThat(line(lines, "lab-1 ")).contains("redis up", "master", "redis 2.8.19");
        assertThat(line(lines, "lab-2 ")).contains("redis 6.2.");
        assertThat(line(lines, "lab-4 ")).contains("redis 8.0.");
        assertThat(line(lines, "lab-5 ")).contains("valkey 8.1.");
        assertThat(line(lines, "lab-7 ")).contains("redis 7.0.", "init sysv");
        assertThat(line(lines, ":6381 ")).contains("redis-server@6381", "up", "redis 7.0.");
        assertThat(lines.stream().filter(l -> l.contains("redis-server@")))
                .as(status.toString())
                .hasSize(3);
    }

    /** The line of {@code lab status} holding {@code text}. */
    private static String line(List<String> lines, String text) {
        return lines.stream()
                .filter(l -> l.contains(text))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line with '" + text + "' in:\n" + String.join("\n", lines)));
    }

    /** {@code fleetfix lab ARGS} on this fleet, as a user types it. */
    private static CliRun lab(String... args) {
        List<String> command = new ArrayList<>(List.of("lab"));
        command.addAll(List.of(args));
        command.addAll(List.of("--home", fleet.directory().getParent().toString(), "--id", fleet.id()));
        return CliRun.of(command.toArray(String[]::new));
    }

    @Test
    void grubCommandLineIsHonouredAtBootOnASystemdHostToo() {
        assertThat(root("lab-3", "cat /proc/cmdline")).doesNotContain("transparent_hugepage");
        root(
                "lab-3",
                "sed -i 's/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX=\"transparent_hugepage=never\"/'"
                        + " /etc/default/grub");

        fleet.reboot("lab-3");

        assertThat(fleet.thp("lab-3")).isEqualTo("never\n");
        assertThat(root("lab-3", "cat /proc/cmdline")).contains(" quiet", "transparent_hugepage=never");
        assertThat(fleet.pid1("lab-3")).isEqualTo("systemd");
        assertThat(root("lab-3", "systemctl is-active fleetfix-lab-kernel-cmdline redis-server"))
                .isEqualTo("active\nactive\n");
    }

    private static List<String> servers(LabHostStatus status) {
        return status.instances().stream().map(i -> i.server().orElse("none")).toList();
    }

    private static Map<String, String> info(String host, int port) {
        return LabRedisCli.fields(cli(host, port, "info server"));
    }

    private static String cli(String host, int port, String args) {
        return root(host, LabRedisCli.command(fleet.host(host).address(), port, Optional.empty(), args));
    }

    private static String root(String host, String command) {
        ExecResult result = fleet.rootExec(host, command);
        assertThat(result.exitCode())
                .as("%s: %s: %s", host, command, result.stderr())
                .isZero();
        return result.stdout();
    }
}
