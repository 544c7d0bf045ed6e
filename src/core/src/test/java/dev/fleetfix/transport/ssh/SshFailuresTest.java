package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.TransportException.Kind;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Changed;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Outcome;
import dev.fleetfix.transport.ssh.KnownHostsVerifier.Unknown;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import net.schmizz.sshj.common.DisconnectReason;
import net.schmizz.sshj.userauth.UserAuthException;
import org.junit.jupiter.api.Test;

class SshFailuresTest {

    private static final Path KNOWN_HOSTS = Path.of("/home/x/.ssh/known_hosts");
    private final Host host = TestHosts.ssh("redis-3", "10.1.2.3", 22, "fleetfix", null, null);

    private static SshFailures.Attempt attempt(boolean timedOut, Outcome outcome) {
        return new SshFailures.Attempt(
                "",
                "10.1.2.3",
                22,
                Duration.ofSeconds(5),
                timedOut,
                KNOWN_HOSTS,
                Optional.ofNullable(outcome),
                "fleetfix",
                List.of("~/.ssh/id_ed25519"));
    }

    private static net.schmizz.sshj.transport.TransportException hostKeyNotVerifiable() {
        return new net.schmizz.sshj.transport.TransportException(
                DisconnectReason.HOST_KEY_NOT_VERIFIABLE, "Could not verify `ssh-ed25519` host key");
    }

    @Test
    void changedHostKeyNamesHostAddressFileAndLine() {
        Changed changed = new Changed("10.1.2.3", "ssh-ed25519", "SHA256:abc", 14);

        TransportException e = SshFailures.connectFailed(host, attempt(false, changed), hostKeyNotVerifiable());

        assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
        assertThat(e.isTransient()).isFalse();
        assertThat(e.host()).isEqualTo("redis-3");
        assertThat(e.getMessage())
                .startsWith("host redis-3 (10.1.2.3:22): host key changed since known_hosts line 14"
                        + " (/home/x/.ssh/known_hosts): 10.1.2.3 now offers ssh-ed25519 key SHA256:abc")
                .contains("ssh-keygen -R 10.1.2.3 -f /home/x/.ssh/known_hosts");
    }

    @Test
    void eachRefusedHostCertificateSaysWhyInOneLineNamingTheCaAndItsLine() {
        String cert = "ssh-ed25519-cert-v01@openssh.com";
        List<Outcome> outcomes = List.of(
                new KnownHostsVerifier.CertificateRefused(
                        "10.1.2.3",
                        cert,
                        "SHA256:ca",
                        3,
                        "it expired at 2030-01-02T00:00:00Z (now 2030-01-03T00:00:00Z)"),
                new KnownHostsVerifier.RevokedAuthority("10.1.2.3", "ssh-ed25519", "SHA256:ca", 4),
                new KnownHostsVerifier.UntrustedCertificate("10.1.2.3", cert, "SHA256:ca", 0));
        List<String> expected = List.of(
                "host redis-3 (10.1.2.3:22): host certificate refused: 10.1.2.3 offers a " + cert
                        + " signed by CA key SHA256:ca, which known_hosts line 3 (/home/x/.ssh/known_hosts) trusts,"
                        + " but it expired at 2030-01-02T00:00:00Z (now 2030-01-03T00:00:00Z); fleetfix does not log"
                        + " in (as OpenSSH does not)",
                "host redis-3 (10.1.2.3:22): host certificate is revoked: 10.1.2.3 offers a certificate signed by"
                        + " ssh-ed25519 CA key SHA256:ca, which known_hosts line 4 (/home/x/.ssh/known_hosts) marks"
                        + " @revoked; fleetfix never accepts a certificate of a revoked CA (as OpenSSH does not)",
                "host redis-3 (10.1.2.3:22): host certificate not trusted: 10.1.2.3 offers a " + cert
                        + " signed by CA key SHA256:ca, /home/x/.ssh/known_hosts has no @cert-authority line for"
                        + " 10.1.2.3, and the host's plain key is listed nowhere; to trust the CA, add:"
                        + " @cert-authority 10.1.2.3 <the CA's public key> to /home/x/.ssh/known_hosts");
        for (int i = 0; i < outcomes.size(); i++) {
            TransportException e =
                    SshFailures.connectFailed(host, attempt(false, outcomes.get(i)), hostKeyNotVerifiable());
            assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
            assertThat(e.getMessage()).isEqualTo(expected.get(i));
        }
    }

    @Test
    void unknownHostKeySaysHowToTrustIt() {
        Unknown unknown = new Unknown("10.1.2.3", "ssh-ed25519", "SHA256:abc");

        TransportException e = SshFailures.connectFailed(host, attempt(false, unknown), hostKeyNotVerifiable());

        assertThat(e.kind()).isEqualTo(Kind.HOST_KEY);
        assertThat(e.getMessage())
                .startsWith("host redis-3 (10.1.2.3:22): host key is not known")
                .contains("SHA256:abc")
                .contains("ssh-keyscan -p 22 10.1.2.3 >> /home/x/.ssh/known_hosts")
                .contains("--accept-new-host-keys");
    }

    @Test
    void authFailureNamesUserAndKey() {
        UserAuthException cause = new UserAuthException("Exhausted available authentication methods");

        TransportException e = SshFailures.connectFailed(host, attempt(false, null), cause);

        assertThat(e.kind()).isEqualTo(Kind.AUTH);
        assertThat(e.getMessage())
                .isEqualTo("host redis-3 (10.1.2.3:22): authentication failed for user fleetfix"
                        + " with key ~/.ssh/id_ed25519");
    }

    @Test
    void authFailureNamesTheAgentAndEveryKeyOffered() {
        SshFailures.Attempt attempt = new SshFailures.Attempt(
                "",
                "10.1.2.3",
                22,
                Duration.ofSeconds(5),
                false,
                KNOWN_HOSTS,
                Optional.empty(),
                "fleetfix",
                List.of("ssh-agent (/run/agent.sock)", "~/.ssh/id_ecdsa", "~/.ssh/id_rsa"));

        TransportException e = SshFailures.connectFailed(host, attempt, new UserAuthException("exhausted"));

        assertThat(e.getMessage())
                .endsWith("authentication failed for user fleetfix with ssh-agent (/run/agent.sock)"
                        + " and keys ~/.ssh/id_ecdsa, ~/.ssh/id_rsa");
    }

    @Test
    void encryptedKeyWithoutPassphraseSaysWhichOption() {
        UserAuthException cause =
                new UserAuthException("Problem getting public key", new IOException("passphrase required for key"));

        TransportException e = SshFailures.connectFailed(host, attempt(false, null), cause);

        assertThat(e.kind()).isEqualTo(Kind.AUTH);
        assertThat(e.getMessage()).contains("--key-passphrase-env");
    }

    @Test
    void deadlineOrSocketTimeoutIsATimeoutWithTheConfiguredDuration() {
        TransportException fired =
                SshFailures.connectFailed(host, attempt(true, null), new IOException("Broken transport"));
        TransportException socket =
                SshFailures.connectFailed(host, attempt(false, null), new SocketTimeoutException("Connect timed out"));

        assertThat(fired.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(fired.getMessage()).isEqualTo("host redis-3 (10.1.2.3:22): connect timed out after 5s");
        assertThat(socket.getMessage()).isEqualTo(fired.getMessage());
        assertThat(fired.isTransient()).isTrue();
    }

    @Test
    void refusedNoRouteAndUnknownNameAreUnreachable() {
        assertThat(SshFailures.connectFailed(host, attempt(false, null), new ConnectException("Connection refused")))
                .satisfies(e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE))
                .hasMessage("host redis-3 (10.1.2.3:22): connection refused by 10.1.2.3:22"
                        + " (is sshd running and listening there?)");
        assertThat(SshFailures.connectFailed(host, attempt(false, null), new NoRouteToHostException("x")))
                .hasMessage("host redis-3 (10.1.2.3:22): no route to 10.1.2.3");
        assertThat(SshFailures.connectFailed(host, attempt(false, null), new UnknownHostException("x")))
                .hasMessage("host redis-3 (10.1.2.3:22): unknown host name '10.1.2.3'");
    }

    @Test
    void jumpHostFailuresSayTheyHappenedOnTheJumpHost() {
        SshFailures.Attempt viaJump = new SshFailures.Attempt(
                "jump host ops@bastion:22: ",
                "bastion",
                22,
                Duration.ofSeconds(5),
                false,
                KNOWN_HOSTS,
                Optional.empty(),
                "ops",
                List.of("~/.ssh/id_ed25519"));

        TransportException e = SshFailures.connectFailed(host, viaJump, new ConnectException("refused"));

        assertThat(e.getMessage())
                .startsWith("host redis-3 (10.1.2.3:22): jump host ops@bastion:22: connection refused by bastion:22");
    }

    @Test
    void commandTimeoutNamesHostDurationAndCommand() {
        TransportException e = SshFailures.commandTimedOut(host, Duration.ofSeconds(2), "sleep 10");

        assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(e.getMessage()).isEqualTo("host redis-3 (10.1.2.3:22): command timed out after 2s: sleep 10");
    }

    @Test
    void longScriptsAreShortenedInMessages() {
        String script = "x".repeat(500);

        assertThat(SshFailures.shorten(script)).hasSize(160).endsWith("...");
        assertThat(SshFailures.shorten("a\nb")).isEqualTo("a b");
    }

    @Test
    void pathsUnderHomeAreShownWithTilde() {
        Path home = Path.of("/home/x");

        assertThat(SshFailures.tilde(Path.of("/home/x/.ssh/id_rsa"), home)).isEqualTo("~/.ssh/id_rsa");
        assertThat(SshFailures.tilde(Path.of("/etc/keys/id_rsa"), home)).isEqualTo("/etc/keys/id_rsa");
    }
}
