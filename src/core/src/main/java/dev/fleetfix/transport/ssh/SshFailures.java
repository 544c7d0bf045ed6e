package dev.fleetfix.transport.ssh;

import dev.fleetfix.Durations;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.ShellQuote;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.CertAuthority;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.CertificateRefused;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Changed;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Outcome;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Revoked;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.RevokedAuthority;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Unknown;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.UntrustedCertificate;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import net.schmizz.sshj.common.DisconnectReason;
import net.schmizz.sshj.common.SSHException;
import net.schmizz.sshj.userauth.UserAuthException;

/**
 * Turns what SSHJ and the socket layer throw into {@link TransportException}s whose message says
 * what went wrong with which host and what to do about it. Pure functions of their arguments.
 */
final class SshFailures {
    private SshFailures() {}

    /**
     * What was being attempted when a connection failed.
     *
     * @param via "" for a direct connection, else "jump host user@bastion:22: "
     * @param address where we connected to
     * @param port its port
     * @param connectTimeout the configured connect timeout
     * @param timedOut whether the connect deadline fired
     * @param knownHosts the known_hosts file in use
     * @param hostKey what the host key check found, if it refused or accepted a key
     * @param user the login user
     * @param keys the private keys offered, as the user wrote them, or "ssh-agent"
     */
    record Attempt(
            String via,
            String address,
            int port,
            Duration connectTimeout,
            boolean timedOut,
            Path knownHosts,
            Optional<Outcome> hostKey,
            String user,
            List<String> keys) {}

    /** Maps a failure to connect, verify the host key or log in. */
    static TransportException connectFailed(Host host, Attempt attempt, Throwable error) {
        String via = attempt.via();
        if (attempt.timedOut() || hasCause(error, SocketTimeoutException.class)) {
            return new TransportException(
                    host,
                    Kind.TIMEOUT,
                    via + "connect timed out after " + Durations.typed(attempt.connectTimeout()),
                    error);
        }
        if (attempt.hostKey().isPresent() && isHostKeyRefusal(error)) {
            return hostKeyRefused(host, attempt, attempt.hostKey().get(), error);
        }
        if (hasCause(error, UserAuthException.class)) {
            return authFailed(host, attempt, error);
        }
        if (hasCause(error, ConnectException.class)) {
            return new TransportException(
                    host,
                    Kind.UNREACHABLE,
                    via + "connection refused by " + attempt.address() + ":" + attempt.port()
                            + " (is sshd running and listening there?)",
                    error);
        }
        if (hasCause(error, NoRouteToHostException.class)) {
            return new TransportException(host, Kind.UNREACHABLE, via + "no route to " + attempt.address(), error);
        }
        if (hasCause(error, UnknownHostException.class)) {
            return new TransportException(
                    host, Kind.UNREACHABLE, via + "unknown host name '" + attempt.address() + "'", error);
        }
        return new TransportException(host, Kind.BROKEN, via + "SSH connection failed: " + describe(error), error);
    }

    private static boolean isHostKeyRefusal(Throwable error) {
        return causes(error)
                .anyMatch(t -> t instanceof SSHException ssh
                        && ssh.getDisconnectReason() == DisconnectReason.HOST_KEY_NOT_VERIFIABLE);
    }

    /** A host key refused: the message says which known_hosts line refused it, and what to do about it. */
    static TransportException hostKeyRefused(Host host, Attempt attempt, Outcome outcome, Throwable error) {
        String why = keyRefusal(attempt, outcome)
                .or(() -> certificateRefusal(attempt, outcome))
                .orElseGet(() -> "host key refused: " + describe(error));
        return new TransportException(host, Kind.HOST_KEY, attempt.via() + why, error);
    }

    /** Why a plain host key was refused: changed, revoked or unknown; empty for the others. */
    private static Optional<String> keyRefusal(Attempt attempt, Outcome outcome) {
        String file = attempt.knownHosts().toString();
        if (outcome instanceof Changed changed) {
            String where = changed.line() > 0
                    ? "known_hosts line " + changed.line() + " (" + file + ")"
                    : "the entry in " + file;
            return Optional.of("host key changed since " + where + ": " + attempt.address() + " now offers "
                    + changed.keyType() + " key " + changed.fingerprint()
                    + "; this may be an attack, so fleetfix refuses it. If the host was rebuilt, remove"
                    + " the old entry with: ssh-keygen -R " + ShellQuote.quote(changed.hostEntry()) + " -f "
                    + ShellQuote.quote(file));
        }
        if (outcome instanceof Revoked revoked) {
            return Optional.of("host key is revoked: " + attempt.address() + " offers " + revoked.keyType()
                    + " key " + revoked.fingerprint() + ", which known_hosts line " + revoked.line() + " ("
                    + file + ") marks @revoked; fleetfix never accepts a revoked key, whatever other lines"
                    + " say (as OpenSSH does not)");
        }
        if (outcome instanceof Unknown unknown) {
            return Optional.of("host key is not known: " + unknown.hostEntry() + " offers " + unknown.keyType()
                    + " key " + unknown.fingerprint() + " and " + file + " has no entry for it. To trust"
                    + " it, check the fingerprint and run: ssh-keyscan -p " + attempt.port() + " "
                    + attempt.address() + " >> " + ShellQuote.quote(file)
                    + ", or run fleetfix with --accept-new-host-keys");
        }
        return Optional.empty();
    }

    /** Why a @cert-authority line or a host certificate refused the host; empty for the others. */
    private static Optional<String> certificateRefusal(Attempt attempt, Outcome outcome) {
        String file = attempt.knownHosts().toString();
        if (outcome instanceof CertAuthority ca) {
            return Optional.of("host key not verifiable: known_hosts line " + ca.line() + " (" + file
                    + ") trusts a @cert-authority for " + ca.hostEntry() + ", but the host offered its plain "
                    + ca.keyType() + " key " + ca.fingerprint() + ", no certificate, and that key is listed"
                    + " nowhere; give its sshd a HostCertificate, or check the fingerprint and add the key:"
                    + " ssh-keyscan -p " + attempt.port() + " " + attempt.address() + " >> "
                    + ShellQuote.quote(file));
        }
        if (outcome instanceof RevokedAuthority revoked) {
            return Optional.of("host certificate is revoked: " + attempt.address() + " offers a certificate"
                    + " signed by " + revoked.keyType() + " CA key " + revoked.fingerprint()
                    + ", which known_hosts line " + revoked.line() + " (" + file + ") marks @revoked;"
                    + " fleetfix never accepts a certificate of a revoked CA (as OpenSSH does not)");
        }
        if (outcome instanceof CertificateRefused refused) {
            return Optional.of("host certificate refused: " + attempt.address() + " offers a "
                    + refused.certType() + " signed by CA key " + refused.caFingerprint()
                    + ", which known_hosts line " + refused.line() + " (" + file + ") trusts, but "
                    + refused.reason() + "; fleetfix does not log in (as OpenSSH does not)");
        }
        if (outcome instanceof UntrustedCertificate cert) {
            String other = cert.line() > 0
                    ? "known_hosts line " + cert.line() + " (" + file + ") trusts another CA for " + cert.hostEntry()
                    : file + " has no @cert-authority line for " + cert.hostEntry();
            return Optional.of("host certificate not trusted: " + attempt.address() + " offers a "
                    + cert.certType() + " signed by CA key " + cert.caFingerprint() + ", " + other
                    + ", and the host's plain key is listed nowhere; to trust the CA, add: @cert-authority "
                    + cert.hostEntry() + " <the CA's public key> to " + file);
        }
        return Optional.empty();
    }

    static TransportException authFailed(Host host, Attempt attempt, Throwable error) {
        Optional<Throwable> unusable = causes(error)
                .filter(SshLogin.KeyUnusableException.class::isInstance)
                .findFirst();
        if (unusable.isPresent()) {
            return new TransportException(
                    host, Kind.AUTH, attempt.via() + unusable.get().getMessage(), error);
        }
        String keys = offered(attempt.keys());
        String hint = "";
        if (causes(error)
                .anyMatch(t -> t.getClass().getSimpleName().equals("KeyDecryptionFailedException")
                        || t.getMessage() != null
                                && t.getMessage().toLowerCase().contains("passphrase"))) {
            hint = "; the key is encrypted and could not be decrypted: put its passphrase in an environment"
                    + " variable and pass --key-passphrase-env VAR";
        }
        return new TransportException(
                host,
                Kind.AUTH,
                attempt.via() + "authentication failed for user " + attempt.user() + " with " + keys + hint,
                error);
    }

    /**
     * "key ~/.ssh/id_ed25519", "ssh-agent (/run/agent.sock) and keys ~/.ssh/id_ecdsa, ~/.ssh/id_rsa", "certificate
     * ~/.ssh/id_ed25519-cert.pub and key ~/.ssh/id_ed25519 and password (ansible_password)".
     */
    private static String offered(List<String> keys) {
        List<String> parts = new ArrayList<>(
                keys.stream().filter(k -> k.startsWith("ssh-agent")).toList());
        List<String> certs = keys.stream()
                .filter(k -> k.startsWith("certificate "))
                .map(k -> k.substring("certificate ".length()))
                .toList();
        List<String> files = keys.stream()
                .filter(k -> !k.startsWith("ssh-agent") && !k.startsWith("certificate ") && !k.startsWith("password"))
                .toList();
        if (!certs.isEmpty()) {
            parts.add((certs.size() == 1 ? "certificate " : "certificates ") + String.join(", ", certs));
        }
        if (!files.isEmpty()) {
            parts.add((files.size() == 1 ? "key " : "keys ") + String.join(", ", files));
        }
        keys.stream().filter(k -> k.startsWith("password")).forEach(parts::add);
        return parts.isEmpty() ? "no key" : String.join(" and ", parts);
    }

    /** A command ran longer than its timeout; the session was closed. */
    static TransportException commandTimedOut(Host host, Duration timeout, String script) {
        return TransportException.afterSending(
                host,
                Kind.TIMEOUT,
                "command timed out after " + Durations.typed(timeout) + ": " + shorten(script),
                null);
    }

    /** The connection broke while a command ran (it may have run, in part or whole). */
    static TransportException broken(Host host, String script, Throwable error) {
        return TransportException.afterSending(
                host,
                Kind.BROKEN,
                "connection lost while running: " + shorten(script) + " (" + describe(error) + ")",
                error);
    }

    /** No session could be opened for a command: it never reached the host. */
    static TransportException noSession(Host host, String script, Throwable error) {
        return new TransportException(
                host,
                Kind.BROKEN,
                "connection lost before running: " + shorten(script) + " (" + describe(error) + ")",
                error);
    }

    static String shorten(String script) {
        String oneLine = script.replace('\n', ' ');
        return oneLine.length() <= 160 ? oneLine : oneLine.substring(0, 157) + "...";
    }

    /** {@code ~/.ssh/id_ed25519} rather than the full home path. */
    static String tilde(Path path, Path home) {
        Path absolute = path.toAbsolutePath().normalize();
        if (absolute.startsWith(home)) {
            return "~/" + home.relativize(absolute);
        }
        return path.toString();
    }

    /** The root cause's message, or its type when it has none. */
    private static String describe(Throwable error) {
        Throwable root = causes(error).reduce((outer, inner) -> inner).orElse(error);
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type) {
        return causes(error).anyMatch(type::isInstance);
    }

    /** The error and its causes, outermost first. */
    private static Stream<Throwable> causes(Throwable error) {
        return Stream.iterate(error, Objects::nonNull, Throwable::getCause);
    }
}
