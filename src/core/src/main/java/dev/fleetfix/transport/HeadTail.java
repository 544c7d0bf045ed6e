package dev.fleetfix.transport;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps what a host says within bounds: the first {@code head} and the last {@code tail} bytes of a
 * stream, and a count of what was dropped between them, shown in the text as
 * {@code "... 199 MB dropped ..."}. A host can print gigabytes (a runaway command, a hostile lock
 * file); fleetfix keeps the start, where commands say what they do, and the end, where they say
 * why they failed, in constant memory.
 */
public final class HeadTail extends OutputStream {
    /** What a command's stdout or stderr keeps: 512 KiB from the start, 512 KiB from the end. */
    public static final int STREAM_HEAD = 512 * 1024;

    public static final int STREAM_TAIL = 512 * 1024;

    /**
     * What a buffer holds before it grows: most commands print a few lines, and a stream that reserved its whole
     * head and tail at once cost every command 2 MiB (1 GiB of garbage for an audit of 500 hosts).
     */
    static final int FIRST_CAPACITY = 1024;

    private final int headLimit;
    private final int tailLimit;
    private byte[] head;
    private byte[] tail = new byte[0];
    private int headSize;
    private long tailWritten;
    private long total;

    public HeadTail(int head, int tail) {
        if (head < 0 || tail < 0) {
            throw new IllegalArgumentException("head and tail must be >= 0, were " + head + ", " + tail);
        }
        this.headLimit = head;
        this.tailLimit = tail;
        this.head = new byte[Math.min(head, FIRST_CAPACITY)];
    }

    /** A buffer for one output stream of a command. */
    public static HeadTail forStream() {
        return new HeadTail(STREAM_HEAD, STREAM_TAIL);
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int off, int len) {
        total += len;
        int toHead = Math.min(len, headLimit - headSize);
        if (headSize + toHead > head.length) {
            // doubling: a stream of n bytes copies at most 2n
            head = Arrays.copyOf(head, Math.min(headLimit, Math.max(headSize + toHead, head.length * 2)));
        }
        System.arraycopy(bytes, off, head, headSize, toHead);
        headSize += toHead;
        off += toHead;
        len -= toHead;
        if (tailLimit == 0 || len == 0) {
            return;
        }
        if (tail.length == 0) {
            // the tail is a ring: it is needed whole once the head is full, and only a long stream fills the head
            tail = new byte[tailLimit];
        }
        if (len >= tail.length) {
            off += len - tail.length;
            len = tail.length;
        }
        int at = (int) (tailWritten % tail.length);
        int first = Math.min(len, tail.length - at);
        System.arraycopy(bytes, off, tail, at, first);
        System.arraycopy(bytes, off + first, tail, 0, len - first);
        tailWritten += len;
    }

    /** Bytes of memory the buffer holds now (tests: what a short stream costs). */
    int capacity() {
        return head.length + tail.length;
    }

    /** Every byte written, kept or not. */
    public long total() {
        return total;
    }

    /** Bytes neither in the head nor in the tail. */
    public long dropped() {
        return total - headSize - Math.min(tailWritten, tailLimit);
    }

    /** Head, a line saying how much was dropped (when anything was), and tail, as UTF-8. */
    public String text() {
        String start = new String(head, 0, headSize, StandardCharsets.UTF_8);
        int kept = (int) Math.min(tailWritten, tail.length);
        if (kept == 0) {
            return start;
        }
        byte[] end = new byte[kept];
        int at = (int) (tailWritten % tail.length);
        if (tailWritten < tail.length) {
            System.arraycopy(tail, 0, end, 0, kept);
        } else {
            System.arraycopy(tail, at, end, 0, tail.length - at);
            System.arraycopy(tail, 0, end, tail.length - at, at);
        }
        String middle = dropped() > 0 ? marker(dropped()) : "";
        return start + middle + new String(end, StandardCharsets.UTF_8);
    }

    /**
     * {@code text} cut to at most about {@code max} characters, keeping its head and tail, for a
     * field such as one line of a lock file.
     */
    public static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int half = max / 2;
        String middle = text.substring(half, text.length() - half);
        // what an earlier cut dropped (a command's output, cut when it was read) is still said
        StringBuilder earlier = new StringBuilder();
        Matcher m = MARKER.matcher(middle);
        while (m.find()) {
            earlier.append(m.group(1)).append(" + ");
        }
        return text.substring(0, half) + "\n... " + earlier + size(middle.length()) + " dropped ...\n"
                + text.substring(text.length() - half);
    }

    private static final Pattern MARKER =
            Pattern.compile("\n\\.\\.\\. ([0-9.]+ (?:bytes|KB|MB|GB|TB)) dropped \\.\\.\\.\n");

    /** {@code "\n... 199 MB dropped ...\n"}. */
    static String marker(long bytes) {
        return "\n... " + size(bytes) + " dropped ...\n";
    }

    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    }
}
