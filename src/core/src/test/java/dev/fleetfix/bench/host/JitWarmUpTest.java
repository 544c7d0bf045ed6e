package dev.fleetfix.bench.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The client warm-up repeats while the JIT is still compiling, and stops once it is quiet. */
class JitWarmUpTest {
    /** Each warm-up adds the next figure to the compilation time. */
    private static int warmUps(List<Long> compiledPerWarmUp, int max) {
        AtomicLong jit = new AtomicLong();
        AtomicInteger ran = new AtomicInteger();
        int n = HostBenchmark.untilTheJitIsQuiet(
                Optional.of(jit::get), () -> jit.addAndGet(compiledPerWarmUp.get(ran.getAndIncrement())), max, 50);
        assertThat(n).isEqualTo(ran.get());
        return n;
    }

    @Test
    void aColdProcessWarmsUpUntilTheCompilerGoesQuiet() {
        assertThat(warmUps(List.of(900L, 400L, 120L, 30L, 0L), 8)).isEqualTo(4);
    }

    @Test
    void aWarmProcessWarmsUpOnce() {
        assertThat(warmUps(List.of(10L), 8)).isEqualTo(1);
    }

    @Test
    void aCompilerThatNeverQuietsStopsAtTheLimit() {
        assertThat(warmUps(List.of(500L, 500L, 500L, 500L), 3)).isEqualTo(3);
    }

    @Test
    void withoutACompilationTimeOneWarmUp() {
        AtomicInteger ran = new AtomicInteger();
        assertThat(HostBenchmark.untilTheJitIsQuiet(Optional.empty(), ran::incrementAndGet, 8, 50))
                .isEqualTo(1);
        assertThat(ran).hasValue(1);
    }
}
