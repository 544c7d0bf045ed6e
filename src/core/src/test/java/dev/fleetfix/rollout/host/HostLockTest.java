package dev.fleetfix.rollout.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.FakeHost;
import dev.fleetfix.rollout.journal.ControlNode;
import dev.fleetfix.rollout.journal.RunControl;
import dev.fleetfix.rollout.journal.RunId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host lock through the real shell: who owns it, and what a hostile lock file can do. */
class HostLockTest {
    private static final Instant NOW = Instant.parse("2026-11-28T01:30:00Z");
    private static final String OWNER = "/run/lock/fleetfix.lock/owner";

    @TempDir
    Path dir;

    /** Alive, so that its lock is not stale: this test's own JVM. */
    private static RunControl.LockOwner owner(String run, long pid) {
        return new RunControl.LockOwner(run, "ops", ControlNode.name(), pid, Duration.ofHours(2), Set.of());
    }

    @Test
    void runIdsOfRunsStartedInTheSameSecondDiffer() {
        Set<String> ids =
                IntStream.range(0, 1000).mapToObj(i -> RunId.next(NOW)).collect(Collectors.toSet());
        assertThat(ids).hasSize(1000).allMatch(id -> id.matches("20261128T013000Z-[0-9a-f]{8}"));
    }

    @Test
    void theSameRunIdFromAnotherProcessDoesNotOwnTheLock() {
        FakeHost host = new FakeHost("r1", dir);
        long me = ProcessHandle.current().pid();
        long parent = ProcessHandle.current().parent().orElseThrow().pid();
        // two runs whose ids collide (ids used to be the start second): the pid tells them apart
        assertThat(HostLock.acquire(host.shell(), owner("20261128T013000Z", parent), NOW))
                .isEmpty();
        Optional<String> second = HostLock.acquire(host.shell(), owner("20261128T013000Z", me), NOW);
        assertThat(second)
                .get()
                .asString()
                .startsWith("locked by run 20261128T013000Z (pid " + parent + " on control node " + ControlNode.name()
                        + ") since 2026-11-28T01:30:00Z (0 s ago): /run/lock/fleetfix.lock; another fleetfix run");
        // and it cannot release the other's lock either
        HostLock.release(host.shell(), owner("20261128T013000Z", me));
        assertThat(host.read(OWNER)).get().asString().contains("pid=" + parent);
    }

    @Test
    void ofTwoRunsTakingTheLockAtOnceExactlyOneGetsIt() throws Exception {
        FakeHost a = new FakeHost("r1", dir);
        FakeHost b = new FakeHost("r1", dir); // the same host, seen by two runs
        long me = ProcessHandle.current().pid();
        long parent = ProcessHandle.current().parent().orElseThrow().pid();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                RunControl.LockOwner first = owner("20261128T013000Z", me);
                RunControl.LockOwner second = owner("20261128T013000Z", parent);
                CountDownLatch go = new CountDownLatch(1);
                Future<Optional<String>> x = pool.submit(() -> {
                    go.await();
                    return HostLock.acquire(a.shell(), first, NOW);
                });
                Future<Optional<String>> y = pool.submit(() -> {
                    go.await();
                    return HostLock.acquire(b.shell(), second, NOW);
                });
                go.countDown();
                List<Optional<String>> results = new ArrayList<>(List.of(x.get(), y.get()));
                assertThat(results)
                        .as("round " + round)
                        .filteredOn(Optional::isEmpty)
                        .hasSize(1);
                assertThat(results)
                        .filteredOn(Optional::isPresent)
                        .singleElement()
                        .satisfies(r -> assertThat(r.get()).startsWith("locked by run 20261128T013000Z (pid "));
                HostLock.release(a.shell(), first);
                HostLock.release(b.shell(), second);
                assertThat(a.read(OWNER)).as("round " + round).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLockFromAControlNodeWhoseClockIsAheadNeverShowsANegativeAge() {
        FakeHost host = new FakeHost("r1", dir);
        long parent = ProcessHandle.current().parent().orElseThrow().pid();
        assertThat(HostLock.acquire(host.shell(), owner("ahead", parent), NOW.plusSeconds(90)))
                .isEmpty();
        String refused = HostLock.acquire(
                        host.shell(), owner("behind", ProcessHandle.current().pid()), NOW)
                .orElseThrow();
        assertThat(refused)
                .contains("since 2026-11-28T01:31:30Z (90 s ahead of this control node's clock)")
                .doesNotContain("-1 min")
                .doesNotContain("(-");
    }

    @Test
    void aHugeHostileOwnerFileIsReadBoundedAndCutToALine() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        Files.createDirectories(host.path("/run/lock/fleetfix.lock"));
        host.write(OWNER, "run=" + "\u001b]0;pwned\u0007A".repeat(2_000_000) + "\npid=1\n");
        String refused = HostLock.acquire(
                        host.shell(), owner("mine", ProcessHandle.current().pid()), NOW)
                .orElseThrow();
        assertThat(refused.length()).isLessThan(600);
        assertThat(refused).startsWith("locked by run ").contains(" dropped ...");
    }

    @Test
    void aLinkedOwnerFileIsNeverReadThrough() throws Exception {
        FakeHost host = new FakeHost("r1", dir);
        Files.createDirectories(host.path("/run/lock/fleetfix.lock"));
        host.write("/etc/secret", "run=root-password-123\n");
        Files.createSymbolicLink(host.path(OWNER), host.path("/etc/secret"));
        String refused = HostLock.acquire(
                        host.shell(), owner("mine", ProcessHandle.current().pid()), NOW)
                .orElseThrow();
        assertThat(refused).doesNotContain("root-password-123").contains("is a symbolic link");
    }
}
