package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeRedis;
import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HostAuditorTest {
    private final HostAuditor auditor = new HostAuditor();
    private final Host lab1 = TestHosts.lab("lab-1", "127.0.0.11");

    /** A shell answering every command from a function; the audit writes nothing. */
    private static RecordingShell shell(String host, Function<Command, ExecResult> answer) {
        return RecordingShell.answering(host, answer).refusePuts("the audit writes nothing");
    }

    private static RecordingShell printing(String host, String stdout) {
        return shell(host, command -> RecordingShell.ok(stdout));
    }

    /** A host answering the fact script with {@code facts} and the service discovery with a systemd unit. */
    private static RecordingShell withService(String host, String facts) {
        String discovered = "self.pidns=pid:[4026531836]\npid1=systemd\ninfo.config=\nport=6379\nsockets=1\npid=4242"
                + "\npid.comm=redis-server\npid.exe=/usr/bin/redis-server\npid.pidns=pid:[4026531836]"
                + "\npid.cgroup=0::/system.slice/redis_6379.service\nparent=1 systemd\nunit=redis_6379.service"
                + "\nunit.Id=redis_6379.service\nunit.MainPID=4242\n";
        return shell(
                host,
                command -> RecordingShell.ok(
                        command.script().startsWith(HostAuditor.FIRST_LINE)
                                ? facts + HostAuditor.SERVICES_MARKER + "\n" + discovered
                                : facts));
    }

    @Test
    void gathersTheFactsAndTheServiceInOneCommandAsRootAndOneRedisConnection() {
        RecordingShell shell = withService("lab-1", FactOutput.debian12().text());
        FakeRedis redis = FakeRedis.redis7();

        HostAudit audit = auditor.audit(lab1, shell, redis);

        assertThat(shell.commands()).hasSize(1);
        assertThat(shell.commands().get(0).script())
                .startsWith(HostAuditor.FIRST_LINE)
                .contains(ServiceDiscovery.FIRST_LINE);
        assertThat(shell.commands().get(0).become()).isTrue();
        assertThat(audit.findings())
                .filteredOn(f -> f.code().equals("redis-service"))
                .extracting(Finding::text)
                .containsExactly("redis on :6379 (pid 4242) run by systemd unit redis_6379.service");
        assertThat(redis.connections()).isEqualTo(1);
        assertThat(redis.closes()).isEqualTo(1);
        assertThat(shell.closed()).as("the shell belongs to the pool").isFalse();
        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        HostFacts facts = audit.facts().orElseThrow();
        assertThat(facts.redis().version()).contains("7.0.15");
        assertThat(facts.redis().role()).contains("master");
        assertThat(facts.redis().disableThp()).contains(true);
        assertThat(facts.redis().tcpBacklog()).isEqualTo(OptionalInt.of(511));
        assertThat(facts.redis().processId()).isEqualTo(OptionalLong.of(4242));
    }

    @Test
    void valkeyIsReportedWithItsOwnVersionAndJudgedByTheRedisItForked() {
        FakeRedis valkey = FakeRedis.fromInfo(dev.fleetfix.redis.RedisServerTest.info("valkey-8.1.1"))
                .config("disable-thp", "no");
        RecordingShell shell = printing(
                "lab-1",
                FactOutput.debian12()
                        .set("thp.enabled", "[always] madvise never")
                        .text());

        HostAudit audit = auditor.audit(lab1, shell, valkey);

        RedisFacts redis = audit.facts().orElseThrow().redis();
        assertThat(redis.version()).contains("8.1.1");
        assertThat(redis.shortName()).isEqualTo("Valkey 8.1");
        assertThat(audit.findings()).anySatisfy(f -> assertThat(f.text())
                .isEqualTo("THP is [always] and Valkey 8.1 runs with disable-thp no: memory bloat and fragmentation;"
                        + " fork latency is little affected on kernel 6.1.0-18-amd64 (5.8+ copies 4 KiB, not 2 MiB,"
                        + " on write after fork); set never (or disable-thp yes)"));
    }

    @Test
    void redis28CannotOptOutOfThp() {
        FakeRedis old = FakeRedis.fromInfo(dev.fleetfix.redis.RedisServerTest.info("redis-2.8.19"));
        RecordingShell shell = printing(
                "lab-1",
                FactOutput.debian12()
                        .set("thp.enabled", "[always] madvise never")
                        .text());

        HostAudit audit = auditor.audit(lab1, shell, old);

        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .anySatisfy(f -> assertThat(f.text()).startsWith("THP is [always] and Redis 2.8 cannot opt out"));
    }

    @Test
    void passesRedisPidToTheScriptAndRunsAsRootWithBecome() {
        RecordingShell shell = printing("lab-1", FactOutput.debian12().text());

        auditor.audit(lab1, shell, FakeRedis.redis7());

        assertThat(shell.commands().get(0).script()).contains("\n(\nredis_pid=4242\n");
        assertThat(shell.commands().get(0).become()).isTrue();
        assertThat(shell.commands().get(0).timeout()).isGreaterThan(HostAuditor.DEFAULT_EXEC_TIMEOUT);
    }

    @Test
    void withoutBecomeTheScriptRunsAsTheLoginUser() {
        RecordingShell shell = printing("lab-1", FactOutput.debian12().text());

        auditor.audit(TestHosts.lab("lab-1", "127.0.0.11", false), shell, FakeRedis.redis7());

        assertThat(shell.commands()).hasSize(1);
        assertThat(shell.commands().get(0).script()).startsWith("redis_pid=4242\n");
        assertThat(shell.commands().get(0).become()).isFalse();
        assertThat(shell.commands().get(0).timeout()).isEqualTo(HostAuditor.DEFAULT_EXEC_TIMEOUT);
    }

    @Test
    void whenSudoRefusesItRunsAgainWithoutRoot() {
        String userOutput = FactOutput.debian12()
                .set("uid", "1000")
                .set("smaps", "error awk: cannot open /proc/4242/smaps_rollup (Permission denied)")
                .text();
        RecordingShell shell = shell(
                "lab-1",
                command -> command.become()
                        ? new ExecResult(1, "", "sudo: a password is required", Duration.ofMillis(2))
                        : RecordingShell.ok(userOutput));

        HostAudit audit = auditor.audit(lab1, shell, FakeRedis.redis7());

        assertThat(shell.commands()).extracting(c -> c.become()).containsExactly(true, false);
        assertThat(audit.verdict()).isEqualTo(HostVerdict.OK);
        assertThat(audit.findings()).extracting(Finding::code).containsExactly("huge-pages-unknown");
    }

    @Test
    void anUnreachableHostIsUnreachableWithTheTransportsMessage() {
        RecordingShell shell = shell("lab-1", command -> {
            throw new TransportException(
                    "lab-1", TransportException.Kind.UNREACHABLE, "127.0.0.11:22: connection refused", null);
        });

        HostAudit audit = auditor.audit(lab1, shell, FakeRedis.redis7());

        assertThat(audit.verdict()).isEqualTo(HostVerdict.UNREACHABLE);
        assertThat(audit.facts()).isEmpty();
        assertThat(audit.findings())
                .extracting(Finding::text)
                .containsExactly("host lab-1: 127.0.0.11:22: connection refused");
    }

    @Test
    void aRedisThatIsDownIsAFindingAndTheScriptFallsBackToPidof() {
        RecordingShell shell = printing(
                "lab-1",
                FactOutput.debian12()
                        .set("redis.pid", "pidof ")
                        .without("smaps")
                        .text());

        HostAudit audit = auditor.audit(lab1, shell, FakeRedis.refusing("connection refused"));

        assertThat(shell.commands().get(0).script()).contains("\n(\nredis_pid=''\n");
        assertThat(audit.verdict()).isEqualTo(HostVerdict.AT_RISK);
        assertThat(audit.findings())
                .filteredOn(f -> !f.code().equals("redis-service"))
                .extracting(Finding::text)
                .containsExactly("Redis is not answering on 127.0.0.11:6379: connection refused");
    }

    @Test
    void aRefusedConfigCommandLeavesThoseFactsUnknown() {
        FakeRedis redis = FakeRedis.redis7().configRenamedAway();

        HostAudit audit =
                auditor.audit(lab1, printing("lab-1", FactOutput.debian12().text()), redis);

        HostFacts facts = audit.facts().orElseThrow();
        assertThat(facts.redis().reachable()).isTrue();
        assertThat(facts.redis().disableThp()).isEmpty();
        assertThat(facts.redis().tcpBacklog()).isEmpty();
        assertThat(facts.redis().refused()).contains("config|get (unknown command: renamed away?)");
        assertThat(audit.findings())
                .extracting(Finding::text)
                .anyMatch(t -> t.startsWith("Redis refuses commands fleetfix needs: config|get (unknown command"));
    }

    @Test
    void anAclUserIsToldWhichCommandsItMayNotRun() {
        FakeRedis redis = FakeRedis.redis7().withoutConfigRights();

        HostAudit audit =
                auditor.audit(lab1, printing("lab-1", FactOutput.debian12().text()), redis);

        RedisFacts facts = audit.facts().orElseThrow().redis();
        assertThat(facts.reachable()).isTrue();
        assertThat(facts.version()).contains("7.0.15");
        assertThat(facts.refused())
                .containsExactly("config|get (NOPERM)", "config|rewrite (NOPERM)", "config|set (NOPERM)");
        assertThat(redis.aclDryrunUsers()).containsOnly("default");
    }

    @Test
    void aRedisThatRefusesOurCredentialsIsAuthFailedNotDown() {
        HostAudit audit = auditor.audit(
                lab1,
                printing("lab-1", FactOutput.debian12().text()),
                FakeRedis.refusingCredentials("authentication failed: WRONGPASS invalid username-password pair"));

        RedisFacts facts = audit.facts().orElseThrow().redis();
        assertThat(facts.authFailed()).isTrue();
        assertThat(facts.error())
                .contains("authentication failed: WRONGPASS invalid username-password pair (user default)");
        assertThat(audit.findings())
                .extracting(Finding::code)
                .contains("redis-auth")
                .doesNotContain("redis-down");
    }

    @Test
    void aRedisAtItsMaxClientsIsNamedAsRunningAndFullNotAsNotAnswering() {
        RedisConnector full = (host, timeout) -> {
            throw new RedisException(
                    host.name(),
                    RedisException.Kind.MAX_CLIENTS,
                    Optional.empty(),
                    "127.0.0.11:6379: Redis refused the connection, its maxclients is reached: ERR max number of"
                            + " clients reached",
                    null);
        };

        HostAudit audit =
                auditor.audit(lab1, printing("lab-1", FactOutput.debian12().text()), full);

        assertThat(audit.facts().orElseThrow().redis().serverFull()).isTrue();
        Finding finding = audit.findings().stream()
                .filter(f -> f.code().equals("redis-full"))
                .findFirst()
                .orElseThrow();
        assertThat(finding.text())
                .contains("runs but refused fleetfix's connection")
                .contains("maxclients is reached")
                .doesNotContain("not answering")
                .doesNotContain("redis_host");
        assertThat(audit.findings()).extracting(Finding::code).doesNotContain("redis-down");
    }

    @Test
    void aFailingScriptMakesTheHostUnreachableWithItsError() {
        RecordingShell shell = shell("lab-1", command -> new ExecResult(127, "", "sh: not found", Duration.ZERO));

        HostAudit audit = auditor.audit(TestHosts.lab("lab-1", "127.0.0.11", false), shell, FakeRedis.redis7());

        assertThat(audit.verdict()).isEqualTo(HostVerdict.UNREACHABLE);
        assertThat(audit.findings().get(0).text())
                .isEqualTo("host lab-1: the fact script failed (exit 127): sh: not found");
    }

    @Test
    void theFleetAuditorKeepsInventoryOrderAndTurnsShellFailuresIntoUnreachable() {
        List<Host> hosts = List.of(
                TestHosts.lab("lab-1", "127.0.0.11"),
                TestHosts.lab("lab-2", "127.0.0.12"),
                TestHosts.lab("lab-3", "127.0.0.13"));
        FleetAuditor fleet = new FleetAuditor(
                auditor,
                host -> {
                    if (host.name().equals("lab-2")) {
                        throw new TransportException(
                                "lab-2",
                                TransportException.Kind.TIMEOUT,
                                "127.0.0.12:22: connect timed out after 5s",
                                null);
                    }
                    return printing(host.name(), FactOutput.debian12().text());
                },
                FakeRedis.redis7(),
                2);

        List<HostAudit> audits = fleet.audit(hosts);

        assertThat(audits).extracting(HostAudit::host).containsExactly("lab-1", "lab-2", "lab-3");
        assertThat(audits)
                .extracting(HostAudit::verdict)
                .containsExactly(HostVerdict.OK, HostVerdict.UNREACHABLE, HostVerdict.OK);
        assertThat(audits.get(1).findings().get(0).text())
                .isEqualTo("host lab-2: 127.0.0.12:22: connect timed out after 5s");
    }

    /**
     * A host that does not answer holds the audit for its connect timeout: every beat of the heartbeat (here one
     * the test gives by hand) tells how many hosts are done and which it waits for.
     */
    @Test
    void theFleetAuditorTellsEachBeatWhichHostsItStillWaitsFor() throws Exception {
        List<Host> hosts = List.of(TestHosts.lab("lab-1", "127.0.0.11"), TestHosts.lab("lab-2", "127.0.0.12"));
        java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.Semaphore beats = new java.util.concurrent.Semaphore(0);
        java.util.concurrent.BlockingQueue<dev.fleetfix.Progress> told =
                new java.util.concurrent.LinkedBlockingQueue<>();
        FleetAuditor fleet = new FleetAuditor(
                auditor,
                host -> {
                    if (host.name().equals("lab-2")) {
                        try {
                            answer.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        throw new TransportException(
                                "lab-2", TransportException.Kind.TIMEOUT, "connect timed out after 10s", null);
                    }
                    return printing(host.name(), FactOutput.debian12().text());
                },
                FakeRedis.redis7(),
                1);
        java.util.concurrent.CompletableFuture<List<HostAudit>> audits =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> fleet.audit(hosts, told::add, d -> beats.acquire()));

        dev.fleetfix.Progress first;
        do {
            beats.release();
            // at most a wait for a slow machine: a beat given is told at once
            first = told.poll(60, java.util.concurrent.TimeUnit.SECONDS);
        } while (first != null && !first.sofar().startsWith("1 of"));
        answer.countDown();

        assertThat(first).isEqualTo(new dev.fleetfix.Progress("audit", "1 of 2 hosts done; waiting for lab-2"));
        assertThat(audits.get(60, java.util.concurrent.TimeUnit.SECONDS))
                .extracting(HostAudit::verdict)
                .containsExactly(HostVerdict.OK, HostVerdict.UNREACHABLE);
    }

    @Test
    void theFleetAuditorClosesEachHostsShellWhenItsAuditIsDoneSoAtMostForksAreOpen() {
        List<Host> hosts = IntStream.rangeClosed(1, 12)
                .mapToObj(i -> TestHosts.lab("lab-" + i, "127.0.0." + (10 + i)))
                .toList();
        List<RecordingShell> opened = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger mostOpen = new AtomicInteger();
        FleetAuditor fleet = new FleetAuditor(
                auditor,
                host -> {
                    RecordingShell shell = shell(host.name(), command -> {
                        // while this host's audit runs: how many shells are open right now
                        long open;
                        synchronized (opened) {
                            open = opened.stream().filter(s -> !s.closed()).count();
                        }
                        mostOpen.accumulateAndGet((int) open, Math::max);
                        return RecordingShell.ok(FactOutput.debian12().text());
                    });
                    opened.add(shell);
                    return shell;
                },
                FakeRedis.redis7(),
                3);

        List<HostAudit> audits = fleet.audit(hosts);

        assertThat(audits).extracting(HostAudit::verdict).containsOnly(HostVerdict.OK);
        assertThat(opened).as("one login per host").hasSize(12);
        assertThat(opened).extracting(RecordingShell::hostName).doesNotHaveDuplicates();
        assertThat(opened).allSatisfy(shell -> {
            assertThat(shell.closed()).as(shell.hostName() + " closed").isTrue();
            assertThat(shell.commands())
                    .as(shell.hostName() + ": the facts and the service in one round trip")
                    .hasSize(1);
        });
        assertThat(mostOpen.get()).as("shells open at once").isBetween(1, 3);
    }

    @Test
    void aShellThatFailsToCloseKeepsItsHostsVerdict() {
        List<Host> hosts = List.of(TestHosts.lab("lab-1", "127.0.0.11"), TestHosts.lab("lab-2", "127.0.0.12"));
        FleetAuditor fleet = new FleetAuditor(
                auditor,
                host -> printing(host.name(), FactOutput.debian12().text())
                        .failOnClose(new TransportException(
                                host.name(), TransportException.Kind.BROKEN, "connection reset on disconnect", null)),
                FakeRedis.redis7(),
                1);

        List<HostAudit> audits = fleet.audit(hosts);

        assertThat(audits).extracting(HostAudit::verdict).containsExactly(HostVerdict.OK, HostVerdict.OK);
    }

    /** Issue 31, item 4: a crash on one host (Jedis out of stack on a hostile reply) ended the whole audit. */
    @Test
    void aHostWhoseAuditCrashesIsUnreachableWithTheCrashAndTheOthersAreAudited() {
        List<Host> hosts = List.of(TestHosts.lab("lab-1", "127.0.0.11"), TestHosts.lab("lab-2", "127.0.0.12"));
        RedisConnector redis = (host, timeout) -> {
            if (host.name().equals("lab-1")) {
                throw new StackOverflowError();
            }
            return FakeRedis.redis7().connect(host, timeout);
        };
        FleetAuditor fleet = new FleetAuditor(
                auditor, host -> printing(host.name(), FactOutput.debian12().text()), redis, 1);

        List<HostAudit> audits = fleet.audit(hosts);

        assertThat(audits).extracting(HostAudit::verdict).containsExactly(HostVerdict.UNREACHABLE, HostVerdict.OK);
        assertThat(audits.get(0).findings().get(0).text()).isEqualTo("internal error: StackOverflowError");
    }

    /** Issue 40 item 2: the host's script needs only INFO server, so it does not wait for Redis's ACL checks. */
    @Test
    void theHostsScriptRunsWhileRedisIsAskedTheRestAndTheAuditHasBoth() throws Exception {
        CountDownLatch scriptStarted = new CountDownLatch(1);
        AtomicBoolean checkedDuringScript = new AtomicBoolean();
        AtomicBoolean gaveUp = new AtomicBoolean();
        FakeRedis redis = FakeRedis.redis7().on("ACL", args -> {
            // each ACL check waits (boundedly) for the script: were they still serial, the script could not have begun
            if (!gaveUp.get() && !checkedDuringScript.get()) {
                try {
                    checkedDuringScript.set(scriptStarted.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                gaveUp.set(!checkedDuringScript.get());
            }
            String label = (args.get(2) + (args.size() > 3 && args.get(2).equals("CONFIG") ? "|" + args.get(3) : ""))
                    .toLowerCase(Locale.ROOT);
            return label.equals("config|rewrite")
                    ? "User fleetfix has no permissions to run the '" + label + "' command"
                    : "OK";
        });
        RecordingShell host = withService("lab-1", FactOutput.debian12().text());
        RecordingShell shell = shell("lab-1", command -> {
            scriptStarted.countDown();
            return host.exec(command);
        });

        HostAudit audit = auditor.audit(lab1, shell, redis);

        assertThat(checkedDuringScript)
                .as("Redis was asked its ACL checks while the script ran")
                .isTrue();
        assertThat(shell.commands()).hasSize(1);
        assertThat(shell.commands().get(0).script()).contains("4242"); // INFO server's process_id reached the script
        assertThat(audit.findings())
                .extracting(Finding::text)
                .contains("redis on :6379 (pid 4242) run by systemd unit redis_6379.service");
        assertThat(audit.facts().orElseThrow().redis().refused())
                .as("and the audit has what Redis said after the script began")
                .containsExactly("config|rewrite (NOPERM)");
        assertThat(redis.connections()).isEqualTo(1);
    }

    /** Redis lost after INFO server, while the script runs: the script ran once, with the process INFO named. */
    @Test
    void aRedisLostWhileTheScriptRunsIsReportedAndTheScriptRanOnceWithWhatInfoSaid() {
        AtomicInteger infos = new AtomicInteger();
        FakeRedis redis = FakeRedis.redis7().beforeInfo(() -> {
            if (infos.incrementAndGet() > 1) { // INFO server answered; the connection drops at INFO replication
                throw new RedisException("lab-1", "connection reset", null);
            }
        });
        RecordingShell shell = withService("lab-1", FactOutput.debian12().text());

        HostAudit audit = auditor.audit(lab1, shell, redis);

        assertThat(shell.commands()).hasSize(1);
        assertThat(shell.commands().get(0).script()).contains("4242");
        assertThat(audit.facts().orElseThrow().redis().error())
                .as("what Redis could not say is said")
                .hasValueSatisfying(e -> assertThat(e).contains("connection reset"));
        assertThat(audit.findings())
                .extracting(Finding::text)
                .contains("redis on :6379 (pid 4242) run by systemd unit redis_6379.service");
        assertThat(redis.closes()).isEqualTo(1);
    }
}
