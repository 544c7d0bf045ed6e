package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.Secret;
import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.steps.model.StepStatus;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.Command;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis in a container, with an inventory that names no service (issue 39): restart_redis restarts it through what
 * manages it (a unit, a compose service, the runtime), with the same save and verification as any Redis; one whose
 * data dir is no volume is refused with nothing changed.
 */
class ContainerRestartOnFakeHostTest {
    private static final String RESTART = "- hosts: all\n  steps:\n    - restart_redis: {always: true}\n";
    private static final String ID = "2b609bb5b36f659ca377dd11d4b60683004a435406d819a4b30f912b40a0ca29";
    private static final String LOG = "echo \"docker $*\" >> \"$FAKE_ROOT/calls.log\"\n";

    @TempDir
    Path dir;

    /** What discovery.sh prints for a Docker container, with {@code more} of docker inspect's lines. */
    private static String container(String... more) {
        return "self.pidns=pid:[1]\npid1=systemd\ninfo.config=\nport=6379\nsockets=1\npid=4242\n"
                + "pid.comm=redis-server\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[2]\n"
                + "pid.cgroup=0::/docker/" + ID + "\nctr.runtime=docker\nctr.id=" + ID + "\n"
                + "ctr.name=\"/cache\"\nctr.restart=\"always\"\n" + String.join("\n", more)
                + "\nparent=4200 containerd-shim\nend=1\n";
    }

    private static FakeHost dockerHost(Harness h, String name, String discovery) {
        FakeHost host = h.host(name).withoutNamedService().discovers(discovery);
        host.command("docker", LOG + "exit 0\n");
        return host;
    }

    @Test
    void aContainerWithItsDataOnAVolumeIsSavedThenRestartedWithDockerRestart() throws Exception {
        Harness h = new Harness(dir, "ct");
        FakeHost host = dockerHost(h, "ct", container("ctr.mount=\"volume\" \"/data\" \"/var/lib/docker/volumes/d\""));
        host.redis().config("dir", "/data");

        h.run(RESTART);

        StepResult r = h.result("ct", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(host.calls()).filteredOn(c -> c.contains(" restart ")).containsExactly("docker restart -t 60 cache");
        assertThat(host.redis().restarts()).isEqualTo(1);
        assertThat(host.redis().commands()).as("saved first").anyMatch(c -> c.startsWith("BGSAVE"));
        assertThat(r.message())
                .contains("found redis on :6379 (pid 4242) run by docker container cache (2b609bb5b36f)");
        assertThat(r.facts())
                .containsEntry("redis.service.manager", "container")
                .containsEntry("redis.service.container", "cache")
                .containsEntry("redis.service.mounts", "volume:/data");
    }

    @Test
    void aComposeServiceIsRestartedInItsProjectsDirectoryWithItsFiles() throws Exception {
        Harness h = new Harness(dir, "co");
        FakeHost host = dockerHost(
                h,
                "co",
                container(
                        "ctr.label=\"com.docker.compose.project\"=\"shop\"",
                        "ctr.label=\"com.docker.compose.service\"=\"redis\"",
                        "ctr.label=\"com.docker.compose.project.working_dir\"=\"/var/lib/shop\"",
                        "ctr.label=\"com.docker.compose.project.config_files\"=\"/var/lib/shop/compose.yaml\"",
                        "ctr.mount=\"bind\" \"/data\" \"/var/lib/shop/data\""));
        host.write("/var/lib/shop/compose.yaml", "services: {}\n");
        host.redis().config("dir", "/data");

        h.run(RESTART);

        StepResult r = h.result("co", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        // the fake host roots /var/lib in its directory
        assertThat(host.calls())
                .filteredOn(c -> c.contains(" restart "))
                .singleElement()
                .asString()
                .matches("docker compose -f \\S*/var/lib/shop/compose.yaml -p shop restart -t 60 redis");
        assertThat(r.message()).contains("compose project shop service redis");
    }

    /** docker inspect's labels of compose service {@code redis} of project {@code shop}, made in /var/lib/shop. */
    private static String[] compose(String files, String... more) {
        List<String> lines = new java.util.ArrayList<>(List.of(
                "ctr.label=\"com.docker.compose.project\"=\"shop\"",
                "ctr.label=\"com.docker.compose.service\"=\"redis\"",
                "ctr.label=\"com.docker.compose.project.working_dir\"=\"/var/lib/shop\"",
                "ctr.label=\"com.docker.compose.project.config_files\"=\"" + files + "\""));
        lines.addAll(List.of(more));
        return lines.toArray(String[]::new);
    }

    /**
     * Debian's docker-compose (v1) labels a file as its command line gave it, relative to where it ran (here {@code
     * docker-compose -f shop/redis.yml up} in /var/lib): the file is found by its name in the project's directory.
     */
    @Test
    void aComposeFileV1LabelledRelativeIsFoundInTheProjectsDirectory() throws Exception {
        Harness h = new Harness(dir, "co");
        FakeHost host =
                dockerHost(h, "co", container(compose("shop/redis.yml", "ctr.mount=\"volume\" \"/data\" \"/v\"")));
        host.write("/var/lib/shop/redis.yml", "services: {}\n");
        host.redis().config("dir", "/data");

        h.run(RESTART);

        StepResult r = h.result("co", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(host.calls())
                .filteredOn(c -> c.contains(" restart "))
                .containsExactly("docker compose -f redis.yml -p shop restart -t 60 redis");
    }

    /** A project whose directory was removed since its containers were made: refused before any change, saying so. */
    @Test
    void aComposeProjectWhoseDirectoryIsGoneIsRefusedInCheckMode() throws Exception {
        Harness h = new Harness(dir, "co");
        FakeHost host = dockerHost(
                h, "co", container(compose("/var/lib/shop/compose.yaml", "ctr.mount=\"volume\" \"/data\" \"/v\"")));
        host.redis().config("dir", "/data");

        h.check(RESTART);

        StepResult r = h.result("co", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message())
                .startsWith("apply would fail: compose service redis of project shop (docker container cache) cannot"
                        + " be restarted on this host (compose project shop: its directory ")
                .contains("/var/lib/shop is gone)");
        assertThat(host.calls()).noneMatch(c -> c.contains(" restart "));

        host.write("/var/lib/shop/other.yaml", "services: {}\n");
        h.check(RESTART);
        assertThat(h.result("co", "restart_redis").message())
                .contains("compose project shop: no file /")
                .contains("/var/lib/shop/compose.yaml in /");
    }

    @Test
    void aComposeProjectWhoseDirectoryIsGoneFailsTheRestartBeforeAnythingIsSavedOrRecorded() throws Exception {
        Harness h = new Harness(dir, "co");
        FakeHost host = dockerHost(
                h, "co", container(compose("/var/lib/shop/compose.yaml", "ctr.mount=\"volume\" \"/data\" \"/v\"")));
        host.redis().config("dir", "/data");
        Map<String, String> files = host.snapshot();

        h.run(RESTART);

        StepResult r = h.result("co", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message())
                .contains("compose service redis of project shop (docker container cache) cannot be restarted on this"
                        + " host (compose project shop: its directory ")
                .contains("nothing restarted, Redis left as it was");
        assertThat(host.redis().restarts()).isZero();
        assertThat(host.redis().commands()).noneMatch(c -> c.startsWith("SET") || c.startsWith("BGSAVE"));
        assertThat(host.snapshot()).as("no restart record").isEqualTo(files);
    }

    @Test
    void aComposeServiceWithoutAVolumeIsRefusedWithNothingChanged() throws Exception {
        Harness h = new Harness(dir, "co");
        FakeHost host = dockerHost(h, "co", container(compose("/var/lib/shop/compose.yaml")));
        host.write("/var/lib/shop/compose.yaml", "services: {}\n");
        host.redis().config("dir", "/data");
        Map<String, String> files = host.snapshot();

        h.run(RESTART);

        StepResult r = h.result("co", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message())
                .contains("compose project shop service redis")
                .contains("data would be lost with the container: /data is not a volume (docker container cache"
                        + " mounts nothing)");
        assertThat(host.calls()).isEmpty();
        assertThat(host.redis().restarts()).isZero();
        assertThat(host.snapshot()).isEqualTo(files);
    }

    @Test
    void aContainerRunByASystemdUnitIsRestartedWithSystemctl() throws Exception {
        Harness h = new Harness(dir, "pq");
        String pod = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        FakeHost host = h.host("pq")
                .withoutNamedService()
                .discovers("self.pidns=pid:[1]\npid1=systemd\ninfo.config=\nport=6379\nsockets=1\npid=4242\n"
                        + "pid.comm=redis-server\npid.pidns=pid:[2]\n"
                        + "pid.cgroup=0::/system.slice/redis.service/libpod-payload-" + pod + "\n"
                        + "ctr.runtime=podman\nctr.id=" + pod + "\nctr.name=\"systemd-redis\"\n"
                        + "ctr.mount=\"volume\" \"/data\" \"/var/lib/containers/storage/volumes/r/_data\"\n"
                        + "parent=4200 conmon\nconmon.unit=redis.service\nend=1\n");
        host.redis().config("dir", "/data");

        h.run(RESTART);

        StepResult r = h.result("pq", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(host.calls())
                .filteredOn(c -> !c.startsWith("systemctl cat"))
                .containsExactly("systemctl restart redis.service");
        assertThat(r.message()).contains("podman container systemd-redis (0123456789ab), systemd unit redis.service");
    }

    @Test
    void aContainerWhoseDataDirIsNoVolumeIsRefusedWithNothingChanged() throws Exception {
        Harness h = new Harness(dir, "nv");
        FakeHost host = dockerHost(h, "nv", container("ctr.mount=\"bind\" \"/etc/redis\" \"/srv/redis-conf\""));
        host.redis().config("dir", "/data");
        host.redis().data().put("user:1", "kept");
        Map<String, String> files = host.snapshot();

        h.run(RESTART);

        StepResult r = h.result("nv", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message())
                .contains("data would be lost with the container: /data is not a volume")
                .contains("docker container cache mounts bind /etc/redis")
                .contains("nothing restarted");
        assertThat(host.calls()).isEmpty();
        assertThat(host.redis().restarts()).isZero();
        assertThat(host.redis().commands()).noneMatch(c -> c.startsWith("SET") || c.startsWith("BGSAVE"));
        assertThat(host.snapshot()).isEqualTo(files);
    }

    @Test
    void allowDataLossRestartsAContainerWithoutAVolume() throws Exception {
        Harness h = new Harness(dir, "nv");
        FakeHost host = dockerHost(h, "nv", container());
        host.redis().config("dir", "/data");

        h.run("- hosts: all\n  steps:\n    - restart_redis: {always: true, allow_data_loss: true}\n");

        assertThat(h.result("nv", "restart_redis").status()).isEqualTo(StepStatus.CHANGED);
        assertThat(host.calls()).contains("docker restart -t 60 cache");
    }

    /**
     * The container's state is read as every root command is: through the host's become path (with a become password,
     * {@code sudo -S} answered on its input), never a {@code sudo -n} of the script's own, which fails where sudo asks.
     */
    @Test
    void theContainersStateIsReadAsRootThroughTheBecomePathNotWithASudoOfItsOwn() throws Exception {
        Harness h = new Harness(dir, "ct");
        FakeHost host = dockerHost(h, "ct", container("ctr.mount=\"volume\" \"/data\" \"/v\""));
        host.command("docker", LOG + "case \"$1\" in inspect) echo exited;; esac\n");
        host.redis().config("dir", "/data");
        host.stopRedis();

        h.run(RESTART);

        StepResult r = h.result("ct", "restart_redis");
        assertThat(r.status()).as(r.message()).isEqualTo(StepStatus.CHANGED);
        assertThat(r.message())
                .as("the state was read")
                .contains("docker container cache")
                .contains("inactive");
        Command state = host.commands().stream()
                .filter(c -> c.script().contains("{{.State.Status}}"))
                .findFirst()
                .orElseThrow();
        assertThat(state.become()).as("run as root").isTrue();
        assertThat(state.script()).doesNotContain("sudo");
        assertThat(host.calls()).contains("docker inspect --type container --format {{.State.Status}} cache");
        Host withPassword = host.host().toBuilder()
                .becomePassword(Optional.of(Secret.of("pw-7f3a")))
                .build();
        List<String> sent = Become.of(withPassword).argv(state.timeout(), state.script());
        assertThat(sent.subList(0, 3)).containsExactly("sudo", "-S", "-p");
        assertThat(String.join(" ", sent)).doesNotContain("pw-7f3a").doesNotContain("sudo -n");
    }

    @Test
    void checkModeAsksTheRuntimeWhetherTheContainerIsThereAndChangesNothing() throws Exception {
        Harness h = new Harness(dir, "ct");
        FakeHost host = dockerHost(h, "ct", container("ctr.mount=\"volume\" \"/data\" \"/v\""));
        host.command("docker", LOG + "echo 'Error: No such container: cache' >&2; exit 1\n");
        host.redis().config("dir", "/data");

        h.check(RESTART);

        StepResult r = h.result("ct", "restart_redis");
        assertThat(r.status()).isEqualTo(StepStatus.FAILED);
        assertThat(r.message())
                .startsWith("apply would fail: docker container cache cannot be restarted on this host")
                .contains("No such container: cache");
        assertThat(host.redis().restarts()).isZero();
    }
}
