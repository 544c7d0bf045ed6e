package dev.fleetfix.bench.load;

import dev.fleetfix.Progress;
import dev.fleetfix.Sleeper;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.redis.load.BenchConnection;
import dev.fleetfix.redis.load.BenchOp;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The builtin load generator: one thread per connection sending pipelines of random commands,
 * latencies into one HdrHistogram per thread (microseconds), merged at the end.
 *
 * <p>Unpaced, a batch's latency runs from its send to its last reply. Paced ({@code rate}), each
 * batch has an intended start on a fixed schedule and its latency runs from that intended start:
 * a stall then shows in every request that should have been sent during it, not only in the one
 * that met it (coordinated omission, as wrk2 corrects it).
 *
 * <p>Redis's {@code evicted_keys} is read when the run starts and again every {@link
 * #EVICTION_CHECK_NANOS} by whichever connection finishes a batch past that moment: at the first
 * key evicted since the start, every connection stops and the run fails. The benchmark's keys can
 * have pushed out a user's key; no second one goes.
 *
 * <p>While it runs, whichever connection finishes a batch past the next {@link Progress#EVERY} tells
 * the run's progress: the requests per second measured so far.
 */
public final class LoadGenerator {
    /**
     * No window holds more than a second of load, and a round holds about ten of them; none is
     * shorter than 250 ms, so a window spans several of the kernel's 100 ms CPU-quota periods and a
     * throttled Redis does not read as alternating empty and full windows.
     */
    static final long MAX_WINDOW_NANOS = 1_000_000_000L;

    static final long MIN_WINDOW_NANOS = 250_000_000L;
    private static final int WINDOWS_PER_ROUND = 10;
    private static final int MAX_WINDOWS = 3600;

    /**
     * How many windows a round measured for {@code duration} is cut into: about ten, none shorter than 250 ms or
     * longer than a second, a last shorter one kept when it holds at least half a window. What a plan's design is
     * checked with before anything runs (the verdict's samples are these windows).
     */
    public static int windowsPerRound(java.time.Duration duration) {
        long d = duration.toNanos();
        long w = Math.max(MIN_WINDOW_NANOS, Math.min(MAX_WINDOW_NANOS, d / WINDOWS_PER_ROUND));
        long full = d / w;
        return (int) Math.min(MAX_WINDOWS, full + ((d - full * w) * 2 >= w ? 1 : 0));
    }

    /** How often the run reads {@code evicted_keys}. */
    static final long EVICTION_CHECK_NANOS = 100_000_000L;

    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private final CpuMeter cpu;

    public LoadGenerator(LongSupplier nanoTime, Sleeper sleeper) {
        this(nanoTime, sleeper, CpuMeter.NONE);
    }

    public LoadGenerator(LongSupplier nanoTime, Sleeper sleeper, CpuMeter cpu) {
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.cpu = cpu;
    }

    public static LoadGenerator system() {
        return new LoadGenerator(System::nanoTime, Sleeper.system(), CpuMeter.system());
    }

    public LoadResult run(BenchTarget target, LoadSpec spec) {
        return run(target, spec, Progress.Listener.none());
    }

    /** As {@link #run(BenchTarget, LoadSpec)}, telling {@code progress} about once a second. */
    public LoadResult run(BenchTarget target, LoadSpec spec, Progress.Listener progress) {
        long start = nanoTime.getAsLong();
        Optional<CpuMeter.Reading> cpuBefore = cpu.read();
        Schedule schedule = new Schedule(spec, start, new EvictionWatch(target, start, EVICTION_CHECK_NANOS), progress);
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < spec.connections(); i++) {
            workers.add(new Worker(target, spec, schedule, i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(spec.connections(), r -> {
            Thread t = new Thread(r, "fleetfix-load-" + target.hostName());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Worker w : workers) {
                futures.add(pool.submit(() -> {
                    w.run();
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchmarkException("host " + target.hostName() + ": benchmark interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new BenchmarkException("host " + target.hostName() + ": load thread failed: " + cause, cause);
        } finally {
            pool.shutdownNow();
        }
        schedule.evictions.check();
        schedule.evictions.failIfAny();
        Optional<ClientCpu> used = cpuBefore.flatMap(b -> cpu.read().map(e -> CpuMeter.between(b, e)));
        return merge(spec, schedule, workers, used);
    }

    private static LoadResult merge(LoadSpec spec, Schedule schedule, List<Worker> workers, Optional<ClientCpu> used) {
        Histogram all = new Histogram(3);
        long errors = 0;
        long lastDone = schedule.measureFrom;
        for (Worker w : workers) {
            all.add(w.histogram);
            errors += w.errors;
            lastDone = Math.max(lastDone, w.lastDone);
        }
        long measuredNanos = Math.max(1, lastDone - schedule.measureFrom);
        double rps = all.getTotalCount() * 1e9 / measuredNanos;
        BenchResult result = new BenchResult(
                spec.test(),
                rps,
                OptionalLong.of(all.getTotalCount()),
                HistogramLatency.of(all),
                windows(schedule, workers, lastDone),
                used,
                errors);
        return new LoadResult(result, errors, Duration.ofNanos(measuredNanos));
    }

    /**
     * The measured part cut into windows. A last window shorter than half the others is left out:
     * its throughput would rest on a few requests. A window in which no request completed is left
     * out too; the stall shows in the latencies of the window where those requests end.
     */
    private static List<WindowSample> windows(Schedule schedule, List<Worker> workers, long lastDone) {
        int count = workers.stream().mapToInt(w -> w.windows.size()).max().orElse(0);
        List<WindowSample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Histogram h = new Histogram(3);
            for (Worker w : workers) {
                if (i < w.windows.size() && w.windows.get(i) != null) {
                    h.add(w.windows.get(i));
                }
            }
            long from = schedule.measureFrom + i * schedule.windowNanos;
            long length = Math.min(schedule.windowNanos, lastDone - from);
            if (h.getTotalCount() == 0 || length * 2 < schedule.windowNanos) {
                continue;
            }
            samples.add(new WindowSample(
                    length / 1e9,
                    h.getTotalCount(),
                    ms(h.getValueAtPercentile(50)),
                    ms(h.getValueAtPercentile(90)),
                    ms(h.getValueAtPercentile(99)),
                    ms(h.getValueAtPercentile(99.9)),
                    ms(h.getValueAtPercentile(99.99)),
                    ms(h.getMaxValue())));
        }
        return samples;
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    /** The shared clock of a run: when measuring starts and stops, and how many requests are left. */
    private static final class Schedule {
        final long start;
        final long measureFrom;
        final long measureUntil;
        final AtomicLong remaining;
        final long intervalNanos;
        final long windowNanos;
        final EvictionWatch evictions;
        final Progress.Listener progress;
        final LongSupplier total;
        final LongAdder measured = new LongAdder();
        final AtomicLong nextReport;

        Schedule(LoadSpec spec, long start, EvictionWatch evictions, Progress.Listener progress) {
            this.evictions = evictions;
            this.progress = progress;
            this.nextReport = new AtomicLong(start + Progress.EVERY.toNanos());
            this.total = () -> spec.requests().orElse(0);
            this.windowNanos = spec.duration()
                    .map(d -> Math.max(MIN_WINDOW_NANOS, Math.min(MAX_WINDOW_NANOS, d.toNanos() / WINDOWS_PER_ROUND)))
                    .orElse(MAX_WINDOW_NANOS);
            this.start = start;
            this.measureFrom = start + spec.warmup().toNanos();
            this.measureUntil =
                    spec.duration().map(d -> measureFrom + d.toNanos()).orElse(Long.MAX_VALUE);
            this.remaining = new AtomicLong(spec.requests().orElse(Long.MAX_VALUE));
            // each connection sends a batch every interval so that all together make the rate
            this.intervalNanos = spec.rate().isPresent()
                    ? Math.max(
                            1,
                            Math.round(spec.pipeline()
                                    * spec.connections()
                                    * 1e9
                                    / spec.rate().getAsDouble()))
                    : 0;
        }

        /** Tells the progress once {@link Progress#EVERY} has passed since it last did (one connection does). */
        void reportIfDue(long now) {
            long due = nextReport.get();
            if (now < due || !nextReport.compareAndSet(due, now + Progress.EVERY.toNanos())) {
                return;
            }
            progress.progress(new Progress("load", sofar(now)));
        }

        private String sofar(long now) {
            if (now < measureFrom) {
                return "warming up, " + seconds(now - start) + " of " + seconds(measureFrom - start);
            }
            long count = measured.sum();
            double rps = count * 1e9 / Math.max(1, now - measureFrom);
            String of = measureUntil != Long.MAX_VALUE
                    ? seconds(now - measureFrom) + " of " + seconds(measureUntil - measureFrom)
                    : String.format(Locale.ROOT, "%,d of %,d requests", count, total.getAsLong());
            return String.format(Locale.ROOT, "%,.0f rps so far, %s", rps, of);
        }

        private static String seconds(long nanos) {
            return nanos / 1_000_000_000L + "s";
        }
    }

    private final class Worker {
        final BenchTarget target;
        final LoadSpec spec;
        final Schedule schedule;
        final SplittableRandom random;
        final Operation[] picks;
        final byte[] value;
        final int index;
        final Histogram histogram = new Histogram(3);
        final List<Histogram> windows = new ArrayList<>();
        long errors;
        long lastDone;

        Worker(BenchTarget target, LoadSpec spec, Schedule schedule, int index) {
            this.target = target;
            this.spec = spec;
            this.schedule = schedule;
            this.index = index;
            this.random = new SplittableRandom(spec.seed() * 31 + index);
            this.picks = weighted(spec);
            this.value = new byte[spec.valueSize()];
            Arrays.fill(value, (byte) 'x');
        }

        void run() throws InterruptedException {
            try (BenchConnection connection = target.connect()) {
                // offset the connections across one interval so a paced load is smooth, not bursts
                long offset = schedule.intervalNanos * index / spec.connections();
                for (long batch = 0; ; batch++) {
                    long intended = schedule.intervalNanos > 0
                            ? schedule.start + offset + batch * schedule.intervalNanos
                            : nanoTime.getAsLong();
                    if (intended >= schedule.measureUntil || schedule.evictions.seen()) {
                        return;
                    }
                    boolean measured = intended >= schedule.measureFrom;
                    int size = measured ? claim() : spec.pipeline();
                    if (size == 0) {
                        return;
                    }
                    long now = nanoTime.getAsLong();
                    if (intended > now) {
                        sleeper.sleep(Duration.ofNanos(intended - now));
                    }
                    long sent = schedule.intervalNanos > 0 ? intended : nanoTime.getAsLong();
                    int failed = connection.execute(batch(size));
                    long done = nanoTime.getAsLong();
                    if (measured) {
                        long micros = Math.max(0, (done - sent) / 1000);
                        histogram.recordValueWithCount(micros, size);
                        window(done).recordValueWithCount(micros, size);
                        errors += failed;
                        lastDone = done;
                        schedule.measured.add(size);
                    }
                    schedule.evictions.checkIfDue(done);
                    schedule.reportIfDue(done);
                }
            }
        }

        /** The histogram of the window in which a batch completed (the last one past the cap). */
        private Histogram window(long done) {
            int i = (int) Math.min(MAX_WINDOWS - 1, Math.max(0, (done - schedule.measureFrom) / schedule.windowNanos));
            while (windows.size() <= i) {
                windows.add(null);
            }
            if (windows.get(i) == null) {
                windows.set(i, new Histogram(3));
            }
            return windows.get(i);
        }

        /** Takes up to one pipeline's worth of the remaining requests; 0 when none are left. */
        private int claim() {
            while (true) {
                long left = schedule.remaining.get();
                if (left <= 0) {
                    return 0;
                }
                long take = Math.min(left, spec.pipeline());
                if (schedule.remaining.compareAndSet(left, left - take)) {
                    return (int) take;
                }
            }
        }

        private List<BenchOp> batch(int size) {
            List<BenchOp> ops = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                Operation command = picks[random.nextInt(picks.length)];
                ops.add(new BenchOp(command, command.key(spec.keyPrefix(), random.nextLong(spec.keyspace())), value));
            }
            return ops;
        }
    }

    /** The mix as an array in which each command appears as often as its weight (after reduction). */
    private static Operation[] weighted(LoadSpec spec) {
        int gcd = spec.mix().values().stream().reduce(0, LoadGenerator::gcd);
        List<Operation> picks = new ArrayList<>();
        for (Operation c : Operation.values()) {
            Integer w = spec.mix().get(c);
            for (int i = 0; w != null && i < w / gcd; i++) {
                picks.add(c);
            }
        }
        return picks.toArray(Operation[]::new);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
