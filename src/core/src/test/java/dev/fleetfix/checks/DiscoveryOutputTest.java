package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.DiscoveryOutput.Proc;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading discovery.sh's lines: the host's, each port's own, and its processes', within bounds. */
class DiscoveryOutputTest {

    @Test
    void hostLinesComeBeforeTheFirstPortAndEachPortKeepsItsOwnAndItsProcesses() {
        DiscoveryOutput out = DiscoveryOutput.read(
                "pid1=systemd\npid1=init\ninfo.config=/etc/redis/6379.conf\n"
                        + "port=6379\nsockets=1\nlisten=127.0.0.1:6379 812\n"
                        + "pid=812\npid.comm=redis-server\npid.arg=/usr/bin/redis-server\npid.arg=/etc/redis.conf\n"
                        + "parent=700 bash\nparent=1 systemd\n"
                        + "pid=813\npid.comm=redis-rdb-bgsave\n"
                        + "port=6380\npid=900\nend=1\n",
                List.of(6379, 6380));

        assertThat(out.host()).containsEntry("pid1", "systemd").doesNotContainKey("sockets");
        assertThat(out.infoConfig()).contains("/etc/redis/6379.conf");
        DiscoveryOutput.Port first = out.ports().get(6379);
        assertThat(first.first("listen")).isEqualTo("127.0.0.1:6379 812");
        assertThat(first.first("info.pid")).isEmpty();
        assertThat(first.procs()).extracting(Proc::pid).containsExactly(812L, 813L);
        Proc redis = first.procs().get(0);
        assertThat(redis.get("pid.arg")).isEqualTo("/usr/bin/redis-server");
        assertThat(redis.all("pid.arg")).containsExactly("/usr/bin/redis-server", "/etc/redis.conf");
        assertThat(redis.ancestors()).containsExactly(700L, 1L);
        assertThat(redis.command()).isEqualTo("/usr/bin/redis-server");
        assertThat(redis.names()).containsExactly("redis-server");
        assertThat(first.procs().get(1).names()).containsExactly("redis-rdb-bgsave", "");
        assertThat(out.ports().get(6380).procs()).extracting(Proc::pid).containsExactly(900L);
        assertThat(out.ports().get(6380).procs().get(0).all("end")).containsExactly("1");
    }

    @Test
    void aPortNotAskedForOrGivenTwiceAndAGarbledPidBelongToNoPort() {
        DiscoveryOutput out = DiscoveryOutput.read(
                "port=6379\npid=1\npid.comm=first\n" + "port=7000\npid=2\n" + "port=6379\npid=3\n" + "port=+x\npid=4\n",
                List.of(6379));

        assertThat(out.ports()).containsOnlyKeys(6379);
        assertThat(out.ports().get(6379).procs()).extracting(Proc::pid).containsExactly(1L);

        Proc kept = DiscoveryOutput.read("port=6379\npid=abc\npid.comm=lost\npid=5\npid.comm=kept\n", List.of(6379))
                .ports()
                .get(6379)
                .procs()
                .get(0);
        assertThat(kept.pid()).isEqualTo(5);
        assertThat(kept.get("pid.comm")).isEqualTo("kept");
    }

    @Test
    void linesProcessesAndLengthsAreBounded() {
        String procs = "port=6379\n" + "pid=1\n".repeat(DiscoveryOutput.MAX_PROCS + 5);
        assertThat(DiscoveryOutput.read(procs, List.of(6379)).ports().get(6379).procs())
                .hasSize(DiscoveryOutput.MAX_PROCS);

        String tooLong = "port=6379\npid=1\nunit=" + "x".repeat(DiscoveryOutput.MAX_LINE) + "\npid.comm=redis\n";
        Proc p = DiscoveryOutput.read(tooLong, List.of(6379))
                .ports()
                .get(6379)
                .procs()
                .get(0);
        assertThat(p.get("unit")).isEmpty();
        assertThat(p.get("pid.comm")).isEqualTo("redis");

        String late = "x=1\n".repeat(DiscoveryOutput.MAX_LINES) + "port=6379\npid=1\n";
        assertThat(DiscoveryOutput.read(late, List.of(6379)).ports()).isEmpty();
    }

    @Test
    void pathsAndNumbersAreOnlyPlainOnes() {
        assertThat(DiscoveryOutput.path("/etc/redis/6379.conf")).contains("/etc/redis/6379.conf");
        assertThat(DiscoveryOutput.path("/etc/../root/x.conf")).isEmpty();
        assertThat(DiscoveryOutput.path("etc/redis.conf")).isEmpty();
        assertThat(DiscoveryOutput.path("/etc/redis $(reboot).conf")).isEmpty();
        assertThat(DiscoveryOutput.number("812")).hasValue(812);
        assertThat(DiscoveryOutput.number("-1")).isEmpty();
        assertThat(DiscoveryOutput.number("9".repeat(19))).isEmpty();
    }
}
