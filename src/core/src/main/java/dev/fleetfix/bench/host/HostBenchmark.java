package dev.fleetfix.bench.host;

import dev.fleetfix.Crash;
import dev.fleetfix.Progress;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.ProfileOutcome;
import dev.fleetfix.bench.load.TcpNoDelayTarget;
import dev.fleetfix.bench.plan.BenchPlan;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.bench.plan.Footprint;
import dev.fleetfix.bench.plan.LoadSpec;
import dev.fleetfix.bench.plan.RedisBenchmarkSpec;
import dev.fleetfix.bench.plan.SafetyGuard;
import dev.fleetfix.bench.plan.SweepPoint;
import dev.fleetfix.bench.redisbenchmark.RedisBenchmarkEngine;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.redis.RedisVersion;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.redis.load.BenchmarkException;
import dev.fleetfix.redis.load.BenchmarkRefusedException;
import dev.fleetfix.redis.load.EarlierRuns;
import dev.fleetfix.redis.load.ProcessHugePages;
import dev.fleetfix.redis.load.RedisEvidence;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Runs a {@link BenchPlan} on hosts one after another: benchmarks on several hosts at once would
 * compete for the control node (builtin) or make each other's figures meaningless.
 */
public final class HostBenchmark {

    private final Function<Host, BenchTarget> targets;
    private final Function<Host, RemoteShell> shells;
    private final BuiltinBenchmark builtin;
    private final ForkUnderLoad forkUnderLoad;
    private final RedisBenchmarkEngine redisBenchmark = new RedisBenchmarkEngine();

    /**
     * @param targets opens a connection to a host's Redis (closed after the host is done)
     * @param shells the host's shell, for the redis-benchmark engine (owned by the caller's pool)
     */
    public HostBenchmark(
            Function<Host, BenchTarget> targets,
            Function<Host, RemoteShell> shells,
            BuiltinBenchmark builtin,
            ForkUnderLoad forkUnderLoad) {
        this.targets = Objects.requireNonNull(targets, "targets");
        this.shells = Objects.requireNonNull(shells, "shells");
        this.builtin = Objects.requireNonNull(builtin, "builtin");
        this.forkUnderLoad = Objects.requireNonNull(forkUnderLoad, "forkUnderLoad");
    }

    /**
     * What happened on one host: its rounds, or why it skipped (the profile could not run, or the
     * safety rules refused the host) or failed.
     */
    public record Outcome(Host host, List<BenchRun> rounds, Optional<String> skipped, Optional<String> failure) {
        public Outcome {
            Objects.requireNonNull(host, "host");
            rounds = List.copyOf(rounds);
        }
    }

    public List<Outcome> run(List<Host> hosts, BenchPlan plan) {
        return run(hosts, plan, host -> Progress.Listener.none());
    }

    /** As {@link #run(List, BenchPlan)}, telling each host's progress to the listener {@code progress} gives. */
    public List<Outcome> run(List<Host> hosts, BenchPlan plan, Function<Host, Progress.Listener> progress) {
        List<Outcome> outcomes = new ArrayList<>();
        for (Host host : hosts) {
            outcomes.add(alongside(List.of(host), plan, progress.apply(host)).get(0));
        }
        return outcomes;
    }

    public List<Outcome> alongside(List<Host> hosts, BenchPlan plan) {
        return alongside(hosts, plan, Progress.Listener.none());
    }

    /**
     * The first host and, beside it, hosts measured as its controls: round {@code i} of every host
     * before round {@code i + 1} of any, in reversed order every other round, so whatever drifts over
     * the run (this machine's load, its clock speed) falls on the host and its controls alike. Each
     * host is warmed up before the first measured round. When the first host stops (skipped or
     * failed) the others stop with it; a control that stops leaves the rest going.
     *
     * @param progress told which round runs on which host and how far it has got (a control is named)
     * @return one outcome per host, in the order given
     */
    public List<Outcome> alongside(List<Host> hosts, BenchPlan plan, Progress.Listener progress) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("alongside needs at least the host to measure");
        }
        List<Session> sessions = new ArrayList<>();
        try {
            for (Host host : hosts) {
                Session s = new Session(host, plan, sessions.isEmpty() ? "" : ", control " + host.name(), progress);
                sessions.add(s);
                if (sessions.get(0).ended != null) {
                    break;
                }
            }
            Session first = sessions.get(0);
            for (int i = 0; i < plan.rounds() && first.ended == null; i++) {
                List<Session> order = new ArrayList<>(sessions);
                if (i % 2 == 1) {
                    Collections.reverse(order);
                }
                for (Session s : order) {
                    s.round(i);
                }
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Session s : sessions) {
                outcomes.add(first.ended == null ? s.finish() : s.stoppedBy(first));
            }
            for (Host host : hosts.subList(sessions.size(), hosts.size())) {
                outcomes.add(new Outcome(
                        host,
                        List.of(),
                        Optional.of("not measured: " + first.host.name() + " stopped"),
                        Optional.empty()));
            }
            return outcomes;
        } finally {
            sessions.forEach(Session::close);
        }
    }

    /**
     * One host's open connection and its rounds so far. It ends (skipped or failed) at the first
     * round that cannot run, and then runs no more.
     */
    private final class Session implements AutoCloseable {
        private final Host host;
        private final String role;
        private final Progress.Listener progress;
        private final List<BenchRun> rounds = new ArrayList<>();
        private BenchTarget target;
        private BenchPlan onHost;
        private List<Optional<SweepPoint>> points;
        private Outcome ended;

        /** @param role empty for the measured host, ", control NAME" for a control */
        Session(Host host, BenchPlan plan, String role, Progress.Listener progress) {
            this.host = host;
            this.role = role;
            this.progress = progress;
            attempt(() -> {
                target = targets.apply(host);
                onHost = target.clusterHashTag().map(plan::withKeyTag).orElse(plan);
                // keys an earlier run could not delete (its connection dropped half-way) go first, on a
                // primary the safety rules allow and under a prefix that holds nothing else; a replica, or
                // a limit the plan's keys would reach, is refused here before anything is deleted or written
                SafetyGuard.check(target, plan.safety(), Footprint.of(onHost));
                EarlierRuns.clean(target, onHost.keyPrefix());
                points = onHost.isSweep()
                        ? onHost.sweep().stream().map(Optional::of).toList()
                        : List.of(Optional.<SweepPoint>empty());
                String what = "benchmark " + plan.name() + " client warm-up" + role;
                warmUp(target, points.get(0).map(onHost::at).orElse(onHost), what, progress);
            });
        }

        /**
         * Round {@code i}: every point, in alternating order, so that a drift of the host over the
         * run falls on every point alike instead of on the last sizes.
         */
        void round(int i) {
            if (ended != null) {
                return;
            }
            attempt(() -> {
                List<Optional<SweepPoint>> order = new ArrayList<>(points);
                if (i % 2 == 1) {
                    Collections.reverse(order);
                }
                for (Optional<SweepPoint> point : order) {
                    BenchPlan one = point.map(onHost::at).orElse(onHost);
                    String what = "benchmark " + one.name() + " round " + (i + 1) + "/" + one.rounds()
                            + point.map(p -> " at " + p.label()).orElse("") + role;
                    progress.progress(new Progress(what, ""));
                    Optional<String> skipped = HostBenchmark.this.round(
                            host,
                            TcpNoDelayTarget.of(target, one.tcpNoDelay()),
                            one,
                            rounds,
                            p -> progress.progress(p.as(what)));
                    if (skipped.isPresent()) {
                        ended = new Outcome(host, rounds, skipped, Optional.empty());
                        return;
                    }
                    point.ifPresent(p -> rounds.set(
                            rounds.size() - 1, rounds.get(rounds.size() - 1).at(p)));
                }
            });
        }

        /** Its outcome after every round: Redis's own evidence goes with the last one. */
        Outcome finish() {
            if (ended != null) {
                return ended;
            }
            attempt(() -> {
                if (!rounds.isEmpty()) {
                    int last = rounds.size() - 1;
                    ProcessHugePages hugePages = ProcessHugePages.overShell(() -> shells.apply(host), host.become());
                    rounds.set(last, rounds.get(last).withEvidence(RedisEvidence.read(target, hugePages)));
                }
            });
            return ended != null ? ended : new Outcome(host, rounds, Optional.empty(), Optional.empty());
        }

        /** The outcome of a control whose host stopped: its rounds so far, and why it stopped. */
        Outcome stoppedBy(Session first) {
            if (this == first || ended != null) {
                return ended;
            }
            return new Outcome(host, rounds, Optional.of("stopped with " + first.host.name()), Optional.empty());
        }

        private void attempt(Runnable step) {
            try {
                step.run();
            } catch (BenchmarkRefusedException e) {
                // the host's data comes first: not running is the right outcome, not a failure
                ended = new Outcome(host, rounds, Optional.of(e.getMessage()), Optional.empty());
            } catch (BenchmarkException | RedisException | TransportException e) {
                ended = new Outcome(host, rounds, Optional.empty(), Optional.of(e.getMessage()));
            } catch (RuntimeException | Error e) {
                // a bug, a library gone wrong, a stack or heap exhausted: this host fails, the others go on
                ended = new Outcome(host, rounds, Optional.empty(), Optional.of(Crash.describe(e)));
            }
        }

        @Override
        public void close() {
            if (target != null) {
                target.close();
            }
        }
    }

    /**
     * A discarded run before any measured round, so that neither side measures a cold client or a
     * Redis that has yet to grow its memory: the keyspace written once ({@link BuiltinBenchmark#fill}),
     * then the JIT compiles the load path and the connections are open and used. Without it the first
     * benchmark of a process ran on a cold JVM and its side looked slower (see
     * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults). redis-benchmark runs on
     * the host and needs none.
     */
    private void warmUp(BenchTarget target, BenchPlan plan, String what, Progress.Listener progress) {
        if (plan.engine() != BenchPlan.Engine.BUILTIN) {
            return;
        }
        LoadSpec load = plan.profile() == BenchPlan.Profile.FORK_UNDER_LOAD
                ? plan.forkUnderLoad().load()
                : plan.load();
        LoadSpec once = load.toBuilder()
                .warmup(Duration.ZERO)
                .duration(BenchPlan.CLIENT_WARMUP)
                .build();
        progress.progress(new Progress(what, ""));
        builtin.fill(TcpNoDelayTarget.of(target, plan.tcpNoDelay()), load, plan.safety());
        untilTheJitIsQuiet(
                jitMillis(),
                () -> builtin.run(
                        TcpNoDelayTarget.of(target, plan.tcpNoDelay()),
                        once,
                        plan.safety(),
                        p -> progress.progress(p.as(what))),
                MAX_WARMUPS,
                QUIET_JIT_MILLIS);
    }

    /** At most this many warm-ups of {@link BenchPlan#CLIENT_WARMUP} against one host. */
    static final int MAX_WARMUPS = 8;

    /** A warm-up during which the JIT compiled for less than this is taken as warm. */
    static final long QUIET_JIT_MILLIS = 50;

    /**
     * Runs {@code warmUp} until the JIT compiled for less than {@code quietMillis} during one (and
     * at most {@code max} times): in the first benchmark of a process one second was not enough,
     * and the compiler threads still took this machine's CPU from the first side (the lab's first
     * host read faster after than before where nothing changed: see
     * docs/benchmarks-and-verdicts.md#measurements-behind-the-defaults). Without a
     * compilation time, one warm-up.
     *
     * @return how many warm-ups ran
     */
    static int untilTheJitIsQuiet(Optional<LongSupplier> jitMillis, Runnable warmUp, int max, long quietMillis) {
        for (int n = 1; ; n++) {
            long start = jitMillis.map(LongSupplier::getAsLong).orElse(0L);
            warmUp.run();
            if (jitMillis.isEmpty() || n >= max || jitMillis.get().getAsLong() - start < quietMillis) {
                return n;
            }
        }
    }

    /** The JIT's total compilation time in milliseconds, when this JVM measures it. */
    private static Optional<LongSupplier> jitMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported()
                ? Optional.of(jit::getTotalCompilationTime)
                : Optional.empty();
    }

    private Optional<String> round(
            Host host, BenchTarget target, BenchPlan plan, List<BenchRun> rounds, Progress.Listener progress) {
        List<BenchResult> results;
        if (plan.engine() == BenchPlan.Engine.REDIS_BENCHMARK) {
            RedisBenchmarkSpec spec = new RedisBenchmarkSpec(
                    host.redis().address(),
                    host.redis().port(),
                    plan.redisBenchmark().tests(),
                    plan.redisBenchmark().requests(),
                    plan.redisBenchmark().clients(),
                    plan.redisBenchmark().dataSize(),
                    plan.redisBenchmark().pipeline(),
                    plan.redisBenchmark().keyspace(),
                    plan.redisBenchmark().threads(),
                    plan.redisBenchmark().keyPrefix(),
                    plan.redisBenchmark().timeout());
            Optional<RedisServer> server = RedisServer.fromInfo(target.info("server"));
            Optional<RedisVersion> version = server.map(RedisServer::redisCompat);
            boolean valkey =
                    server.map(s -> s.flavour() == RedisServer.Flavour.VALKEY).orElse(false);
            // one blocking command on the host: its progress is not known until it ends
            progress.progress(new Progress(
                    "redis-benchmark",
                    String.format(
                            java.util.Locale.ROOT, "%,d requests per test, running on the host", spec.requests())));
            results = redisBenchmark.run(shells.apply(host), target, spec, plan.safety(), version, valkey);
        } else if (plan.profile() == BenchPlan.Profile.FORK_UNDER_LOAD) {
            ProfileOutcome outcome = forkUnderLoad.run(target, plan.forkUnderLoad(), plan.safety(), progress);
            if (outcome instanceof ProfileOutcome.Skipped skipped) {
                return Optional.of(skipped.reason());
            }
            results = List.of(((ProfileOutcome.Ran) outcome).load().result());
        } else {
            results = List.of(
                    builtin.run(target, plan.load(), plan.safety(), progress).result());
        }
        rounds.add(new BenchRun(host.name(), plan.name(), plan.phase(), results));
        return Optional.empty();
    }
}
