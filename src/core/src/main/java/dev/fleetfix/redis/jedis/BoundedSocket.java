package dev.fleetfix.redis.jedis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A connected socket (plain or TLS, as Jedis made it) whose input is a {@link BoundedReplyStream}:
 * Jedis reads its replies through {@link #getInputStream()}, so this is where they are bounded. Every
 * other call goes to the socket itself.
 */
final class BoundedSocket extends Socket {
    private final Socket socket;
    private final InputStream input;

    private BoundedSocket(Socket socket, ReplyLimits limits) throws IOException {
        this.socket = socket;
        this.input = new BoundedReplyStream(socket.getInputStream(), limits, this::readTimeout, System::nanoTime);
    }

    /** Jedis's own sockets for this address and config, each with its replies bounded. */
    static JedisSocketFactory factory(HostAndPort address, JedisClientConfig config) {
        DefaultJedisSocketFactory plain = new DefaultJedisSocketFactory(address, config);
        return () -> wrap(plain.createSocket(), ReplyLimits.DEFAULT);
    }

    static Socket wrap(Socket socket, ReplyLimits limits) {
        try {
            return new BoundedSocket(socket, limits);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new JedisConnectionException("reading from " + socket.getRemoteSocketAddress() + ": " + e, e);
        }
    }

    private long readTimeout() {
        try {
            return socket.getSoTimeout();
        } catch (SocketException e) {
            // a closed socket: its next read fails on its own
            return 0;
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // given up on already
        }
    }

    @Override
    public InputStream getInputStream() {
        return input;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        return socket.getOutputStream();
    }

    @Override
    public synchronized void close() throws IOException {
        socket.close();
    }

    @Override
    public boolean isBound() {
        return socket.isBound();
    }

    @Override
    public boolean isClosed() {
        return socket.isClosed();
    }

    @Override
    public boolean isConnected() {
        return socket.isConnected();
    }

    @Override
    public boolean isInputShutdown() {
        return socket.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return socket.isOutputShutdown();
    }

    @Override
    public void shutdownInput() throws IOException {
        socket.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    public synchronized void setSoTimeout(int timeout) throws SocketException {
        socket.setSoTimeout(timeout);
    }

    @Override
    public synchronized int getSoTimeout() throws SocketException {
        return socket.getSoTimeout();
    }

    @Override
    public void setTcpNoDelay(boolean on) throws SocketException {
        socket.setTcpNoDelay(on);
    }

    @Override
    public boolean getTcpNoDelay() throws SocketException {
        return socket.getTcpNoDelay();
    }

    @Override
    public void setKeepAlive(boolean on) throws SocketException {
        socket.setKeepAlive(on);
    }

    @Override
    public boolean getKeepAlive() throws SocketException {
        return socket.getKeepAlive();
    }

    @Override
    public InetAddress getInetAddress() {
        return socket.getInetAddress();
    }

    @Override
    public int getPort() {
        return socket.getPort();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return socket.getRemoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return socket.getLocalSocketAddress();
    }

    @Override
    public String toString() {
        return socket.toString();
    }
}
