package dev.fleetfix.redis.jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.RedisInputStream;

/** Replies over the bounds fail as they pass; every reply within them reaches Jedis byte for byte. */
class BoundedReplyStreamTest {
    private static final ReplyLimits SMALL = new ReplyLimits(1024, 100, 4);

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void repliesWithinTheBoundsPassUnchangedWhateverTheChunks() throws IOException {
        String replies = "+OK\r\n-ERR no\r\n:42\r\n$5\r\nhello\r\n$-1\r\n*-1\r\n*0\r\n"
                + "*2\r\n$1\r\na\r\n*2\r\n:1\r\n:2\r\n"
                + "%2\r\n+k\r\n:1\r\n+l\r\n_\r\n,1.5\r\n#t\r\n(12345\r\n=7\r\ntxt:abc\r\n~1\r\n+s\r\n"
                + "$0\r\n\r\n";
        for (int chunk : new int[] {1, 2, 3, 7, 4096}) {
            assertThat(readAll(stream(replies, SMALL, chunk)))
                    .as("chunks of %d", chunk)
                    .isEqualTo(replies);
        }
    }

    @Test
    void everyReplyHasItsOwnBudget() throws IOException {
        String reply = "$1000\r\n" + "x".repeat(1000) + "\r\n";
        String pipelined = reply.repeat(50);
        assertThat(readAll(stream(pipelined, SMALL, 4096))).hasSize(pipelined.length());
    }

    @Test
    void aHugeArrayHeaderFailsBeforeItsCountIsWhole() {
        // the digits are refused as they come: Jedis never reads a count it could allocate
        assertThatThrownBy(() -> readAll(stream("*2000000000", SMALL, 1)))
                .isInstanceOf(HostileReplyException.class)
                .hasMessage("the server sent a reply of over 100 elements: not a Redis server, or a hostile one");
    }

    @Test
    void elementsAreCountedOverTheWholeReply() {
        // each array is small; together they announce more than one reply may hold
        String nested = "*2\r\n*60\r\n" + ":1\r\n".repeat(60) + "*60\r\n";
        assertThatThrownBy(() -> readAll(stream(nested, SMALL, 4096)))
                .isInstanceOf(HostileReplyException.class)
                .hasMessageContaining("over 100 elements");
    }

    @Test
    void deepNestingFails() {
        assertThatThrownBy(() -> readAll(stream("*1\r\n".repeat(5) + ":1\r\n", SMALL, 4096)))
                .isInstanceOf(HostileReplyException.class)
                .hasMessageContaining("arrays nested over 4 deep");
    }

    @Test
    void nestingUpToTheBoundPasses() throws IOException {
        String reply = "*1\r\n".repeat(4) + ":1\r\n";
        assertThat(readAll(stream(reply, SMALL, 4096))).isEqualTo(reply);
    }

    @Test
    void aHugeBulkHeaderFailsBeforeAnyPayload() {
        assertThatThrownBy(() -> readAll(stream("$2000000000\r\n", SMALL, 1)))
                .isInstanceOf(HostileReplyException.class)
                .hasMessageContaining("a reply over 1024 bytes");
    }

    @Test
    void aLineWithoutEndFailsAtTheByteBound() {
        assertThatThrownBy(() -> readAll(stream("+" + "x".repeat(5000), SMALL, 4096)))
                .isInstanceOf(HostileReplyException.class)
                .hasMessageContaining("a reply over 1024 bytes");
    }

    @Test
    void aReplyStillDrippingAfterTheReadTimeoutFails() {
        // one byte per read, each read 300 ms after the last: every read is within a 1 s timeout
        InputStream drip = new InputStream() {
            @Override
            public int read() {
                nanos.addAndGet(300_000_000L);
                return 'x';
            }
        };
        InputStream bounded = new BoundedReplyStream(
                new SequenceStream(new ByteArrayInputStream(bytes("+")), drip), SMALL, () -> 1000, nanos::get);
        assertThatThrownBy(() -> readAll(bounded))
                .isInstanceOf(HostileReplyException.class)
                .hasMessageContaining("a reply still arriving 1000 ms after it began");
    }

    @Test
    void bytesThatStartNoReplyFail() {
        assertThatThrownBy(() -> readAll(stream("HTTP/1.1 400 Bad Request\r\n", SMALL, 4096)))
                .isInstanceOf(HostileReplyException.class)
                .hasMessageContaining("byte 0x48 where a reply's type belongs");
    }

    @Test
    void afterAFailureEveryReadFails() throws IOException {
        InputStream bounded = stream("*1\r\n".repeat(5) + ":1\r\n+OK\r\n", SMALL, 4096);
        assertThatThrownBy(() -> bounded.read(new byte[4096])).isInstanceOf(HostileReplyException.class);
        assertThatThrownBy(bounded::read).isInstanceOf(HostileReplyException.class);
    }

    @Test
    void jedisReadsThroughItAndFailsWithoutAllocating() {
        // the default bounds, under Jedis's own parser: an OutOfMemoryError here would fail the test
        InputStream bounded = new BoundedReplyStream(
                new ByteArrayInputStream(bytes("*2000000000\r\n")), ReplyLimits.DEFAULT, () -> 0, nanos::get);
        assertThatThrownBy(() -> Protocol.read(new RedisInputStream(bounded)))
                .hasRootCauseInstanceOf(HostileReplyException.class);
        InputStream deep = new BoundedReplyStream(
                new ByteArrayInputStream(bytes("*1\r\n".repeat(200_000) + ":1\r\n")),
                ReplyLimits.DEFAULT,
                () -> 0,
                nanos::get);
        assertThatThrownBy(() -> Protocol.read(new RedisInputStream(deep)))
                .hasRootCauseMessage(
                        "the server sent arrays nested over 32 deep: not a Redis server, or a hostile one");
    }

    private BoundedReplyStream stream(String replies, ReplyLimits limits, int chunk) {
        return new BoundedReplyStream(new Chunked(bytes(replies), chunk), limits, () -> 0, nanos::get);
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
            out.write(buffer, 0, n);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Hands out at most {@code chunk} bytes per read, as a socket may. */
    private static final class Chunked extends InputStream {
        private final ByteArrayInputStream in;
        private final int chunk;

        Chunked(byte[] bytes, int chunk) {
            this.in = new ByteArrayInputStream(bytes);
            this.chunk = chunk;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, Math.min(len, chunk));
        }
    }

    /** The first stream, then the second, one byte per read. */
    private static final class SequenceStream extends InputStream {
        private final InputStream first;
        private final InputStream second;

        SequenceStream(InputStream first, InputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public int read() throws IOException {
            int b = first.read();
            return b >= 0 ? b : second.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }
    }
}
