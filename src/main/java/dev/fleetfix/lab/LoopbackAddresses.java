package dev.fleetfix.lab;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
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

    /** Where one lab host will listen. */
    record Endpoint(String address, int sshPort, int redisPort) {}

    private LoopbackAddresses() {}

    static List<Endpoint> pick(int count, Set<String> claimed) {
        List<Endpoint> picked = new ArrayList<>();
        for (int third = 0; third < 256 && picked.size() < count; third++) {
            for (int fourth = FIRST; fourth <= LAST && picked.size() < count; fourth++) {
                String address = "127.0." + third + "." + fourth;
                if (claimed.contains(address)) {
                    continue;
                }
                int ssh = firstFree(address, SSH_PORTS);
                int redis = firstFree(address, REDIS_PORTS);
                if (ssh > 0 && redis > 0) {
                    picked.add(new Endpoint(address, ssh, redis));
                }
            }
        }
        if (picked.size() < count) {
            throw new LabException("only " + picked.size() + " free loopback addresses for " + count + " lab hosts");
        }
        return picked;
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
