package dev.fleetfix.lab;

import com.github.dockerjava.api.model.Container;
import dev.fleetfix.transport.ExecResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A disposable fleet of real Redis hosts: one container per host, with systemd (or a SysV-style init) as PID 1,
 * its own sshd and Redis (Debian's, Valkey, or an old build; one instance or several) on its own loopback address,
 * and its own THP files.
 *
 * <p>Tests start one with {@link #start(List)} and close it; {@code fleetfix lab up} starts one that outlives the
 * JVM, and {@link #attach(Path)} finds it again through its directory and the containers' labels.
 */
public final class LabFleet implements AutoCloseable {
    public static final int MAX_HOSTS = 50;

    /** The master name under which a lab's Sentinels monitor its primary. */
    public static final String SENTINEL_MASTER = "lab";

    private static final Duration EXEC_TIMEOUT = Duration.ofMinutes(5);

    private final String id;
    private final Path dir;
    private final LabDocker docker;
    private final Map<String, LabHost> hosts;
    private final Map<String, String> containers;
    private final Thread exitHook;
    private boolean closed;

    LabFleet(String id, Path dir, LabDocker docker, Map<LabHost, String> containers, boolean outliveJvm) {
        this.id = id;
        this.dir = dir;
        this.docker = docker;
        this.hosts = new LinkedHashMap<>();
        this.containers = new LinkedHashMap<>();
        containers.forEach((host, container) -> {
            this.hosts.put(host.name(), host);
            this.containers.put(host.name(), container);
        });
        this.exitHook = outliveJvm ? null : new Thread(this::removeEverything, "fleetfix-lab-" + id + "-exit");
        if (exitHook != null) {
            Runtime.getRuntime().addShutdownHook(exitHook);
        }
    }

    /** Starts hosts as specified, for a test: removed on {@link #close()}, or at JVM exit at the latest. */
    public static LabFleet start(List<LabHostSpec> specs) {
        return start(specs, LabSettings.forTests());
    }

    /** Starts {@code hosts} hosts {@code lab-1}..{@code lab-N} as the preset lays them out, for a test. */
    public static LabFleet start(int hosts, LabPreset preset) {
        return start(preset.specs(hosts), LabSettings.forTests());
    }

    /**
     * Starts the preset's hosts ({@code specs}, as {@link LabPreset#specs} laid them out): a scale lab in one
     * container, any other preset as {@link #start(List, LabSettings)}.
     */
    public static LabFleet start(LabPreset preset, List<LabHostSpec> specs, LabSettings settings) {
        return preset == LabPreset.SCALE ? LabBringUp.scale(specs, settings) : start(specs, settings);
    }

    /**
     * Starts the hosts and returns once they are ready to work on: sshd and Redis answer, every replica's link to
     * its primary is up, a Redis Cluster is formed and {@code cluster_state:ok} on every node, and every Sentinel
     * knows the primary, its replicas and the other Sentinels.
     */
    public static LabFleet start(List<LabHostSpec> specs, LabSettings settings) {
        return LabBringUp.start(specs, settings);
    }

    /** The lab whose directory is {@code dir}, as {@code fleetfix lab up} left it. */
    public static LabFleet attach(Path dir) {
        return LabBringUp.attach(dir);
    }

    /** Lab directories under {@code home}, oldest first. */
    public static List<Path> find(Path home) {
        return LabProperties.find(home);
    }

    public String id() {
        return id;
    }

    public Path directory() {
        return dir;
    }

    public List<LabHost> hosts() {
        return List.copyOf(hosts.values());
    }

    public LabHost host(String name) {
        LabHost host = hosts.get(name);
        if (host == null) {
            throw new IllegalArgumentException(
                    "lab " + id + " has no host '" + name + "' (hosts: " + String.join(", ", hosts.keySet()) + ")");
        }
        return host;
    }

    /** Ansible YAML inventory of the fleet: pass it to {@code fleetfix -i}. */
    public Path inventoryFile() {
        return LabInventory.file(dir);
    }

    public Path knownHostsFile() {
        return LabInventory.knownHostsFile(dir);
    }

    /**
     * The lab's vault password file, when a host's secrets are vaulted ({@code host_vars/HOST.yml}): a run gives it
     * with {@code --vault-password-file}.
     */
    public Optional<Path> vaultPasswordFile() {
        Path file = LabVault.passwordFile(dir);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    public Path privateKey() {
        return LabBuilder.privateKey(dir);
    }

    /** The login user on every host; it has passwordless sudo. */
    public String user() {
        return LabBuilder.USER;
    }

    /** Runs a shell command as root on the host through {@code docker exec}, not SSH: for tests to check state. */
    public ExecResult rootExec(String host, String shellCommand) {
        return docker.exec(container(host), EXEC_TIMEOUT, "bash", "-c", shellCommand);
    }

    /** Copies {@code file} of this machine into {@code containerDir} on the host, through Docker, not SSH. */
    public void copyInto(String host, Path file, String containerDir) {
        docker.copyInto(container(host), file, containerDir);
    }

    /** The raw content of the host's THP {@code enabled} file, as the host reads it. */
    public String thp(String host) {
        return LabHostFiles.read(files(host).thpDir().resolve("enabled"));
    }

    /**
     * The mode the host's THP {@code enabled} file selects: the plain word a write left in a lab file
     * ({@code never}) or the bracketed one of a kernel's list ({@code always madvise [never]});
     * {@code always} for a freshly booted lab host ({@code [always] madvise never}); empty when it names none.
     */
    public Optional<String> thpMode(String host) {
        return LabKernelThp.selected(thp(host));
    }

    /**
     * Gives the host a kernel whose boot value of {@code name} ({@code vm.overcommit_memory} or
     * {@code net.core.somaxconn}, the parameters each lab host has its own file for) is {@code value}, and sets the
     * running value to it: as if the host had booted so. Later boots start from it, then apply the host's sysctl.d.
     */
    public void kernelDefault(String host, String name, int value) {
        if (!name.equals("vm.overcommit_memory") && !name.equals("net.core.somaxconn")) {
            throw new IllegalArgumentException("lab hosts have their own value only for vm.overcommit_memory and"
                    + " net.core.somaxconn, not " + name);
        }
        checked(
                host,
                "mkdir -p /var/lib/fleetfix-lab/sysctl-boot && echo " + value + " > /var/lib/fleetfix-lab/sysctl-boot/"
                        + name + " && echo " + value + " > /proc/sys/" + name.replace('.', '/'));
    }

    /** The running value of a kernel parameter as the host reads it ({@code cat /proc/sys/...}). */
    public String sysctl(String host, String name) {
        return checked(host, "cat /proc/sys/" + name.replace('.', '/')).strip();
    }

    /**
     * Restarts the host's container: systemd boots again and runs the host's boot-time units. The THP files go
     * back to the host's boot mode first, as a real reboot resets sysfs: only a boot-time unit can persist a
     * change. Returns when sshd, Redis and the host's Sentinel, if it runs one, answer again.
     */
    public void reboot(String host) {
        withInit(host, "reboot");
        files(host).resetThp();
        docker.restart(container(host));
        new LabBoot(docker).awaitReady(host(host), container(host), true);
    }

    /** Powers the host off: sshd and Redis stop answering. */
    public void stop(String host) {
        withInit(host, "power off");
        docker.stop(container(host));
    }

    /** Powers the host on (THP files at their boot mode) and waits for sshd, Redis and its Sentinel. */
    public void start(String host) {
        withInit(host, "power on");
        files(host).resetThp();
        docker.start(container(host));
        new LabBoot(docker).awaitReady(host(host), container(host), true);
    }

    /**
     * Kills every Redis instance of the host with SIGKILL, as a crash would: clients see their connections drop,
     * nothing is saved. Debian's units have {@code Restart=always}, so systemd starts them again within a moment,
     * as on a production host; use {@link #stopRedis(String)} for an outage that lasts. Without systemd nothing
     * restarts it.
     */
    public void killRedis(String host) {
        withInit(host, "kill Redis on");
        LabHost target = host(host);
        checked(
                host,
                target.init() == LabInit.SYSV
                        ? "pkill -KILL -x " + target.server().service()
                        : "systemctl kill --signal=SIGKILL " + String.join(" ", target.services()));
    }

    /** Stops the host's Redis instances through their init; they stay down until started or the host reboots. */
    public void stopRedis(String host) {
        service(host, host(host).services(), "stop");
    }

    public void startRedis(String host) {
        service(host, host(host).services(), "start");
    }

    /** Stops sshd: new SSH connections are refused until {@link #startSshd(String)} or a reboot. */
    public void stopSshd(String host) {
        service(host, List.of("ssh"), "stop");
    }

    /** Starts sshd and returns when it answers. */
    public void startSshd(String host) {
        service(host, List.of("ssh"), "start");
        awaitSshd(host);
    }

    /**
     * Makes sshd read its configuration again and returns when the new one answers: a restart, which returns once the
     * old listener is gone and the new one started (sessions stay). A reload would not do: sshd re-executes itself on
     * its SIGHUP some time after {@code systemctl reload ssh} returns, so the old listener could answer the wait and
     * then refuse the test's login (it did, on a loaded machine).
     */
    public void reloadSshd(String host) {
        service(host, List.of("ssh"), "restart");
        awaitSshd(host);
    }

    private void awaitSshd(String name) {
        LabHost h = host(name);
        LabWait.until(
                Duration.ofSeconds(30),
                "sshd on " + name,
                () -> LabProbe.sshUp(h.address(), h.sshPort())
                        ? Optional.empty()
                        : Optional.of("sshd does not answer on " + h.address() + ":" + h.sshPort()));
    }

    /** The name of the host's PID 1 as {@code /proc/1/comm} gives it: {@code systemd}, {@code sysv-init}. */
    public String pid1(String host) {
        ExecResult result = rootExec(host, "cat /proc/1/comm");
        if (!result.ok()) {
            throw new LabException("lab host " + host + ": cannot read /proc/1/comm: " + result.errorText());
        }
        return result.stdout().strip();
    }

    private void service(String host, List<String> services, String action) {
        withInit(host, action + " a service on");
        if (host(host).init() == LabInit.SYSV) {
            for (String service : services) {
                checked(host, "/etc/init.d/" + service + " " + action);
            }
        } else {
            checked(host, "systemctl " + action + " " + String.join(" ", services));
        }
    }

    /** A scale host shares its container and Redis with others and has no init: refuse what needs one. */
    private void withInit(String host, String action) {
        if (host(host).init() == LabInit.NONE) {
            throw new LabException("cannot " + action + " " + host + ": it is a scale lab host (sshd and a shared"
                    + " Redis, no init); use a full lab (fleetfix lab up without --preset scale)");
        }
    }

    /** Each host's container state, whether its sshd, Redis and Sentinel answer, and its Redis role. */
    public List<LabHostStatus> status() {
        Map<String, String> states = new LinkedHashMap<>();
        for (Container container : docker.withLabel(LabDocker.LABEL_LAB, id)) {
            states.put(container.getId(), container.getState());
        }
        List<LabHostStatus> status = new ArrayList<>();
        for (LabHost host : hosts.values()) {
            status.add(LabHostStatus.probe(
                    host,
                    states.getOrDefault(containers.get(host.name()), "missing"),
                    files(host.name()).password()));
        }
        return status;
    }

    /** Removes this lab's containers (found by label, so only these) and its directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        removeEverything();
        if (exitHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (IllegalStateException e) {
                // the JVM is exiting and the hook runs anyway
            }
        }
    }

    private synchronized void removeEverything() {
        if (closed) {
            return;
        }
        closed = true;
        LabBringUp.tearDown(docker, id, dir);
    }

    String checked(String host, String command) {
        ExecResult result = rootExec(host, command);
        if (!result.ok()) {
            throw new LabException("lab host " + host + ": '" + command + "' failed with exit " + result.exitCode()
                    + ": " + result.errorText());
        }
        return result.stdout();
    }

    private String container(String host) {
        host(host);
        return containers.get(host);
    }

    private LabHostFiles files(String host) {
        host(host);
        return new LabHostFiles(dir, host);
    }
}
