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
 * its own address; one is free when no lab container claims it (running or stopped, of any lab) and nothing
 * listens on its SSH or Redis port.
 */
final class LoopbackAddresses {
    private static final int FIRST = 11;
    private static final int LAST = 254;
    private static final int PROBE_TIMEOUT_MILLIS = 300;

    private LoopbackAddresses() {}

    static List<String> pick(int count, Set<String> claimed, int... ports) {
        List<String> picked = new ArrayList<>();
        for (int third = 0; third < 256 && picked.size() < count; third++) {
            for (int fourth = FIRST; fourth <= LAST && picked.size() < count; fourth++) {
                String address = "127.0." + third + "." + fourth;
                if (!claimed.contains(address) && free(address, ports)) {
                    picked.add(address);
                }
            }
        }
        if (picked.size() < count) {
            throw new LabException("only " + picked.size() + " free loopback addresses for " + count + " lab hosts");
        }
        return picked;
    }

    private static boolean free(String address, int... ports) {
        for (int port : ports) {
            if (listening(address, port)) {
                return false;
            }
        }
        return true;
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
