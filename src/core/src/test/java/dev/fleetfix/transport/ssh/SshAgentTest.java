package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import net.schmizz.sshj.common.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent client against a scripted agent on a Unix socket: no network. */
class SshAgentTest {

    @TempDir
    Path dir;

    /** Answers one request with what {@code answer} makes of it; returns the request it saw. */
    private CompletableFuture<byte[]> agentAnswering(Path socket, Function<byte[], byte[]> answer) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        return CompletableFuture.supplyAsync(() -> {
            try (server;
                    SocketChannel client = server.accept()) {
                ByteBuffer length = ByteBuffer.allocate(4);
                while (length.hasRemaining()) {
                    client.read(length);
                }
                ByteBuffer body = ByteBuffer.allocate(length.flip().getInt());
                while (body.hasRemaining()) {
                    client.read(body);
                }
                byte[] reply = answer.apply(body.array());
                client.write(ByteBuffer.allocate(4 + reply.length)
                        .putInt(reply.length)
                        .put(reply)
                        .flip());
                return body.array();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void listsTheAgentsKeys() throws Exception {
        Path socket = dir.resolve("agent.sock");
        byte[] blob = new Buffer.PlainBuffer()
                .putString("ssh-ed25519")
                .putString(new byte[32])
                .getCompactData();
        CompletableFuture<byte[]> request = agentAnswering(socket, r -> new Buffer.PlainBuffer()
                .putByte((byte) 12)
                .putUInt32(1)
                .putString(blob)
                .putString("me@laptop")
                .getCompactData());

        List<SshAgent.Identity> identities = new SshAgent(socket).identities();

        assertThat(request.get()).containsExactly(11);
        assertThat(identities).singleElement().satisfies(identity -> {
            assertThat(identity.blob()).isEqualTo(blob);
            assertThat(identity.comment()).isEqualTo("me@laptop");
            assertThat(identity.keyType()).isEqualTo("ssh-ed25519");
        });
    }

    @Test
    void asksForSha2SignaturesFromRsaKeys() throws Exception {
        Path socket = dir.resolve("agent.sock");
        byte[] blob = new Buffer.PlainBuffer().putString("ssh-rsa").getCompactData();
        byte[] signature = new Buffer.PlainBuffer()
                .putString("rsa-sha2-512")
                .putString(new byte[] {1, 2, 3})
                .getCompactData();
        CompletableFuture<byte[]> request = agentAnswering(socket, r -> new Buffer.PlainBuffer()
                .putByte((byte) 14)
                .putString(signature)
                .getCompactData());
        AgentAuth auth = new AgentAuth(new SshAgent(socket), new SshAgent.Identity(blob, "rsa"));

        byte[] signed = new SshAgent(socket).sign(blob, new byte[] {9, 9}, SshAgent.RSA_SHA2_512);

        assertThat(signed).isEqualTo(signature);
        assertThat(auth.algorithm()).isEqualTo("rsa-sha2-512");
        Buffer.PlainBuffer seen = new Buffer.PlainBuffer(request.get());
        assertThat(seen.readByte()).isEqualTo((byte) 13);
        assertThat(seen.readBytes()).isEqualTo(blob);
        assertThat(seen.readBytes()).containsExactly(9, 9);
        assertThat(seen.readUInt32()).isEqualTo(4);
    }

    @Test
    void aRefusalNamesTheSocket() throws Exception {
        Path socket = dir.resolve("agent.sock");
        agentAnswering(socket, r -> new byte[] {5});

        assertThatThrownBy(() -> new SshAgent(socket).sign(new byte[] {1}, new byte[] {2}, 0))
                .isInstanceOf(IOException.class)
                .hasMessage("ssh-agent at " + socket + " refused to sign");
    }

    @Test
    void theAgentComesFromSshAuthSock() {
        assertThat(SshAgent.fromEnvironment(Map.of("SSH_AUTH_SOCK", "/run/agent.sock")))
                .map(SshAgent::socket)
                .contains(Path.of("/run/agent.sock"));
        assertThat(SshAgent.fromEnvironment(Map.of())).isEqualTo(Optional.empty());
    }
}
