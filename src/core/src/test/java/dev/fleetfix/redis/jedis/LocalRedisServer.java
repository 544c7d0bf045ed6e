package dev.fleetfix.redis.jedis;

import dev.fleetfix.inventory.RedisEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/** A redis-server started for one test class on 127.0.0.1 and a free port, with its own directory. */
public final class LocalRedisServer implements AutoCloseable {
    public final int port;
    public final Path dir;
    private final Process process;

    private LocalRedisServer(int port, Path dir, Process process) {
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    public static LocalRedisServer start(String... extraArgs) {
        return startBinary("redis-server", extraArgs);
    }

    /** The same, with another redis-server binary (an old build, {@code LabRedisBuild}). */
    public static LocalRedisServer startBinary(String binary, String... extraArgs) {
        try {
            Path dir = Files.createTempDirectory("fleetfix-redis-");
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(
                    binary,
                    "--port",
                    Integer.toString(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    dir.toString()));
            command.addAll(List.of(extraArgs));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile())
                    .start();
            LocalRedisServer server = new LocalRedisServer(port, dir, process);
            server.awaitPing();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot start redis-server (is it installed? apt-get install redis-server)", e);
        }
    }

    public RedisEndpoint endpoint() {
        return new RedisEndpoint("127.0.0.1", port, dev.fleetfix.inventory.RedisAuth.NONE, false, "redis-server");
    }

    public Jedis client() {
        return new Jedis("127.0.0.1", port);
    }

    private void awaitPing() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
            }
            try (Jedis jedis = client()) {
                jedis.ping();
                return;
            } catch (RuntimeException e) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ie);
                }
            }
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within 10 s");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
