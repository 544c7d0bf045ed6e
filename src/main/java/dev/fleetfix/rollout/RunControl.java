package dev.fleetfix.rollout;

import java.time.Duration;
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
     * Who takes the host locks: the run id, a one-line owner ("user@machine pid 123"), when a lock
     * counts as stale, and the runs this one resumes (their locks, left by a host that dropped
     * mid-run, are taken over: same journal, same intent).
     */
    public record LockOwner(String runId, String owner, Duration staleAfter, Set<String> resumes) {
        public LockOwner {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(staleAfter, "staleAfter");
            resumes = Set.copyOf(resumes);
        }

        public LockOwner(String runId, String owner, Duration staleAfter) {
            this(runId, owner, staleAfter, Set.of());
        }

        /** This run, or one it resumes. */
        public boolean isOwn(String run) {
            return runId.equals(run) || resumes.contains(run);
        }
    }

    private final Optional<LockOwner> lock;
    private final Set<String> done;
    private final AtomicReference<String> stop = new AtomicReference<>();

    /**
     * @param lock take a lock on each host while it runs; empty for none
     * @param done "play\nhost" pairs a previous run finished (from its journal): skipped
     */
    public RunControl(Optional<LockOwner> lock, Set<String> done) {
        this.lock = Objects.requireNonNull(lock, "lock");
        this.done = Set.copyOf(done);
    }

    public static RunControl none() {
        return new RunControl(Optional.empty(), Set.of());
    }

    public Optional<LockOwner> lock() {
        return lock;
    }

    /** Whether a previous run of this journal finished {@code host} in {@code play}. */
    public boolean doneBefore(String play, String host) {
        return done.contains(key(play, host));
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
