package dev.fleetfix.bench.load;

import dev.fleetfix.Progress;
import dev.fleetfix.Sleeper;
import dev.fleetfix.bench.plan.Footprint;
import dev.fleetfix.bench.plan.ForkUnderLoadSpec;
import dev.fleetfix.bench.plan.SafetyGuard;
import dev.fleetfix.bench.plan.SafetyPolicy;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.RunKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Runs the {@code fork-under-load} profile (see {@link ForkUnderLoadSpec}).
 *
 * <p>It runs only when a BGSAVE is harmless: no save or AOF rewrite already running, the dataset
 * loaded, the last save successful, and, when Redis has not saved since it started, a probe BGSAVE
 * into {@code dir} succeeding (which is what proves the directory writable). Otherwise it skips and says why. Since every BGSAVE replaces the
 * host's dump file, a last one after the benchmark's keys are deleted leaves a snapshot without
 * them.
 */
public final class ForkUnderLoad {
    private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();

    private final LoadGenerator generator;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;

    public ForkUnderLoad(LoadGenerator generator, LongSupplier nanoTime, Sleeper sleeper) {
        this.generator = Objects.requireNonNull(generator, "generator");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    public static ForkUnderLoad system() {
        return new ForkUnderLoad(LoadGenerator.system(), System::nanoTime, Sleeper.system());
    }

    public ProfileOutcome run(BenchTarget target, ForkUnderLoadSpec asked, SafetyPolicy policy) {
        return run(target, asked, policy, Progress.Listener.none());
    }

    /**
     * As {@link #run(BenchTarget, ForkUnderLoadSpec, SafetyPolicy)}, telling {@code progress} of the load and of
     * each wait for a BGSAVE to end ({@code rdb_bgsave_in_progress}, how long so far).
     */
    public ProfileOutcome run(
            BenchTarget target, ForkUnderLoadSpec asked, SafetyPolicy policy, Progress.Listener progress) {
        SafetyGuard.check(target, policy, asked.load().keyPrefix(), Footprint.of(asked.load()));
        // only the keys of this run are written and deleted
        ForkUnderLoadSpec spec = asked.withLoad(
                asked.load().withKeyPrefix(RunKeys.under(asked.load().keyPrefix())));
        Optional<String> notNow = whyNotNow(target);
        if (notNow.isPresent()) {
            return new ProfileOutcome.Skipped(notNow.get());
        }
        Optional<String> probe =
                savedSinceStart(target) ? Optional.empty() : probe(target, spec.bgsaveTimeout(), progress);
        if (probe.isPresent()) {
            return new ProfileOutcome.Skipped(probe.get());
        }
        Saver saver = new Saver(target, spec);
        Thread thread = new Thread(saver, "fleetfix-bgsave-" + target.hostName());
        thread.setDaemon(true);
        LoadResult load;
        long deleted;
        thread.start();
        try {
            load = generator.run(target, spec.load(), progress);
        } finally {
            saver.stop(thread);
            try {
                waitForSave(target, spec.bgsaveTimeout(), progress);
            } finally {
                deleted = target.deleteByPrefix(spec.load().keyPrefix());
            }
        }
        if (saver.failure.get() != null) {
            throw saver.failure.get();
        }
        target.bgsave();
        waitForSave(target, spec.bgsaveTimeout(), progress);
        return new ProfileOutcome.Ran(load, saver.samples(), deleted);
    }

    /** Why a BGSAVE now would disturb the host or could not work; empty when it may run. */
    static Optional<String> whyNotNow(BenchTarget target) {
        Map<String, String> persistence = target.info("persistence");
        if (flag(persistence, "loading")) {
            return Optional.of("the dataset is still loading");
        }
        if (flag(persistence, "aof_rewrite_in_progress") || flag(persistence, "aof_rewrite_scheduled")) {
            return Optional.of("an AOF rewrite is in progress or scheduled; a BGSAVE would fork a second child");
        }
        if (flag(persistence, "rdb_bgsave_in_progress")) {
            return Optional.of("a BGSAVE is already in progress");
        }
        Optional<String> dir = target.configGet("dir");
        if (dir.isEmpty() || dir.get().isBlank()) {
            return Optional.of("CONFIG GET dir is refused (renamed command or ACL), so where BGSAVE writes is unknown");
        }
        if ("err".equals(persistence.get("rdb_last_bgsave_status"))) {
            return Optional.of("the last BGSAVE failed (rdb_last_bgsave_status:err); check that " + dir.get()
                    + " is writable and has space");
        }
        return Optional.empty();
    }

    /**
     * A successful save since Redis started already proved {@code dir} writable (a failed one is
     * caught by {@link #whyNotNow}); a probe of a large dataset would cost as much as a round.
     */
    private static boolean savedSinceStart(BenchTarget target) {
        String lastSaveSeconds = target.info("persistence").get("rdb_last_bgsave_time_sec");
        return lastSaveSeconds != null && !lastSaveSeconds.strip().equals("-1");
    }

    private Optional<String> probe(BenchTarget target, Duration timeout, Progress.Listener progress) {
        String dir = target.configGet("dir").orElse("?");
        try {
            target.bgsave();
        } catch (RedisException e) {
            return Optional.of("a probe BGSAVE was refused: " + e.getMessage());
        }
        waitForSave(target, timeout, progress);
        if ("err".equals(target.info("persistence").get("rdb_last_bgsave_status"))) {
            return Optional.of("a probe BGSAVE into " + dir + " failed (rdb_last_bgsave_status:err): the directory is"
                    + " not writable or the disk is full");
        }
        return Optional.empty();
    }

    private void waitForSave(BenchTarget target, Duration timeout, Progress.Listener progress) {
        long start = nanoTime.getAsLong();
        long deadline = start + timeout.toNanos();
        long nextReport = start + Progress.EVERY.toNanos();
        while (flag(target.info("persistence"), "rdb_bgsave_in_progress")) {
            long now = nanoTime.getAsLong();
            if (now >= nextReport) {
                progress.progress(new Progress(
                        "BGSAVE",
                        "rdb_bgsave_in_progress:1, " + (now - start) / 1_000_000_000L + "s of at most "
                                + timeout.toSeconds() + "s"));
                nextReport = now + Progress.EVERY.toNanos();
            }
            if (now > deadline) {
                throw new BenchmarkException(
                        "host " + target.hostName() + ": BGSAVE still running after " + timeout.toSeconds() + " s");
            }
            try {
                sleeper.sleep(Duration.ofNanos(POLL_NANOS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchmarkException("host " + target.hostName() + ": interrupted waiting for BGSAVE", e);
            }
        }
    }

    private static boolean flag(Map<String, String> info, String field) {
        return "1".equals(info.get(field));
    }

    /** Triggers BGSAVE every interval while the load runs, one at a time. */
    private final class Saver implements Runnable {
        final BenchTarget target;
        final ForkUnderLoadSpec spec;
        final long start = nanoTime.getAsLong();
        final List<ForkSample> samples = new ArrayList<>();
        final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        volatile boolean stopped;

        Saver(BenchTarget target, ForkUnderLoadSpec spec) {
            this.target = target;
            this.spec = spec;
        }

        @Override
        public void run() {
            try {
                while (!stopped) {
                    sleeper.sleep(spec.bgsaveInterval());
                    if (stopped) {
                        return;
                    }
                    long at = nanoTime.getAsLong() - start;
                    try {
                        target.bgsave();
                    } catch (RedisException e) {
                        continue; // Redis started one itself (a save point): wait for the next interval
                    }
                    long forkMicros = parse(target.info("stats").get("latest_fork_usec"));
                    synchronized (samples) {
                        samples.add(new ForkSample(Duration.ofNanos(at), forkMicros));
                    }
                    // the load tells the progress meanwhile
                    waitForSave(target, spec.bgsaveTimeout(), Progress.Listener.none());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (!stopped) { // an interrupt to stop it may surface as a failed wait: not a failure
                    failure.set(e);
                }
            }
        }

        void stop(Thread thread) {
            stopped = true;
            thread.interrupt();
            try {
                thread.join(spec.bgsaveTimeout().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        List<ForkSample> samples() {
            synchronized (samples) {
                return List.copyOf(samples);
            }
        }

        private long parse(String value) {
            try {
                return value == null ? -1 : Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
