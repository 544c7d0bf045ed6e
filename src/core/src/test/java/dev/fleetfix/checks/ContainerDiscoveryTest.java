package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.RunningService.Manager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Redis in a container, told from its cgroup and described by its runtime's inspect (issue 39). */
class ContainerDiscoveryTest {
    private static final String ID = "2b609bb5b36f659ca377dd11d4b60683004a435406d819a4b30f912b40a0ca29";
    private static final String LAB = "a2f283939ea5b9c5f3b002f1edffa4aec83caa45fc4e5fffe11a3c442987fd5c";
    private static final String POD = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    private static RunningService one(String output, int port) {
        return ServiceDiscovery.decide(output, "", List.of(port), Optional.empty())
                .get(0);
    }

    private static String recorded(String name) {
        try (InputStream in = ContainerDiscoveryTest.class.getResourceAsStream("discovery/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aDockerContainerSeenFromTheHostIsNamedWithItsComposeLabelsRestartPolicyAndVolume() {
        // discovery.sh's own output on a Docker 20.10 host (cgroup v1), for a container started with a volume on /data
        RunningService s = one(recorded("docker-volume.txt"), 6399);

        assertThat(s.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(s.restartable()).isTrue();
        assertThat(s.name()).contains("fxprobe-redis");
        Container c = s.container().orElseThrow();
        assertThat(c.runtime()).isEqualTo("docker");
        assertThat(c.id()).isEqualTo(ID);
        assertThat(c.restartPolicy()).contains("unless-stopped");
        assertThat(c.compose()).contains(new Container.Compose("demo", "cache", Optional.of("/srv/demo"), List.of()));
        assertThat(c.unit()).isEmpty();
        assertThat(c.mountOf("/data")).map(Container.Mount::type).contains("volume");
        assertThat(c.mountOf("/var/lib/redis")).isEmpty();
        assertThat(s.bootUnit()).as("docker brings it back at boot").contains("docker.service");
        assertThat(s.describe())
                .isEqualTo("redis on :6399 (pid 4100) run by docker container fxprobe-redis (2b609bb5b36f), compose"
                        + " project demo service cache, restart policy unless-stopped");
        assertThat(s.facts())
                .containsEntry("redis.service.manager", "container")
                .containsEntry("redis.service.runtime", "docker")
                .containsEntry("redis.service.container", "fxprobe-redis")
                .containsEntry("redis.service.container_id", ID)
                .containsEntry("redis.service.compose_project", "demo")
                .containsEntry("redis.service.compose_service", "cache")
                .containsEntry("redis.service.compose_dir", "/srv/demo")
                .containsEntry("redis.service.mounts", "volume:/data")
                .doesNotContainKey("redis.service.why");
    }

    @Test
    void aContainerSharingTheHostsPidNamespaceIsToldByItsCgroupAgainstTheShellsOwn() {
        // the lab's shape: a lab host (itself a container) whose Redis runs in a sibling container with --pid
        // container:HOST; same PID namespace, no shim above it, another container id than the shell's
        String out = "self.container=" + LAB + "\nself.pidns=pid:[4026532186]\npid1=systemd\ninfo.config=\n"
                + "port=6379\nlisten=127.0.0.11:6379 812\nsockets=1\npid=812\npid.comm=redis-server\n"
                + "pid.exe=/usr/bin/redis-check-rdb\npid.pidns=pid:[4026532186]\n"
                + "pid.arg=redis-server 127.0.0.11:6379\n"
                + "pid.cgroup=9:name=systemd:/docker/" + ID + "\npid.cgroup=0::/docker/" + ID + "\n"
                + "ctr.runtime=docker\nctr.id=" + ID + "\nctr.name=\"/lab-1-redis\"\nctr.restart=\"no\"\n"
                + "ctr.mount=\"bind\" \"/var/lib/redis\" \"/srv/lab-1/redis\"\nend=1\n";

        RunningService s = one(out, 6379);

        assertThat(s.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(s.restartable()).isTrue();
        assertThat(s.name()).contains("lab-1-redis");
        assertThat(s.why()).contains("cgroup");
        assertThat(s.container().orElseThrow().mountOf("/var/lib/redis/"))
                .map(Container.Mount::source)
                .contains("/srv/lab-1/redis");
        assertThat(s.bootUnit())
                .as("restart policy no: nothing starts it at boot")
                .isEmpty();
    }

    @Test
    void theAuditSaysWhetherTheContainersConfigFileIsTheHostsAndWhere() {
        String base = recorded("docker-volume.txt")
                .replace(
                        "pid.arg=redis-server 127.0.0.99:6399",
                        "pid.arg=redis-server" + "\npid.arg=/usr/local/etc/redis/redis.conf");
        RunningService mounted = one(
                base.replace(
                        "ctr.mount=\"volume\"",
                        "ctr.mount=\"bind\" \"/usr/local/etc/redis\" \"/srv/demo/conf\"\nctr.mount=\"volume\""),
                6399);
        RunningService inside = one(base, 6399);

        assertThat(mounted.describe())
                .endsWith("config /usr/local/etc/redis/redis.conf (on the host: /srv/demo/conf/redis.conf)");
        assertThat(mounted.facts()).containsEntry("redis.service.config_on_host", "/srv/demo/conf/redis.conf");
        assertThat(inside.describe())
                .endsWith("config /usr/local/etc/redis/redis.conf (inside the container, not mounted from the host:"
                        + " changes to it are not persisted)");
        assertThat(inside.facts()).containsEntry("redis.service.config_on_host", "");
    }

    @Test
    void aQuadletOrPodmanGenerateSystemdContainerIsRestartedThroughItsUnit() {
        // Quadlet (cgroups=split): the container's payload cgroup sits under the unit's; podman inspect names no slash
        String quadlet = "self.pidns=pid:[4026531836]\npid1=systemd\ninfo.config=\nport=6379\nsockets=1\n"
                + "pid=10\npid.comm=redis-server\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[4026532500]\n"
                + "pid.cgroup=0::/system.slice/redis.service/libpod-payload-" + POD + "\n"
                + "ctr.runtime=podman\nctr.id=" + POD + "\nctr.name=\"systemd-redis\"\nctr.restart=\"\"\n"
                + "ctr.label=\"PODMAN_SYSTEMD_UNIT\"=\"redis.service\"\n"
                + "ctr.mount=\"volume\" \"/data\" \"/var/lib/containers/storage/volumes/redis/_data\"\n"
                + "parent=9 conmon\nconmon.unit=redis.service\nparent=1 systemd\nend=1\n";
        // podman generate systemd without --new: the container in machine.slice, conmon (the unit's MainPID) in it
        String generated = quadlet.replace(
                        "0::/system.slice/redis.service/libpod-payload-" + POD,
                        "0::/machine.slice/libpod-" + POD + ".scope")
                .replace("ctr.label=\"PODMAN_SYSTEMD_UNIT\"=\"redis.service\"\n", "")
                .replace("conmon.unit=redis.service", "conmon.unit=container-redis.service");

        RunningService q = one(quadlet, 6379);
        RunningService g = one(generated, 6379);

        assertThat(q.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(q.container().flatMap(Container::unit)).contains("redis.service");
        assertThat(q.container().map(Container::runtime)).contains("podman");
        assertThat(q.container().flatMap(Container::restartPolicy)).contains("no");
        assertThat(q.bootUnit()).contains("redis.service");
        assertThat(q.describe()).contains("podman container systemd-redis (0123456789ab), systemd unit redis.service");
        assertThat(g.container().flatMap(Container::unit)).contains("container-redis.service");
        assertThat(g.facts()).containsEntry("redis.service.container_unit", "container-redis.service");
    }

    @Test
    void whatTheRuntimeSaysIsNeverTakenForANameUnlessItIsOne() {
        String base = recorded("docker-volume.txt");
        // a label whose value held a newline is printed escaped by %q, and dropped
        RunningService escaped = one(
                base.replace(
                        "ctr.label=\"com.docker.compose.service\"=\"cache\"",
                        "ctr.label=\"com.docker.compose.service\"=\"cache\\nctr.mount=x\""),
                6399);
        RunningService badName = one(base.replace("ctr.name=\"/fxprobe-redis\"", "ctr.name=\"/x;reboot\""), 6399);
        RunningService badDir = one(base.replace("\"/srv/demo\"", "\"/srv/$(id)\""), 6399);

        assertThat(escaped.container().orElseThrow().compose()).isEmpty();
        assertThat(badName.restartable()).isFalse();
        assertThat(badName.why()).contains("docker inspect gave no usable name");
        assertThat(badDir.container().flatMap(Container::compose).flatMap(Container.Compose::workingDir))
                .isEmpty();
    }

    @Test
    void aHostWithoutTheRuntimesCommandIsAContainerThatCannotBeRestarted() {
        String base = recorded("docker-volume.txt");
        String noCli = base.substring(0, base.indexOf("ctr.name="))
                + "ctr.error=no docker command on this host\n"
                + base.substring(base.indexOf("parent="));

        RunningService s = one(noCli, 6399);

        assertThat(s.manager()).isEqualTo(Manager.CONTAINER);
        assertThat(s.restartable()).isFalse();
        assertThat(s.why()).contains("no docker command on this host");
        assertThat(s.name()).contains("docker 2b609bb5b36f");
    }
}
