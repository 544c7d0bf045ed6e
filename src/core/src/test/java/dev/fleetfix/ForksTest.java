package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ForksTest {

    @Test
    void resultsComeBackInInputOrder() {
        List<Integer> inputs = IntStream.range(0, 20).boxed().toList();

        List<Forks.Outcome<Integer, String>> outcomes = Forks.run(inputs, 5, i -> {
            sleep(20 - i); // later inputs finish first
            return "host-" + i;
        });

        assertThat(outcomes).extracting(Forks.Outcome::input).containsExactlyElementsOf(inputs);
        assertThat(outcomes).extracting(o -> o.value().orElseThrow()).startsWith("host-0", "host-1");
    }

    @Test
    void neverRunsMoreThanForksAtOnce() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();

        // the first three wait for each other: 15 ms of overlap alone did not make three run at once on a loaded
        // machine, where a pool's threads start further apart
        CountDownLatch firstThree = new CountDownLatch(3);

        Forks.run(IntStream.range(0, 12).boxed().toList(), 3, i -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            firstThree.countDown();
            try {
                firstThree.await(60, TimeUnit.SECONDS); // fewer than three at once: waited out, and the peak says so
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sleep(15); // time for a fourth to start, were one let in
            running.decrementAndGet();
            return i;
        });

        assertThat(peak.get()).isEqualTo(3);
    }

    @Test
    void anExceptionIsCapturedForItsInputOnly() {
        List<Forks.Outcome<String, String>> outcomes = Forks.run(List.of("lab-1", "lab-2", "lab-3"), 2, host -> {
            if (host.equals("lab-2")) {
                throw new IllegalStateException("host lab-2: connection refused");
            }
            return host + " ok";
        });

        assertThat(outcomes).extracting(Forks.Outcome::ok).containsExactly(true, false, true);
        assertThat(outcomes.get(1).error())
                .get()
                .extracting(Throwable::getMessage)
                .isEqualTo("host lab-2: connection refused");
        assertThat(outcomes.get(2).value()).contains("lab-3 ok");
    }

    @Test
    void oneForkRunsInOrderInTheCallersThread() {
        Thread caller = Thread.currentThread();

        List<Forks.Outcome<Integer, Boolean>> outcomes =
                Forks.run(List.of(1, 2), 1, i -> Thread.currentThread() == caller);

        assertThat(outcomes).extracting(o -> o.value().orElseThrow()).containsExactly(true, true);
    }

    @Test
    void refusesZeroForks() {
        assertThatThrownBy(() -> Forks.run(List.of(1), 0, i -> i))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("forks must be a whole number of at least 1, was '0'");
    }

    @Test
    void aCountWrittenAsTextHasTheSameRuleAndTheSameMessage() {
        assertThat(Forks.checked(" 3 ")).isEqualTo(3);
        for (String bad : List.of("many", "1.5", "0", "-2", "")) {
            assertThatThrownBy(() -> Forks.checked(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("forks must be a whole number of at least 1, was '" + bad + "'");
        }
    }

    @Test
    void noInputsNoOutcomes() {
        assertThat(Forks.run(List.<Integer>of(), 4, i -> i)).isEmpty();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
