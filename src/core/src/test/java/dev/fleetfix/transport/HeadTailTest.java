package dev.fleetfix.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeadTailTest {
    private static void write(HeadTail buffer, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        buffer.write(bytes, 0, bytes.length);
    }

    @Test
    void keepsEverythingThatFits() {
        HeadTail buffer = new HeadTail(4, 4);
        write(buffer, "abcdefgh");
        assertThat(buffer.text()).isEqualTo("abcdefgh");
        assertThat(buffer.dropped()).isZero();
    }

    @Test
    void keepsHeadAndTailAndSaysHowMuchWasDropped() {
        HeadTail buffer = new HeadTail(4, 4);
        for (String chunk : new String[] {"ab", "cdef", "ghijklmn", "o", "pqrstuvwxyz"}) {
            write(buffer, chunk);
        }
        assertThat(buffer.total()).isEqualTo(26);
        assertThat(buffer.dropped()).isEqualTo(18);
        assertThat(buffer.text()).isEqualTo("abcd\n... 18 bytes dropped ...\nwxyz");
    }

    @Test
    void sizesReadAsAPersonWouldSayThem() {
        assertThat(HeadTail.size(199L * 1024 * 1024 + 5)).isEqualTo("199 MB");
        assertThat(HeadTail.size(1_500_000_000L)).isEqualTo("1.4 GB");
        assertThat(HeadTail.size(1023)).isEqualTo("1023 bytes");
    }

    @Test
    void cutKeepsTheStartAndTheEndOfAField() {
        String cut = HeadTail.cut("a".repeat(100) + "b".repeat(100), 20);
        assertThat(cut).isEqualTo("aaaaaaaaaa\n... 180 bytes dropped ...\nbbbbbbbbbb");
        assertThat(HeadTail.cut("short", 20)).isEqualTo("short");
    }

    @Test
    void cuttingAgainStillSaysWhatTheFirstCutDropped() {
        HeadTail buffer = new HeadTail(100, 100);
        byte[] zeros = "x".repeat(2000).getBytes(StandardCharsets.UTF_8);
        buffer.write(zeros, 0, zeros.length);
        String cut = HeadTail.cut(buffer.text(), 40);
        assertThat(cut).contains("\n... 1.8 KB + ").endsWith("x".repeat(20)).hasSizeLessThan(100);
    }

    @Test
    void aShortStreamCostsWhatItPrintsNotTheWholeHeadAndTail() {
        HeadTail buffer = HeadTail.forStream();
        write(buffer, "always madvise [never]\n".repeat(20));

        assertThat(buffer.capacity()).isLessThanOrEqualTo(HeadTail.FIRST_CAPACITY);
        assertThat(buffer.text()).isEqualTo("always madvise [never]\n".repeat(20));
    }

    @Test
    void aStreamGrowsItsHeadInPiecesAndKeepsEveryByteUpToItsLimits() {
        HeadTail buffer = HeadTail.forStream();
        StringBuilder written = new StringBuilder();
        for (int i = 0; written.length() < 3 * 1024 * 1024; i++) {
            String line = "line " + i + "\n";
            write(buffer, line);
            written.append(line);
        }
        String all = written.toString();

        assertThat(buffer.capacity()).isEqualTo(HeadTail.STREAM_HEAD + HeadTail.STREAM_TAIL);
        assertThat(buffer.dropped()).isEqualTo(all.length() - HeadTail.STREAM_HEAD - HeadTail.STREAM_TAIL);
        assertThat(buffer.text())
                .startsWith(all.substring(0, HeadTail.STREAM_HEAD))
                .endsWith(all.substring(all.length() - HeadTail.STREAM_TAIL))
                .contains(" dropped ...");
    }
}
