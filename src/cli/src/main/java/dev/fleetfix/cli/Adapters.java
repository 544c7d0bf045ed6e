package dev.fleetfix.cli;

import dev.fleetfix.Sleeper;
import dev.fleetfix.bench.host.BenchEngines;
import dev.fleetfix.bench.host.HostBenchmark;
import dev.fleetfix.bench.load.BuiltinBenchmark;
import dev.fleetfix.bench.load.ForkUnderLoad;
import dev.fleetfix.bench.load.LoadGenerator;
import dev.fleetfix.checks.HostAuditor;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.redis.jedis.JedisBenchTarget;
import dev.fleetfix.redis.jedis.JedisConnector;
import dev.fleetfix.redis.load.BenchTarget;
import dev.fleetfix.rollout.ApplyService;
import dev.fleetfix.rollout.RolloutPolicy;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.AuditorFacts;
import dev.fleetfix.steps.model.RunPorts;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.ShellPool;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The composition root: the adapters every command works through (shells, Redis connections,
 * bench targets and the benchmark's load generators, Clock, Sleeper, the rollout policy and where
 * run journals go), built once and handed to the
 * commands by picocli's {@link CommandLine.IFactory}. Tests build one with fakes instead.
 *
 * @param clock the clock of windows, timeouts and run ids
 * @param sleeper waits between polls and retries
 * @param shells opens a host's shell; empty for SSH as the command's options say
 * @param redis connects to a host's Redis
 * @param policy retries and the circuit breaker; null for {@link RolloutPolicy#defaults()}, built when asked for
 * @param runsHome where runs without --run-dir or --report keep their journal, one directory per run
 */
record Adapters(
        Clock clock,
        Sleeper sleeper,
        Optional<ShellFactory> shells,
        RedisConnector redis,
        RolloutPolicy policy,
        Path runsHome) {
    /** Connect and read timeout of the benchmark step's Redis connections. */
    private static final Duration BENCH_REDIS_TIMEOUT = Duration.ofSeconds(10);

    Adapters {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(shells, "shells");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(runsHome, "runsHome");
    }

    /**
     * The policy given, else the defaults, built on each call: they load resilience4j, which only {@code apply}
     * uses, and are immutable.
     */
    @Override
    public RolloutPolicy policy() {
        return policy != null ? policy : RolloutPolicy.defaults();
    }

    /** The real ones: the system clock, SSH, Jedis. */
    static Adapters system() {
        return builder().build();
    }

    static Builder builder() {
        return new Builder();
    }

    /** The shells: the given factory, else SSH configured by the command's options; never around a bastion. */
    ShellFactory shells(SshOptionsMixin ssh) {
        return ssh.refusingUnsupported(shells.orElseGet(ssh::shellFactory));
    }

    /** Builds {@link Adapters}; what is not set is the system's. */
    static final class Builder {
        private Clock clock = Clock.systemDefaultZone();
        private Sleeper sleeper = Sleeper.system();
        private Optional<ShellFactory> shells = Optional.empty();
        private RedisConnector redis;
        private RolloutPolicy policy;
        private Path runsHome = Path.of("fleetfix-runs");

        Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        Builder sleeper(Sleeper value) {
            this.sleeper = value;
            return this;
        }

        Builder shells(ShellFactory value) {
            this.shells = Optional.of(value);
            return this;
        }

        Builder redis(RedisConnector value) {
            this.redis = value;
            return this;
        }

        Builder policy(RolloutPolicy value) {
            this.policy = Objects.requireNonNull(value, "policy");
            return this;
        }

        Builder runsHome(Path value) {
            this.runsHome = value;
            return this;
        }

        Adapters build() {
            return new Adapters(clock, sleeper, shells, redis != null ? redis : new JedisConnector(), policy, runsHome);
        }
    }

    /** Connects the control node's load generator to a host's Redis, with this connect and read timeout. */
    Function<Host, BenchTarget> benchTargets(Duration timeout) {
        return host -> JedisBenchTarget.connect(host, timeout);
    }

    /**
     * The benchmark's engines, the same for {@code fleetfix bench} and the {@code benchmark} step: this machine's
     * load generator and fork-under-load profile, its Redis connections with this connect and read timeout.
     */
    BenchEngines benchEngines(Duration redisTimeout) {
        return new BenchEngines(
                benchTargets(redisTimeout), new BuiltinBenchmark(LoadGenerator.system()), forkUnderLoad());
    }

    /** A pool of the shells as {@code ssh} says unless they are given: one per host, closed with the pool. */
    ShellPool shellPool(SshOptionsMixin ssh) {
        return new ShellPool(shells(ssh));
    }

    /**
     * {@code fleetfix bench}'s service: the builtin generator and fork-under-load from this machine,
     * redis-benchmark on the host through {@code shells}.
     */
    HostBenchmark hostBenchmark(Function<Host, RemoteShell> shells, Duration redisTimeout) {
        return benchEngines(redisTimeout).on(shells);
    }

    /** The fork-under-load profile, timed by this machine's clock. */
    ForkUnderLoad forkUnderLoad() {
        return ForkUnderLoad.system();
    }

    /**
     * The ports of a run, built here once and handed unchanged to every step: the shells as {@code ssh} says
     * unless they are given.
     */
    RunPorts runPorts(SshOptionsMixin ssh) {
        return new RunPorts(shells(ssh), redis, clock, sleeper);
    }

    /** The apply service, through {@link #runPorts}; a playbook's warnings go to {@code warnings}. */
    ApplyService applyService(SshOptionsMixin ssh, Consumer<String> warnings) {
        return new ApplyService(
                StepRegistry.standard(new AuditorFacts(new HostAuditor()), benchEngines(BENCH_REDIS_TIMEOUT)),
                runPorts(ssh),
                policy(),
                runsHome,
                warnings);
    }

    /**
     * Makes commands, giving those that take them the adapters, built when the first such command is made: a
     * command line that makes none ({@code --version}, a subcommand's help) never builds them.
     */
    static final class Factory implements CommandLine.IFactory {
        private final Supplier<Adapters> make;
        private Adapters adapters;

        private Factory(Supplier<Adapters> make) {
            this.make = Objects.requireNonNull(make, "make");
        }

        /** The factory of the adapters {@code make} builds on first use. */
        static Factory lazy(Supplier<Adapters> make) {
            return new Factory(make);
        }

        /** The adapters, built now if no command has asked for them yet. */
        synchronized Adapters adapters() {
            if (adapters == null) {
                adapters = Objects.requireNonNull(make.get(), "adapters");
            }
            return adapters;
        }

        /** Whether the adapters have been built (tests: a command line that needs none builds none). */
        synchronized boolean built() {
            return adapters != null;
        }

        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                var constructor = type.getDeclaredConstructor(Adapters.class);
                constructor.setAccessible(true);
                return constructor.newInstance(adapters());
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
