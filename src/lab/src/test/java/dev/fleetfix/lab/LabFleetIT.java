package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.transport.ExecResult;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
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

    @Test
    void theTestsRedisCliFromThisMachinePrintsWhatTheHostsRedisCliPrints() {
        // LabCli sends plain commands from the test JVM; every check that uses it trusts these to be the same
        for (String host : List.of("lab-1", "lab-3")) {
            Optional<String> password = host.equals("lab-3") ? Optional.of("s3cret") : Optional.empty();
            int port = fleet.host(host).redisPort();
            String address = fleet.host(host).address();
            // read-only commands: each runs twice, on the host and from here
            LabCli.direct(address, port, password, List.of("SET", "lab:cli:key", "v1"));
            LabCli.direct(address, port, password, List.of("HSET", "lab:cli:hash", "f", "1", "g", "2"));
            for (String args : List.of(
                    "PING",
                    "ROLE",
                    "DBSIZE",
                    "GET lab:cli:key",
                    "GET lab:cli:missing",
                    "CONFIG GET maxmemory-policy",
                    "INFO keyspace",
                    "HGETALL lab:cli:hash",
                    "TYPE lab:cli:hash",
                    "NOSUCHCOMMAND x",
                    "INCR lab:cli:missing:counter:not:a:number x")) {
                ExecResult onHost = fleet.rootExec(host, LabRedisCli.command(address, port, password, args));
                ExecResult fromHere = LabCli.run(fleet.get(), host, port, password, args);
                assertThat(fromHere.stdout()).as(host + ": " + args).isEqualTo(onHost.stdout());
                assertThat(fromHere.exitCode()).as(host + ": " + args).isEqualTo(onHost.exitCode());
            }
            // lab-3 without its password: Redis's NOAUTH, on stdout, as the host's redis-cli shows it
            ExecResult noAuth = LabCli.run(fleet.get(), host, port, Optional.empty(), "PING");
            ExecResult noAuthOnHost =
                    fleet.rootExec(host, LabRedisCli.command(address, port, Optional.empty(), "PING"));
            assertThat(noAuth.stdout()).as(host).isEqualTo(noAuthOnHost.stdout());
        }
        // a password for a Redis that has none: redis-cli warns that AUTH failed and runs the command all the same
        // (a word no other output holds: a password becomes a Secret, which this JVM masks wherever it is printed)
        ExecResult extra = LabCli.run(
                fleet.get(), "lab-1", fleet.host("lab-1").redisPort(), Optional.of("lab-cli-unused-7f3a"), "DBSIZE");
        ExecResult extraOnHost = fleet.rootExec(
                "lab-1",
                LabRedisCli.command(
                        fleet.host("lab-1").address(),
                        fleet.host("lab-1").redisPort(),
                        Optional.of("lab-cli-unused-7f3a"),
                        "DBSIZE"));
        assertThat(extra.stdout()).isEqualTo(extraOnHost.stdout()).matches("\\d+\n");
        // nothing listens: redis-cli's exit 1 and empty stdout
        ExecResult closed = LabCli.run(fleet.get(), "lab-1", 1, Optional.empty(), "PING");
        ExecResult closedOnHost = fleet.rootExec(
                "lab-1", LabRedisCli.command(fleet.host("lab-1").address(), 1, Optional.empty(), "PING"));
        assertThat(closed.exitCode()).isEqualTo(closedOnHost.exitCode()).isEqualTo(1);
        assertThat(closed.stdout()).isEqualTo(closedOnHost.stdout()).isEmpty();
    }
}
