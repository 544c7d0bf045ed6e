package dev.fleetfix.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A loopback port that accepts, counts and closes every connection: an inventory pointing a host's SSH and Redis
 * at it tells whether a command opened any socket to the host.
 */
final class CountingPort implements AutoCloseable {
    private final ServerSocket server;
    /** The client port of each connection accepted, in the order accepted. */
    private final List<Integer> accepted = new CopyOnWriteArrayList<>();
    /** The client ports of this test's own connections ({@link #connections}), not counted. */
    private final Set<Integer> markers = ConcurrentHashMap.newKeySet();

    private final Thread thread;
    private volatile boolean open = true;

    CountingPort() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        server.setSoTimeout(50);
        thread = new Thread(this::serve, "counting-port");
        thread.start();
    }

    private void serve() {
        while (open) {
            try (Socket socket = server.accept()) {
                accepted.add(socket.getPort());
            } catch (SocketTimeoutException e) {
                // look at the flag again
            } catch (IOException e) {
                return;
            }
        }
    }

    int port() {
        return server.getLocalPort();
    }

    /**
     * Every connection made so far. A connect completes in the kernel's backlog before accept() sees it, and the
     * backlog is taken in order: once a connection made now is accepted, so is every one made before (a quiet spell
     * of 120 ms guessed that, and a loaded machine's accepting thread can be later than that).
     */
    int connections() throws IOException, InterruptedException {
        try (Socket marker = new Socket(InetAddress.getLoopbackAddress(), port())) {
            int mark = marker.getLocalPort();
            markers.add(mark);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!accepted.contains(mark)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the counting port accepted nothing for a minute");
                }
                Thread.sleep(10);
            }
            return (int) accepted.subList(0, accepted.lastIndexOf(mark)).stream()
                    .filter(port -> !markers.contains(port))
                    .count();
        }
    }

    @Override
    public void close() throws Exception {
        open = false;
        thread.join();
        server.close();
    }
}
