package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.ExecResult;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lab's hosts behave like real hosts: SSH with the lab's key, sudo, systemd, Redis, own THP files. */
class LabFleetIT {
    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(
            LabHostSpec.named("lab-1"),
            LabHostSpec.named("lab-2").withThp(LabThp.MADVISE),
            LabHostSpec.named("lab-3").withRhel6Thp().withPassword("s3cret"));

    @Test
    void sshLoginWithTheLabKeyAndPasswordlessSudo() {
        ExecResult result = OpenSsh.run(fleet.get(), "lab-1", "id -un; sudo -n true && echo sudo-ok; hostname");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).contains("fleetfix", "sudo-ok");
    }

    @Test
    void eachHostListensOnItsOwnAddress() {
        assertThat(fleet.hosts()).extracting(LabHost::address).doesNotHaveDuplicates();
        for (LabHost host : fleet.hosts()) {
            ExecResult sockets = fleet.rootExec(host.name(), "ss -Hltn");
            assertThat(sockets.stdout())
                    .contains(host.address() + ":" + host.sshPort(), host.address() + ":" + host.redisPort())
                    .doesNotContain("0.0.0.0:" + host.sshPort() + " ", "127.0.0.1:" + host.redisPort() + " ");
        }
    }

    @Test
    void redisServerRestartsThroughSystemd() {
        ExecResult restart = OpenSsh.run(
                fleet.get(), "lab-2", "sudo -n systemctl restart redis-server && systemctl is-active redis-server");
        assertThat(restart.exitCode()).as(restart.stderr()).isZero();
        assertThat(restart.stdout()).contains("active");

        String address = fleet.host("lab-2").address();

        int port = fleet.host("lab-2").redisPort();
        ExecResult ping = OpenSsh.run(fleet.get(), "lab-2", "redis-cli -h " + address + " -p " + port + " ping");
        assertThat(ping.stdout()).contains("PONG");
    }

    @Test
    void thpWrittenOnOneHostIsSeenByThatHostOnly() {
        assertThat(fleet.thp("lab-1")).isEqualTo("[always] madvise never\n");

        ExecResult write = OpenSsh.run(
                fleet.get(), "lab-1", "echo never | sudo -n tee /sys/kernel/mm/transparent_hugepage/enabled");
        assertThat(write.exitCode()).as(write.stderr()).isZero();

        assertThat(OpenSsh.run(fleet.get(), "lab-1", "cat /sys/kernel/mm/transparent_hugepage/enabled")
                        .stdout())
                .isEqualTo("never\n");
        assertThat(fleet.thp("lab-1")).isEqualTo("never\n");
        assertThat(OpenSsh.run(fleet.get(), "lab-2", "cat /sys/kernel/mm/transparent_hugepage/enabled")
                        .stdout())
                .isEqualTo("always [madvise] never\n");
    }

    @Test
    void rhel6HostHasOnlyTheRedhatThpDirectory() {
        ExecResult listing =
                fleet.rootExec("lab-3", "ls /sys/kernel/mm; cat /sys/kernel/mm/redhat_transparent_hugepage/enabled");

        assertThat(listing.stdout()).isEqualTo("redhat_transparent_hugepage\n[always] madvise never\n");
    }

    @Test
    void passwordIsRequiredAndWrittenForTheInventory() throws Exception {
        String address = fleet.host("lab-3").address();
        int port = fleet.host("lab-3").redisPort();
        assertThat(fleet.rootExec("lab-3", "redis-cli -h " + address + " -p " + port + " ping")
                        .stdout())
                .contains("NOAUTH");
        assertThat(fleet.rootExec(
                                "lab-3",
                                "redis-cli -h " + address + " -p " + port + " -a s3cret --no-auth-warning ping")
                        .stdout())
                .contains("PONG");
        assertThat(Files.readString(fleet.inventoryFile())).contains("redis_password_file:");
    }
}
