package dev.fleetfix.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback port that accepts, counts and closes every connection: an inventory pointing a host's SSH and Redis
 * at it tells whether a command opened any socket to the host.
 */
final class CountingPort implements AutoCloseable {
    private final ServerSocket server;
    private final AtomicInteger accepted = new AtomicInteger();
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
                accepted.incrementAndGet();
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

    /** Every connection made so far: a connect completes in the kernel's backlog before accept() sees it. */
    int connections() throws InterruptedException {
        int before;
        do {
            before = accepted.get();
            Thread.sleep(120);
        } while (accepted.get() != before);
        return accepted.get();
    }

    @Override
    public void close() throws Exception {
        open = false;
        thread.join();
        server.close();
    }
}
