package dev.fleetfix.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/** Is a lab host's sshd or Redis answering? Raw protocol greetings, no client library. */
final class LabProbe {
    private static final int TIMEOUT_MILLIS = 1000;

    private LabProbe() {}

    /** sshd sends its {@code SSH-2.0-...} banner first. */
    static boolean sshUp(String address, int port) {
        try (Socket socket = connect(address, port)) {
            return readLine(socket.getInputStream()).startsWith("SSH-");
        } catch (IOException e) {
            return false;
        }
    }

    /** Redis answers PING with +PONG, or -NOAUTH when it has a password; -LOADING is not up yet. */
    static boolean redisUp(String address, int port) {
        try (Socket socket = connect(address, port)) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = readLine(socket.getInputStream());
            return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The first element of Redis's ROLE reply ({@code master}, {@code slave}, {@code sentinel}), or empty when it
     * does not answer or wants a password.
     */
    static Optional<String> role(String address, int port) {
        try (Socket socket = connect(address, port)) {
            OutputStream out = socket.getOutputStream();
            out.write("ROLE\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            if (!readLine(in).startsWith("*") || !readLine(in).startsWith("$")) {
                return Optional.empty();
            }
            return Optional.of(readLine(in).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * What server answers, from INFO server: {@code redis 7.0.15}, {@code valkey 8.1.1} (Valkey keeps
     * {@code redis_version} at 7.2.4 and tells its own in {@code valkey_version}). Empty when it does not answer or
     * refuses the password.
     */
    static Optional<String> server(String address, int port, Optional<String> password) {
        try (Socket socket = connect(address, port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            if (password.isPresent()) {
                out.write(command("AUTH", password.get()));
                out.flush();
                if (!readLine(in).startsWith("+OK")) {
                    return Optional.empty();
                }
            }
            out.write(command("INFO", "server"));
            out.flush();
            String header = readLine(in).strip();
            if (!header.startsWith("$")) {
                return Optional.empty();
            }
            int length = Integer.parseInt(header.substring(1));
            String info = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            return serverOf(info);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code flavour version} from the text of INFO server. */
    static Optional<String> serverOf(String info) {
        Map<String, String> fields = LabRedisCli.fields(info);
        String flavour = fields.getOrDefault("server_name", "redis");
        String version = fields.containsKey("valkey_version")
                ? fields.get("valkey_version")
                : fields.get(flavour + "_version") != null
                        ? fields.get(flavour + "_version")
                        : fields.get("redis_version");
        return Optional.ofNullable(version).map(v -> flavour + " " + v);
    }

    private static byte[] command(String... args) {
        StringBuilder resp = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            resp.append('$')
                    .append(arg.getBytes(StandardCharsets.UTF_8).length)
                    .append("\r\n")
                    .append(arg)
                    .append("\r\n");
        }
        return resp.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Socket connect(String address, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(address, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\n' && line.length() < 256) {
            line.append((char) c);
        }
        return line.toString();
    }
}
