package dev.fleetfix.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ShellPoolTest {

    private final List<RecordingShell> opened = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentHashMap<String, AtomicInteger> opens = new ConcurrentHashMap<>();

    private RecordingShell open(Host host) {
        opens.computeIfAbsent(host.name(), n -> new AtomicInteger()).incrementAndGet();
        RecordingShell shell = new RecordingShell(host.name());
        opened.add(shell);
        return shell;
    }

    @Test
    void opensOneShellPerHostOnFirstUseAndReusesIt() {
        Host a = TestHosts.local("a", false);
        Host b = TestHosts.local("b", false);
        try (ShellPool pool = new ShellPool(this::open)) {
            assertThat(opened).isEmpty();

            RemoteShell first = pool.shell(a);
            RemoteShell again = pool.shell(a);
            RemoteShell other = pool.shell(b);

            assertThat(again).isSameAs(first);
            assertThat(other).isNotSameAs(first);
            assertThat(opens.get("a")).hasValue(1);
            assertThat(opens.get("b")).hasValue(1);
        }
    }

    @Test
    void manyThreadsAskingForOneHostShareOneShell() throws Exception {
        Host a = TestHosts.local("a", false);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try (ShellPool pool = new ShellPool(host -> {
            sleep(50); // a slow connect widens the race
            return open(host);
        })) {
            List<Future<RemoteShell>> shells = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                shells.add(threads.submit(() -> {
                    start.await();
                    return pool.shell(a);
                }));
            }
            start.countDown();
            RemoteShell first = shells.get(0).get(5, TimeUnit.SECONDS);
            for (Future<RemoteShell> shell : shells) {
                assertThat(shell.get(5, TimeUnit.SECONDS)).isSameAs(first);
            }
            assertThat(opens.get("a")).hasValue(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSlowHostDoesNotHoldUpAnother() throws Exception {
        Host slow = TestHosts.local("slow", false);
        Host fast = TestHosts.local("fast", false);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (ShellPool pool = new ShellPool(host -> {
            if (host.name().equals("slow")) {
                await(release);
            }
            return open(host);
        })) {
            Future<RemoteShell> pending = threads.submit(() -> pool.shell(slow));

            assertThat(pool.shell(fast).hostName()).isEqualTo("fast");
            release.countDown();
            assertThat(pending.get(5, TimeUnit.SECONDS).hostName()).isEqualTo("slow");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void closeClosesEveryShellAndRefusesNewOnes() {
        Host a = TestHosts.local("a", false);
        ShellPool pool = new ShellPool(this::open);
        pool.shell(a);
        pool.shell(TestHosts.local("b", false));

        pool.close();

        assertThat(opened).hasSize(2).allSatisfy(shell -> assertThat(shell.closed())
                .isTrue());
        assertThatThrownBy(() -> pool.shell(a))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("host a");
    }

    @Test
    void aHostThatFailedToOpenIsTriedAgain() {
        Host a = TestHosts.local("a", false);
        AtomicInteger attempts = new AtomicInteger();
        try (ShellPool pool = new ShellPool(host -> {
            if (attempts.incrementAndGet() == 1) {
                throw new TransportException("a", TransportException.Kind.UNREACHABLE, "refused", null);
            }
            return open(host);
        })) {
            assertThatThrownBy(() -> pool.shell(a)).isInstanceOf(TransportException.class);

            assertThat(pool.shell(a).hostName()).isEqualTo("a");
            assertThat(attempts).hasValue(2);
        }
    }

    @Test
    void oneShellFailingToCloseDoesNotStopTheOthers() {
        RecordingShell good = new RecordingShell("good");
        RemoteShell bad = new RecordingShell("bad").failOnClose(new IllegalStateException("boom"));
        ShellPool pool = new ShellPool(host -> host.name().equals("bad") ? bad : good);
        pool.shell(TestHosts.local("bad", false));
        pool.shell(TestHosts.local("good", false));

        assertThatThrownBy(pool::close).hasMessage("boom");
        assertThat(good.closed()).isTrue();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
