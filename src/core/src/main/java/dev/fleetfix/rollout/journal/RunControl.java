package dev.fleetfix.rollout.journal;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a run is besides its plan: its id, the per-host lock it takes, the hosts a resumed run
 * skips, and a stop request (Ctrl-C, SIGTERM) the runner checks between hosts and batches. Hosts in
 * flight always finish their steps; no new host starts once a stop is requested.
 */
public final class RunControl {
    /**
     * Who takes the host locks: the run id, the process that runs it (user, control node, pid),
     * when a lock counts as stale, and the runs this one resumes (their locks, left by a host that
     * dropped mid-run, are taken over: same journal, same intent). A lock is this run's only when
     * its run id, control node and pid all match: never by time.
     */
    public record LockOwner(
            String runId, String user, String node, long pid, Duration staleAfter, Set<String> resumes) {
        public LockOwner {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(staleAfter, "staleAfter");
            if (runId.isBlank() || runId.contains("\n")) {
                throw new IllegalArgumentException("runId: must be one non-blank line, was '" + runId + "'");
            }
            resumes = Set.copyOf(resumes);
        }

        /** This process as the owner: the user it runs as, this machine's name and its pid. */
        public static LockOwner thisProcess(String runId, Duration staleAfter, Set<String> resumes) {
            return new LockOwner(
                    runId,
                    System.getProperty("user.name", "?"),
                    ControlNode.name(),
                    ProcessHandle.current().pid(),
                    staleAfter,
                    resumes);
        }

        /** A run this one resumes. */
        public boolean resumes(String run) {
            return resumes.contains(run);
        }
    }

    private final Optional<String> runId;
    private final Optional<LockOwner> lock;
    private final Set<String> done;
    private final Map<String, JournaledBenchmark> befores;
    private final AtomicReference<String> stop = new AtomicReference<>();

    /**
     * @param runId the run's id, made once ({@link RunId}) and used by the lock, the journal, the
     *     events and backup names alike; empty to let the runner make one
     * @param lock take a lock on each host while it runs; empty for none
     * @param done "play\nhost" pairs a previous run finished (from its journal): skipped
     */
    public RunControl(Optional<String> runId, Optional<LockOwner> lock, Set<String> done) {
        this(runId, lock, done, Map.of());
    }

    /**
     * @param befores the before benchmarks the resumed run's journal holds, by {@link
     *     JournaledBenchmark#key()}: replayed, not measured again
     */
    public RunControl(
            Optional<String> runId,
            Optional<LockOwner> lock,
            Set<String> done,
            Map<String, JournaledBenchmark> befores) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.lock = Objects.requireNonNull(lock, "lock");
        this.done = Set.copyOf(done);
        this.befores = Map.copyOf(befores);
        if (lock.isPresent() && !runId.equals(Optional.of(lock.get().runId()))) {
            throw new IllegalArgumentException(
                    "lock: run id " + lock.get().runId() + " is not the run's id " + runId.orElse("(none)"));
        }
    }

    /** The lock's run id is the run's id. */
    public RunControl(Optional<LockOwner> lock, Set<String> done) {
        this(lock.map(LockOwner::runId), lock, done);
    }

    public static RunControl none() {
        return new RunControl(Optional.empty(), Set.of());
    }

    /** The run's id when the caller made it (it already named the journal with it). */
    public Optional<String> runId() {
        return runId;
    }

    public Optional<LockOwner> lock() {
        return lock;
    }

    /** Whether a previous run of this journal finished {@code host} in {@code play}. */
    public boolean doneBefore(String play, String host) {
        return done.contains(key(play, host));
    }

    /** The before benchmark the resumed run measured at this step of this play on this host, if any. */
    public Optional<JournaledBenchmark> journaledBefore(String play, String host, int index, String step, String type) {
        return Optional.ofNullable(befores.get(JournaledBenchmark.key(play, host, index, step, type)));
    }

    public static String key(String play, String host) {
        return play + "\n" + host;
    }

    /** Asks the run to stop starting hosts; the first reason wins. */
    public void requestStop(String reason) {
        stop.compareAndSet(null, reason);
    }

    public Optional<String> stopRequested() {
        return Optional.ofNullable(stop.get());
    }
}
