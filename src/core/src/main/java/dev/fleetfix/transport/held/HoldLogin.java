package dev.fleetfix.transport.held;

import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.transport.SshOptions;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the holder needs to log in to a host as the run would: the host's SSH fields, the run's SSH options (with the
 * ssh config's {@code CertificateFile} certificates, so that a held login offers what a direct one does), and the
 * run's home, user and the two environment variables a login reads (the agent's socket and the passphrase's
 * variable). Two runs share a held connection only when all of it is equal. The passphrase travels in memory, over
 * the user's own socket, and is never written down.
 */
public record HoldLogin(Host host, SshOptions options, Path home, String localUser, Map<String, String> env) {
    static final String AGENT = "SSH_AUTH_SOCK";

    public HoldLogin {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(localUser, "localUser");
        env = Map.copyOf(env);
    }

    /** The login of {@code host} from this process: its home, user and environment. */
    public static HoldLogin of(Host host, SshOptions options) {
        Map<String, String> env = new LinkedHashMap<>();
        Optional.ofNullable(System.getenv(AGENT)).ifPresent(v -> env.put(AGENT, v));
        options.passphraseEnv()
                .ifPresent(name -> Optional.ofNullable(System.getenv(name)).ifPresent(v -> env.put(name, v)));
        return new HoldLogin(
                sshOnly(host), options, Path.of(System.getProperty("user.home")), System.getProperty("user.name"), env);
    }

    /** The host as far as SSH sees it: the rest (Redis, groups, vars) does not reach the holder. */
    static Host sshOnly(Host host) {
        return sshHost(
                host.name(),
                host.address(),
                host.port(),
                host.user(),
                host.keyFile(),
                host.become(),
                host.jump(),
                host.knownHosts());
    }

    private static Host sshHost(
            String name,
            String address,
            int port,
            Optional<String> user,
            Optional<Path> keyFile,
            boolean become,
            Optional<String> jump,
            Optional<Path> knownHosts) {
        return new Host(
                name,
                address,
                port,
                user,
                keyFile,
                become,
                jump,
                knownHosts,
                Connection.SSH,
                RedisEndpoint.defaultsFor(address),
                List.of(),
                Map.of(),
                Optional.empty());
    }

    void write(DataOutputStream out) throws IOException {
        HoldWire.writeString(out, host.name());
        HoldWire.writeString(out, host.address());
        out.writeInt(host.port());
        HoldWire.writeOptional(out, host.user());
        HoldWire.writeOptional(out, host.keyFile().map(Path::toString));
        out.writeBoolean(host.become());
        HoldWire.writeOptional(out, host.jump());
        HoldWire.writeOptional(out, host.knownHosts().map(Path::toString));
        HoldWire.writeOptional(out, options.knownHostsOverride().map(Path::toString));
        out.writeBoolean(options.acceptNewHostKeys());
        out.writeLong(options.connectTimeout().toMillis());
        HoldWire.writeOptional(out, options.passphraseEnv());
        HoldWire.writeStrings(
                out, options.certificateFiles().stream().map(Path::toString).toList());
        HoldWire.writeString(out, home.toString());
        HoldWire.writeString(out, localUser);
        HoldWire.writeMap(out, env);
    }

    static HoldLogin read(DataInputStream in) throws IOException {
        String name = HoldWire.readString(in);
        String address = HoldWire.readString(in);
        int port = in.readInt();
        Optional<String> user = HoldWire.readOptional(in);
        Optional<Path> keyFile = HoldWire.readOptional(in).map(Path::of);
        boolean become = in.readBoolean();
        Optional<String> jump = HoldWire.readOptional(in);
        Optional<Path> knownHosts = HoldWire.readOptional(in).map(Path::of);
        Optional<Path> knownHostsOverride = HoldWire.readOptional(in).map(Path::of);
        boolean acceptNew = in.readBoolean();
        Duration connectTimeout = Duration.ofMillis(in.readLong());
        Optional<String> passphraseEnv = HoldWire.readOptional(in);
        List<Path> certificateFiles =
                HoldWire.readStrings(in).stream().map(Path::of).toList();
        Path home = Path.of(HoldWire.readString(in));
        String localUser = HoldWire.readString(in);
        Map<String, String> env = HoldWire.readMap(in);
        try {
            Host host = sshHost(name, address, port, user, keyFile, become, jump, knownHosts);
            return new HoldLogin(
                    host,
                    new SshOptions(knownHostsOverride, acceptNew, connectTimeout, passphraseEnv)
                            .withCertificateFiles(certificateFiles),
                    home,
                    localUser,
                    env);
        } catch (IllegalArgumentException e) {
            throw new IOException("not the holder's wire: " + e.getMessage(), e);
        }
    }

    /** "deploy@10.1.2.3:22": how the holder's status names the connection (never the passphrase). */
    @Override
    public String toString() {
        return host.name() + " " + host.user().orElse(localUser) + "@" + host.address() + ":" + host.port()
                + host.jump().map(j -> " via " + j).orElse("");
    }
}
