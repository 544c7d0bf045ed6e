package dev.fleetfix.redis.jedis;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The socket's input as Jedis reads it, with the RESP replies parsed as their bytes pass so that a
 * reply over {@link ReplyLimits} fails here, before Jedis allocates what its headers announce or
 * recurses into its nesting. Also bounds how long one reply may take once its first byte came: the
 * socket's read timeout only bounds each read, and a server that drips a byte now and then would
 * otherwise hold a host for ever.
 *
 * <p>Once it has failed, every later read fails the same way: the stream has lost its place in the
 * protocol.
 */
final class BoundedReplyStream extends InputStream {
    private enum State {
        TYPE,
        LENGTH,
        LINE,
        PAYLOAD
    }

    private final InputStream in;
    private final ReplyLimits limits;
    private final LongSupplier nanos;
    private final LongSupplier replyMillis;
    private final long[] remaining;

    private State state = State.TYPE;
    private int depth;
    private boolean inReply;
    private long replyBytes;
    private long elements;
    private long deadline;
    private long allowedMillis;
    private boolean bulk;
    private int factor;
    private long length;
    private boolean negative;
    private int digits;
    private boolean sawCr;
    private long payloadLeft;
    private HostileReplyException failed;

    /**
     * @param replyMillis how long one reply may take from its first byte, read when it starts (the
     *     socket's current read timeout); 0 for no bound
     * @param nanos a monotonic clock
     */
    BoundedReplyStream(InputStream in, ReplyLimits limits, LongSupplier replyMillis, LongSupplier nanos) {
        this.in = Objects.requireNonNull(in, "in");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.replyMillis = Objects.requireNonNull(replyMillis, "replyMillis");
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.remaining = new long[limits.maxDepth()];
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (failed != null) {
            throw failed;
        }
        int n = in.read(b, off, len);
        try {
            if (n > 0) {
                scan(b, off, off + n);
            }
            if (inReply && allowedMillis > 0 && nanos.getAsLong() - deadline > 0) {
                throw new HostileReplyException("a reply still arriving " + allowedMillis + " ms after it began");
            }
        } catch (HostileReplyException e) {
            failed = e;
            throw e;
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private void scan(byte[] b, int from, int to) throws HostileReplyException {
        int i = from;
        while (i < to) {
            if (state == State.PAYLOAD) {
                int take = (int) Math.min(payloadLeft, to - i);
                payloadLeft -= take;
                i += take;
                if (payloadLeft == 0) {
                    elementDone();
                }
                continue;
            }
            byte c = b[i++];
            if (state == State.TYPE && !inReply) {
                startReply();
            }
            count(1);
            switch (state) {
                case TYPE -> type(c);
                case LENGTH -> length(c);
                case LINE -> {
                    if (c == '\n') {
                        elementDone();
                    }
                }
                default -> throw new IllegalStateException("state " + state);
            }
        }
    }

    private void startReply() {
        inReply = true;
        replyBytes = 0;
        elements = 0;
        allowedMillis = Math.max(0, replyMillis.getAsLong());
        deadline = nanos.getAsLong() + allowedMillis * 1_000_000L;
    }

    private void type(byte c) throws HostileReplyException {
        switch (c) {
            case '+', '-', ':', ',', '(', '#', '_' -> state = State.LINE;
            case '$', '=' -> startLength(true, 1);
            case '*', '~', '>' -> startLength(false, 1);
            case '%' -> startLength(false, 2);
            default -> throw new HostileReplyException(
                    String.format("byte 0x%02x where a reply's type belongs", c & 0xff));
        }
    }

    private void startLength(boolean isBulk, int perEntry) {
        state = State.LENGTH;
        bulk = isBulk;
        factor = perEntry;
        length = 0;
        negative = false;
        digits = 0;
        sawCr = false;
    }

    private void length(byte c) throws HostileReplyException {
        if (sawCr) {
            if (c != '\n') {
                throw new HostileReplyException("a length not ended by CRLF");
            }
            lengthDone();
        } else if (c == '\r') {
            sawCr = true;
        } else if (c == '-' && digits == 0 && !negative) {
            negative = true;
        } else if (c >= '0' && c <= '9') {
            digits++;
            length = length * 10 + (c - '0');
            // checked digit by digit, so that a header is refused before Jedis can read it whole
            if (!negative) {
                checkAnnounced(length);
            }
        } else {
            throw new HostileReplyException(String.format("byte 0x%02x inside a length", c & 0xff));
        }
    }

    private void checkAnnounced(long announced) throws HostileReplyException {
        if (bulk && replyBytes + announced > limits.maxReplyBytes()) {
            throw new HostileReplyException("a reply over " + size(limits.maxReplyBytes()));
        }
        if (!bulk && elements + announced * factor > limits.maxElements()) {
            throw new HostileReplyException("a reply of over " + limits.maxElements() + " elements");
        }
    }

    private void lengthDone() throws HostileReplyException {
        if (digits == 0 || (negative && length != 1)) {
            throw new HostileReplyException("a length of " + (negative ? "-" : "") + length);
        }
        if (negative) {
            elementDone();
        } else if (bulk) {
            payloadLeft = length + 2;
            count(payloadLeft);
            if (payloadLeft > 0) {
                state = State.PAYLOAD;
            }
        } else if (length == 0) {
            elementDone();
        } else {
            if (depth == limits.maxDepth()) {
                throw new HostileReplyException("arrays nested over " + limits.maxDepth() + " deep");
            }
            elements += length * factor;
            remaining[depth++] = length * factor;
            state = State.TYPE;
        }
    }

    private void count(long bytes) throws HostileReplyException {
        replyBytes += bytes;
        if (replyBytes > limits.maxReplyBytes()) {
            throw new HostileReplyException("a reply over " + size(limits.maxReplyBytes()));
        }
    }

    /** One element is complete: so are the aggregates it completes, and the reply when it was the last. */
    private void elementDone() {
        state = State.TYPE;
        while (depth > 0) {
            if (--remaining[depth - 1] > 0) {
                return;
            }
            depth--;
        }
        inReply = false;
    }

    private static String size(long bytes) {
        return bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }
}
