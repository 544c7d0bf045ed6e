package dev.fleetfix.lab;

import dev.fleetfix.Counts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The scale lab ({@code fleetfix lab up --preset scale}): hundreds of cheap SSH hosts in one container, to measure
 * the control node, not the hosts. Each host has its own loopback address (127.0.1.11 onwards, leaving 127.0.0.x to
 * full labs) where an sshd and a Redis answer, but no init and no PAM session: the container's PID 1 is a shell
 * script that starts one sshd per {@value #GROUP} hosts (an sshd listens on 16 addresses at most) and one
 * redis-server per {@value #GROUP} hosts (Redis binds 16 addresses at most). So hosts of one group share a Redis
 * process, its keys and its PID, and every host shares one THP file set ({@code always}). A login runs the real
 * sshd, key authentication, sudo and the audit's facts script; nothing on a scale host can restart Redis, reboot
 * or persist a setting: that stays on the full lab.
 *
 * <pre>
 * DIR/scale/           read-only at /etc/fleetfix-lab: start.sh (PID 1), sshd-G.conf, redis-G.conf, keys
 * DIR/scale-hosts.tsv  name, address, ssh port, Redis port: what {@code lab status} reads back
 * </pre>
 */
final class LabScale {
    /** Hosts per sshd and per redis-server: OpenSSH's MAX_LISTEN_SOCKS and Redis's CONFIG_BINDADDR_MAX. */
    static final int GROUP = 16;

    /** The scale lab's first loopback address is 127.0.FIRST_THIRD.11. */
    static final int FIRST_THIRD = 1;

    static final String HOSTS_FILE = "scale-hosts.tsv";
    private static final String MOUNT = "/etc/fleetfix-lab";
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final String id;
    private final Path dir;
    private final LabDocker docker;

    LabScale(String id, Path dir, LabDocker docker) {
        this.id = id;
        this.dir = dir;
        this.docker = docker;
    }

    /**
     * Starts a scale lab of {@code count} hosts in one container, on the Debian 12 image (never with real THP: see
     * {@link LabFleet#start(LabPreset, java.util.List, LabSettings)}); on failure removes what it made. Returns the
     * container by host.
     */
    static Map<LabHost, String> startLab(String id, Path dir, LabDocker docker, int count, LabSettings settings) {
        String image = LabImage.ensure(docker, settings.home(), settings.progress(), LabImage.Suite.BOOKWORM);
        try {
            settings.progress().accept("starting " + count + " scale hosts in one container");
            return new LabScale(id, dir, docker).start(count, image);
        } catch (RuntimeException e) {
            docker.removeLab(id);
            LabBuilder.deleteTree(dir);
            throw e;
        }
    }

    /** Writes the lab's files, creates and starts its one container; returns it by host, all the same id. */
    Map<LabHost, String> start(int count, String image) {
        LabProperties.write(dir, id, LabBuilder.USER);
        String userKey = SshKeys.generate(LabBuilder.privateKey(dir), LabBuilder.USER + "@fleetfix-lab-" + id);
        Path etc = dir.resolve("scale");
        String hostKey = SshKeys.generate(etc.resolve("ssh_host_ed25519_key"), "root@fleetfix-scale-" + id);
        LabHostFiles.write(etc.resolve("authorized_keys"), userKey + "\n");
        LabHostFiles thp = new LabHostFiles(dir, "scale");
        thp.writeThp(LabHostSpec.named("scale"));
        String container = LabBuilder.underAddressLock(() -> {
            List<LabHost> hosts = pick(count);
            writeFiles(etc, hosts, hostKey);
            return docker.create(
                    image,
                    LabBuilder.containerName(id, "scale"),
                    "fleetfix-scale",
                    labels(hosts),
                    List.of(new LabDocker.Mount(etc, MOUNT, true), thp.thpMount()),
                    List.of("fleetfix-scale:127.0.0.1"),
                    LabInit.NONE);
        });
        List<LabHost> hosts = hosts(dir);
        Map<LabHost, String> containers = new LinkedHashMap<>();
        hosts.forEach(host -> containers.put(host, container));
        docker.start(container);
        awaitReady(container, hosts);
        return containers;
    }

    /** The scale lab's hosts as {@link #start} wrote them, or empty when {@code dir} holds no scale lab. */
    static List<LabHost> hosts(Path dir) {
        Path file = dir.resolve(HOSTS_FILE);
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            List<LabHost> hosts = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split("\t");
                if (f.length == 4) {
                    hosts.add(host(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3])));
                }
            }
            return hosts;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static LabHost host(String name, String address, int sshPort, int redisPort) {
        return new LabHost(
                name,
                address,
                sshPort,
                redisPort,
                OptionalInt.empty(),
                List.of(redisPort),
                LabServer.REDIS_7_0,
                LabInit.NONE);
    }

    private List<LabHost> pick(int count) {
        List<LabHostSpec> specs = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            specs.add(LabHostSpec.named("lab-" + i));
        }
        List<LoopbackAddresses.Endpoint> endpoints =
                LoopbackAddresses.pick(specs, docker.claimedAddresses(), FIRST_THIRD);
        List<LabHost> hosts = new ArrayList<>();
        StringBuilder tsv = new StringBuilder();
        for (int i = 0; i < count; i++) {
            LoopbackAddresses.Endpoint e = endpoints.get(i);
            hosts.add(host("lab-" + (i + 1), e.address(), e.sshPort(), e.redisPort()));
            tsv.append("lab-" + (i + 1) + "\t" + e.address() + "\t" + e.sshPort() + "\t" + e.redisPort() + "\n");
        }
        LabHostFiles.write(dir.resolve(HOSTS_FILE), tsv.toString());
        return hosts;
    }

    private Map<String, String> labels(List<LabHost> hosts) {
        Map<String, String> labels = new HashMap<>();
        labels.put(LabDocker.LABEL_LAB, id);
        labels.put(LabDocker.LABEL_HOST, "scale");
        labels.put(LabDocker.LABEL_INDEX, "0");
        labels.put(LabDocker.LABEL_DIR, dir.toString());
        labels.put(LabDocker.LABEL_INIT, LabInit.NONE.name());
        // claims every address, so that a lab started later does not pick one while this container is stopped
        labels.put(
                LabDocker.LABEL_ADDRESSES, hosts.stream().map(LabHost::address).collect(Collectors.joining(",")));
        return labels;
    }

    private void writeFiles(Path etc, List<LabHost> hosts, String hostKey) {
        List<List<LabHost>> groups = groups(hosts);
        for (int g = 0; g < groups.size(); g++) {
            LabHostFiles.write(etc.resolve("sshd-" + g + ".conf"), sshdConfig(groups.get(g)));
            LabHostFiles.write(etc.resolve("redis-" + g + ".conf"), redisConfig(g, groups.get(g)));
        }
        LabHostFiles.write(etc.resolve("start.sh"), startScript());
        LabInventory.writeKnownHosts(dir, hosts, host -> hostKey);
        LabInventory.write(dir, hosts, Map.of(), Set.of(), Map.of());
    }

    /**
     * Runs of up to {@value #GROUP} hosts with the same Redis port: one redis-server binds them all. The loopback
     * picker gives the second-choice port only where the first is taken, so groups are nearly always full.
     */
    static List<List<LabHost>> groups(List<LabHost> hosts) {
        Map<Integer, List<LabHost>> byPort = new LinkedHashMap<>();
        for (LabHost host : hosts) {
            byPort.computeIfAbsent(host.redisPort(), p -> new ArrayList<>()).add(host);
        }
        List<List<LabHost>> groups = new ArrayList<>();
        for (List<LabHost> same : byPort.values()) {
            for (int i = 0; i < same.size(); i += GROUP) {
                groups.add(List.copyOf(same.subList(i, Math.min(same.size(), i + GROUP))));
            }
        }
        return groups;
    }

    static String sshdConfig(List<LabHost> group) {
        StringBuilder conf = new StringBuilder();
        conf.append("# fleetfix scale lab: one sshd for ").append(group.size()).append(" hosts\n");
        for (LabHost host : group) {
            conf.append("ListenAddress ")
                    .append(host.address())
                    .append(':')
                    .append(host.sshPort())
                    .append('\n');
        }
        // No PAM: a login is key authentication and a shell, without a PAM or systemd-logind session, so that
        // hundreds of hosts fit on two cores. MaxStartups: the default (10:30:100) drops connections at random
        // once ten are unauthenticated, which a fork count of 100 reaches at once.
        conf.append(
                """
                HostKey /etc/ssh/ssh_host_ed25519_key
                UsePAM no
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PermitRootLogin no
                AuthorizedKeysFile .ssh/authorized_keys
                MaxStartups 2000
                MaxSessions 64
                UseDNS no
                PrintMotd no
                PrintLastLog no
                PidFile none
                LogLevel ERROR
                Subsystem sftp internal-sftp
                """);
        return conf.toString();
    }

    static String redisConfig(int group, List<LabHost> hosts) {
        return "# fleetfix scale lab: one Redis for " + hosts.size() + " hosts\n"
                + "bind " + hosts.stream().map(LabHost::address).collect(Collectors.joining(" ")) + "\n"
                + "port " + hosts.get(0).redisPort() + "\n"
                + """
                protected-mode no
                daemonize no
                save ""
                appendonly no
                dir /var/lib/redis
                loglevel warning
                logfile ""
                """
                + "dbfilename scale-" + group + ".rdb\n";
    }

    /** PID 1: installs the keys, starts every sshd and Redis, and stops them all on SIGTERM ({@code docker stop}). */
    static String startScript() {
        return """
                #!/bin/bash
                # fleetfix scale lab: PID 1 of the one container that holds every scale host.
                set -u
                mkdir -p /run/sshd && chmod 0755 /run/sshd
                install -m 0600 %1$s/ssh_host_ed25519_key /etc/ssh/ssh_host_ed25519_key
                install -d -o fleetfix -g fleetfix -m 0700 /home/fleetfix/.ssh
                install -o fleetfix -g fleetfix -m 0600 %1$s/authorized_keys /home/fleetfix/.ssh/authorized_keys
                pids=()
                for conf in %1$s/redis-*.conf; do
                  setpriv --reuid=redis --regid=redis --init-groups /usr/bin/redis-server "$conf" &
                  pids+=($!)
                done
                for conf in %1$s/sshd-*.conf; do
                  /usr/sbin/sshd -D -f "$conf" &
                  pids+=($!)
                done
                trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait; exit 0' TERM INT
                echo "fleetfix scale lab: ${#pids[@]} daemons started"
                # 'wait' returns on a signal too; loop so that the trap runs and zombies of any child get reaped
                while true; do wait; sleep 1; done
                """
                .formatted(MOUNT);
    }

    private void awaitReady(String container, List<LabHost> hosts) {
        List<LabHost> pending = new ArrayList<>(hosts);
        LabWait.until(READY_TIMEOUT, "the scale lab's sshd and Redis on " + hosts.size() + " addresses", () -> {
            if (!docker.running(container)) {
                throw new LabException("the scale lab's container stopped:\n" + docker.logTail(container, 30));
            }
            pending.removeIf(
                    h -> LabProbe.sshUp(h.address(), h.sshPort()) && LabProbe.redisUp(h.address(), h.redisPort()));
            return pending.isEmpty()
                    ? Optional.empty()
                    : Optional.of(Counts.of(pending.size(), "host") + " not answering yet, first "
                            + pending.get(0).name() + " (" + pending.get(0).address() + ")");
        });
    }
}
