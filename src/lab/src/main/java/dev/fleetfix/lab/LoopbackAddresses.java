package dev.fleetfix.lab;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Picks loopback addresses for lab hosts: 127.0.0.11, 127.0.0.12, ... With host networking every lab host needs
 * its own address; one is free when no lab container claims it (running or stopped, of any lab) and its SSH and
 * Redis ports are free. A machine whose own sshd or Redis listens on all addresses (0.0.0.0:22) holds port 22 on
 * every loopback address too: the lab then uses the second choice (2222, 6380), which the inventory names.
 */
final class LoopbackAddresses {
    private static final int FIRST = 11;
    private static final int LAST = 254;
    private static final int PROBE_TIMEOUT_MILLIS = 300;
    private static final int[] SSH_PORTS = {22, 2222};
    private static final int[] REDIS_PORTS = {6379, 6380};
    private static final int[] SENTINEL_PORTS = {26379, 26380};
    /** Redis Cluster's bus listens at the Redis port plus this offset, on the same address. */
    static final int CLUSTER_BUS_OFFSET = 10000;

    /** Where one lab host will listen; {@code redisPorts} holds every instance's port, {@code redisPort} first. */
    record Endpoint(String address, int sshPort, int redisPort, OptionalInt sentinelPort, List<Integer> redisPorts) {
        Endpoint {
            redisPorts = List.copyOf(redisPorts);
        }

        /** A host with one Redis instance. */
        Endpoint(String address, int sshPort, int redisPort, OptionalInt sentinelPort) {
            this(address, sshPort, redisPort, sentinelPort, List.of(redisPort));
        }

        /** The host {@code spec} lays out, here. */
        LabHost host(LabHostSpec spec) {
            return new LabHost(
                    spec.name(),
                    address,
                    sshPort,
                    redisPort,
                    sentinelPort,
                    redisPorts,
                    spec.server(),
                    spec.init(),
                    spec.serviceShape());
        }
    }

    private LoopbackAddresses() {}

    /** One endpoint per spec, in order, each with the ports its spec needs free. */
    static List<Endpoint> pick(List<LabHostSpec> specs, Set<String> claimed) {
        return pick(specs, claimed, 0);
    }

    /** As {@link #pick(List, Set)}, from 127.0.{@code firstThird}.11 on. */
    static List<Endpoint> pick(List<LabHostSpec> specs, Set<String> claimed, int firstThird) {
        List<Endpoint> picked = new ArrayList<>();
        for (int third = firstThird; third < 256 && picked.size() < specs.size(); third++) {
            for (int fourth = FIRST; fourth <= LAST && picked.size() < specs.size(); fourth++) {
                String address = "127.0." + third + "." + fourth;
                if (!claimed.contains(address)) {
                    endpoint(address, specs.get(picked.size())).ifPresent(picked::add);
                }
            }
        }
        if (picked.size() < specs.size()) {
            throw new LabException(
                    "only " + picked.size() + " free loopback addresses for " + specs.size() + " lab hosts");
        }
        return picked;
    }

    private static Optional<Endpoint> endpoint(String address, LabHostSpec spec) {
        int ssh = firstFree(address, SSH_PORTS);
        int redis = spec.cluster()
                ? firstFreeWithBus(address)
                : spec.instances() > 1 ? firstFreeRange(address, spec.instances()) : firstFree(address, REDIS_PORTS);
        int sentinel = spec.sentinel() ? firstFree(address, SENTINEL_PORTS) : -1;
        if (ssh == 0 || redis == 0 || sentinel == 0) {
            return Optional.empty();
        }
        List<Integer> redisPorts = new ArrayList<>();
        for (int i = 0; i < spec.instances(); i++) {
            redisPorts.add(redis + i);
        }
        return Optional.of(new Endpoint(
                address, ssh, redis, sentinel > 0 ? OptionalInt.of(sentinel) : OptionalInt.empty(), redisPorts));
    }

    /** The first of {@link #REDIS_PORTS} from which {@code count} consecutive ports are free, or 0. */
    private static int firstFreeRange(String address, int count) {
        for (int base : REDIS_PORTS) {
            boolean free = true;
            for (int port = base; port < base + count && free; port++) {
                free = !listening(address, port);
            }
            if (free) {
                return base;
            }
        }
        return 0;
    }

    private static int firstFreeWithBus(String address) {
        for (int port : REDIS_PORTS) {
            if (!listening(address, port) && !listening(address, port + CLUSTER_BUS_OFFSET)) {
                return port;
            }
        }
        return 0;
    }

    /** The first of {@code ports} that nothing listens on at {@code address}, or 0. */
    private static int firstFree(String address, int... ports) {
        for (int port : ports) {
            if (!listening(address, port)) {
                return port;
            }
        }
        return 0;
    }

    static boolean listening(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), PROBE_TIMEOUT_MILLIS);
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            // a timeout on loopback means something holds the port but does not answer: not free
            return true;
        }
    }
}
