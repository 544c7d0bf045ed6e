package dev.fleetfix.transport.held;

import dev.fleetfix.transport.TransportException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The holder's wire: each request is an operation byte and its fields ({@link HoldRequest}), each reply a status byte
 * and its fields, in a fixed order. Strings are a length and UTF-8; optional ones are preceded by a presence flag.
 * Both sides come from the same build: a {@link HoldRequest.Hello} carrying another build's version is answered
 * {@link #FAILED}, and the run stops that holder and starts its own.
 */
final class HoldWire {
    /** The request was done; its fields follow. */
    static final byte DONE = 0;
    /** The request failed; a transport failure follows ({@link #readFailure}). */
    static final byte FAILED = 1;

    /** The most a string or file may be on the wire: beyond it the stream is not the holder's. */
    private static final int MAX_BYTES = 64 * 1024 * 1024;

    private HoldWire() {}

    static void writeString(DataOutputStream out, String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    static void writeOptional(DataOutputStream out, Optional<String> s) throws IOException {
        out.writeBoolean(s.isPresent());
        if (s.isPresent()) {
            writeString(out, s.get());
        }
    }

    static Optional<String> readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? Optional.of(readString(in)) : Optional.empty();
    }

    static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_BYTES) {
            throw new IOException("not the holder's wire: a field of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    static void writeMap(DataOutputStream out, Map<String, String> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    static Map<String, String> readMap(DataInputStream in) throws IOException {
        int size = in.readInt();
        if (size < 0 || size > 1024) {
            throw new IOException("not the holder's wire: a map of " + size + " entries");
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            map.put(readString(in), readString(in));
        }
        return map;
    }

    static void writeStrings(DataOutputStream out, List<String> strings) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            writeString(out, s);
        }
    }

    static List<String> readStrings(DataInputStream in) throws IOException {
        int size = in.readInt();
        if (size < 0 || size > 1024) {
            throw new IOException("not the holder's wire: a list of " + size + " strings");
        }
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            strings.add(readString(in));
        }
        return strings;
    }

    /** A failure as the holder met it: the run throws it again with the same host, kind and words. */
    static void writeFailure(DataOutputStream out, TransportException e) throws IOException {
        out.writeByte(FAILED);
        writeString(out, e.host());
        writeString(out, e.kind().name());
        out.writeBoolean(e.sent());
        writeString(out, e.getMessage());
    }

    static TransportException readFailure(DataInputStream in) throws IOException {
        String host = readString(in);
        TransportException.Kind kind;
        try {
            kind = TransportException.Kind.valueOf(readString(in));
        } catch (IllegalArgumentException e) {
            throw new IOException("not the holder's wire: " + e.getMessage(), e);
        }
        boolean sent = in.readBoolean();
        return TransportException.relayed(host, kind, sent, readString(in));
    }

    /** The status byte of a reply; the end of the stream means the holder went away. */
    static byte readStatus(DataInputStream in) throws IOException {
        int status = in.read();
        if (status < 0) {
            throw new EOFException("the connection holder closed the socket");
        }
        return (byte) status;
    }
}
