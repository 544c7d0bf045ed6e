package dev.fleetfix.checks;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What runs the Redis that listens on one port of a host, as {@link ServiceDiscovery} found it.
 *
 * @param port the port the process listens on
 * @param manager who started it, and so who can restart it
 * @param name what to restart it by: the systemd unit ({@code redis_6379.service}), the init script's name ({@code
 *     redis_6379} of {@code /etc/init.d/redis_6379}), the supervisord program, the container; empty when unknown
 * @param pid the listening process
 * @param config the config file Redis was started with, from its command line or INFO's {@code config_file}
 * @param initScript the SysV script behind the service ({@code /etc/init.d/redis_6379}), also for a unit systemd
 *     generated from it
 * @param supervisorConf the config file supervisord runs with, when it gave one ({@code -c})
 * @param why for {@link Manager#UNKNOWN} and {@link Manager#NONE}: why nothing can be said; else what told it
 * @param bootUnit the systemd unit that starts it at boot: the unit itself, or supervisord's own unit; what {@code
 *     persist_thp}'s unit must come before
 * @param container for {@link Manager#CONTAINER}: what its runtime said of it, when it was asked
 */
public record RunningService(
        int port,
        Manager manager,
        Optional<String> name,
        OptionalLong pid,
        Optional<String> config,
        Optional<String> initScript,
        Optional<String> supervisorConf,
        String why,
        Optional<String> bootUnit,
        Optional<Container> container) {

    /** Who started the process. */
    public enum Manager {
        /** A systemd unit: restarted with {@code systemctl restart NAME}. */
        SYSTEMD,
        /** A SysV init script on a host without systemd as PID 1: {@code /etc/init.d/NAME restart}. */
        SYSV,
        /** A supervisord program: {@code supervisorctl restart NAME}. */
        SUPERVISORD,
        /**
         * A container on this host: restarted through the systemd unit that runs it, its compose project, or its
         * runtime ({@link Container}); one whose runtime could not be asked is not restarted.
         */
        CONTAINER,
        /** A process was found, but not who manages it. */
        UNKNOWN,
        /** Nothing listens on the port. */
        NONE;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RunningService {
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(initScript, "initScript");
        Objects.requireNonNull(supervisorConf, "supervisorConf");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(bootUnit, "bootUnit");
        Objects.requireNonNull(container, "container");
        if (name.isEmpty() && restartable(manager)) {
            throw new IllegalArgumentException(manager.word() + " service without a name");
        }
    }

    static RunningService unknown(int port, OptionalLong pid, Optional<String> config, String why) {
        return new RunningService(
                port,
                Manager.UNKNOWN,
                Optional.empty(),
                pid,
                config,
                Optional.empty(),
                Optional.empty(),
                why,
                Optional.empty(),
                Optional.empty());
    }

    static RunningService none(int port, String why) {
        return new RunningService(
                port,
                Manager.NONE,
                Optional.empty(),
                OptionalLong.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                why,
                Optional.empty(),
                Optional.empty());
    }

    private static boolean restartable(Manager m) {
        return m == Manager.SYSTEMD || m == Manager.SYSV || m == Manager.SUPERVISORD || m == Manager.CONTAINER;
    }

    /**
     * Whether fleetfix knows how to restart it: a systemd unit, an init script, a supervisord program, or a Docker or
     * Podman container that its runtime named.
     */
    public boolean restartable() {
        return restartable(manager)
                && (manager != Manager.CONTAINER
                        || container.filter(c -> c.error().isEmpty()).isPresent());
    }

    /**
     * One line for the audit: "redis on :6379 run by systemd unit redis_6379.service (SysV script
     * /etc/init.d/redis_6379), config /etc/redis/6379.conf".
     */
    public String describe() {
        String by =
                switch (manager) {
                    case SYSTEMD -> "systemd unit " + name.orElseThrow()
                            + initScript.map(s -> " (SysV script " + s + ")").orElse("");
                    case SYSV -> "SysV script " + initScript.orElse("/etc/init.d/" + name.orElseThrow());
                    case SUPERVISORD -> "supervisord program " + name.orElseThrow()
                            + supervisorConf.map(c -> " (" + c + ")").orElse("");
                    case CONTAINER -> container.map(Container::describe).orElse("container " + name.orElseThrow());
                    case UNKNOWN -> "an unknown manager (" + why + ")";
                    case NONE -> "nothing (" + why + ")";
                };
        String process = pid.isPresent() ? " (pid " + pid.getAsLong() + ")" : "";
        if (manager == Manager.NONE) {
            return "redis on :" + port + ": " + why;
        }
        return "redis on :" + port + process + " run by " + by
                + config.map(c -> ", config " + c + containerConfig(c)).orElse("");
    }

    /** For a container's config file: where it is on the host, or that it is not there. */
    private String containerConfig(String file) {
        return container
                .map(c -> c.hostPathOf(file)
                        .map(h -> " (on the host: " + h + ")")
                        .orElse(" (inside the container, not mounted from the host: changes to it are not persisted)"))
                .orElse("");
    }

    /**
     * The discovery as host facts, under {@code redis.service.*}: {@code manager}, {@code name}, {@code pid},
     * {@code config}, {@code init_script}, {@code supervisor_conf}, {@code boot_unit}, {@code why} and the one line {@code found}.
     */
    public Map<String, String> facts() {
        Map<String, String> facts = new java.util.LinkedHashMap<>();
        facts.put("redis.service.manager", manager.word());
        name.ifPresent(n -> facts.put("redis.service.name", n));
        pid.ifPresent(p -> facts.put("redis.service.pid", Long.toString(p)));
        config.ifPresent(c -> facts.put("redis.service.config", c));
        initScript.ifPresent(s -> facts.put("redis.service.init_script", s));
        supervisorConf.ifPresent(c -> facts.put("redis.service.supervisor_conf", c));
        bootUnit.ifPresent(u -> facts.put("redis.service.boot_unit", u));
        container.ifPresent(c -> {
            facts.putAll(c.facts());
            config.ifPresent(file ->
                    facts.put("redis.service.config_on_host", c.hostPathOf(file).orElse("")));
        });
        if (manager == Manager.UNKNOWN || manager == Manager.NONE || (manager == Manager.CONTAINER && !restartable())) {
            facts.put("redis.service.why", why);
        }
        facts.put("redis.service.found", describe());
        return facts;
    }
}
