package dev.fleetfix.transport.ssh;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.schmizz.sshj.common.Buffer;

/**
 * A client for ssh-agent over its Unix socket ({@code SSH_AUTH_SOCK}), as the agent protocol
 * (draft-miller-ssh-agent) defines it: list identities, sign data. SSHJ 0.40 has no agent client,
 * and the add-on library for it needs JNA; Java 17 speaks Unix sockets itself.
 */
final class SshAgent {

    private static final byte FAILURE = 5;
    private static final byte REQUEST_IDENTITIES = 11;
    private static final byte IDENTITIES_ANSWER = 12;
    private static final byte SIGN_REQUEST = 13;
    private static final byte SIGN_RESPONSE = 14;
    private static final int MAX_MESSAGE = 256 * 1024;

    static final int RSA_SHA2_256 = 2;
    static final int RSA_SHA2_512 = 4;

    /** A key the agent holds: its public key blob (SSH wire format) and comment. */
    record Identity(byte[] blob, String comment) {
        String keyType() {
            try {
                return new Buffer.PlainBuffer(blob).readString();
            } catch (Buffer.BufferException e) {
                return "unknown";
            }
        }
    }

    private final Path socket;

    SshAgent(Path socket) {
        this.socket = socket;
    }

    /** The agent named by {@code SSH_AUTH_SOCK}, if that is set. */
    static Optional<SshAgent> fromEnvironment(Map<String, String> env) {
        return Optional.ofNullable(env.get("SSH_AUTH_SOCK"))
                .filter(s -> !s.isBlank())
                .map(s -> new SshAgent(Path.of(s)));
    }

    Path socket() {
        return socket;
    }

    List<Identity> identities() throws IOException {
        Buffer.PlainBuffer reply = call(new Buffer.PlainBuffer().putByte(REQUEST_IDENTITIES));
        expect(reply, IDENTITIES_ANSWER, "list keys");
        long count = reply.readUInt32();
        List<Identity> identities = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            identities.add(new Identity(reply.readBytes(), reply.readString()));
        }
        return identities;
    }

    /** The agent's signature of {@code data}: {@code string algorithm, string signature}. */
    byte[] sign(byte[] blob, byte[] data, int flags) throws IOException {
        Buffer.PlainBuffer request = new Buffer.PlainBuffer()
                .putByte(SIGN_REQUEST)
                .putString(blob)
                .putString(data)
                .putUInt32(flags);
        Buffer.PlainBuffer reply = call(request);
        expect(reply, SIGN_RESPONSE, "sign");
        return reply.readBytes();
    }

    private void expect(Buffer.PlainBuffer reply, byte type, String what) throws IOException {
        byte got = reply.readByte();
        if (got == FAILURE) {
            throw new IOException("ssh-agent at " + socket + " refused to " + what);
        }
        if (got != type) {
            throw new IOException("ssh-agent at " + socket + " answered " + got + " to " + what);
        }
    }

    private Buffer.PlainBuffer call(Buffer.PlainBuffer message) throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            byte[] body = message.getCompactData();
            ByteBuffer out = ByteBuffer.allocate(4 + body.length)
                    .putInt(body.length)
                    .put(body)
                    .flip();
            while (out.hasRemaining()) {
                channel.write(out);
            }
            ByteBuffer header = readFully(channel, 4);
            int length = header.getInt();
            if (length <= 0 || length > MAX_MESSAGE) {
                throw new IOException("ssh-agent at " + socket + " sent a message of " + length + " bytes");
            }
            return new Buffer.PlainBuffer(readFully(channel, length).array());
        }
    }

    private ByteBuffer readFully(SocketChannel channel, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new IOException("ssh-agent at " + socket + " closed the connection");
            }
        }
        return buffer.flip();
    }
}
