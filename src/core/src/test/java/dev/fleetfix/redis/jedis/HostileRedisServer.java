package dev.fleetfix.redis.jedis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server on the Redis port that is no Redis: it answers the first bytes of every connection with
 * one hostile {@link Shape} and then holds the connection. Anyone on a plain-TCP path can do this.
 */
public final class HostileRedisServer implements AutoCloseable {
    /** What the server answers. */
    public enum Shape {
        /** {@code *2000000000}: Jedis would allocate a list of that capacity. */
        HUGE_ARRAY,
        /** {@code *1} nested far past any stack: Jedis parses nesting by recursion. */
        DEEP_NESTING,
        /** {@code $2000000000} and then a byte now and then: Jedis would allocate 2 GB and wait. */
        HUGE_BULK,
        /** A simple string of one byte every 200 ms, never ended: each read is within any timeout. */
        DRIP,
        /** Nothing at all. */
        TARPIT
    }

    private static final int NESTING = 200_000;

    private final ServerSocket server;
    private final Shape shape;
    private final List<Socket> clients = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private HostileRedisServer(ServerSocket server, Shape shape) {
        this.server = server;
        this.shape = shape;
    }

    /** Listens on {@code address} (a loopback address), on a free port. */
    public static HostileRedisServer start(String address, Shape shape) throws IOException {
        ServerSocket server = new ServerSocket(0, 16, InetAddress.getByName(address));
        HostileRedisServer hostile = new HostileRedisServer(server, shape);
        Thread accept = new Thread(hostile::accept, "hostile-redis-" + shape);
        accept.setDaemon(true);
        accept.start();
        return hostile;
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                clients.add(client);
                Thread answer = new Thread(() -> answer(client), "hostile-redis-client");
                answer.setDaemon(true);
                answer.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void answer(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            byte[] buffer = new byte[65536];
            if (in.read(buffer) < 0) {
                return;
            }
            switch (shape) {
                case HUGE_ARRAY -> out.write(ascii("*2000000000\r\n"));
                case DEEP_NESTING -> out.write(ascii("*1\r\n".repeat(NESTING) + ":1\r\n"));
                case HUGE_BULK -> out.write(ascii("$2000000000\r\n"));
                case DRIP -> out.write(ascii("+"));
                case TARPIT -> {}
            }
            out.flush();
            while (!closed) {
                if (shape == Shape.HUGE_BULK || shape == Shape.DRIP) {
                    out.write('x');
                    out.flush();
                }
                Thread.sleep(200);
            }
        } catch (IOException e) {
            // the client gave up: that is what it should do
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket client : clients) {
            client.close();
        }
    }
}
