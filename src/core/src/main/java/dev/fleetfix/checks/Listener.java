package dev.fleetfix.checks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a listening socket is the one a client reaches at an address: the same IP, or a wildcard ({@code 0.0.0.0},
 * {@code [::]}, {@code *}). Several hosts may share one kernel network namespace (containers with host networking,
 * lab hosts on 127.0.0.x), each with its own Redis on the same port: a listener on another address is not this one.
 * Pure: no I/O, and no name is ever resolved.
 */
final class Listener {
    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Pattern PROC_HEX = Pattern.compile("([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):[0-9A-Fa-f]{4}");
    private static final byte[] V4_MAPPED = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};

    private Listener() {}

    /**
     * True when the socket listening at {@code local} takes connections to {@code address}. {@code local} is as
     * {@code ss} prints it ({@code 127.0.0.1:6379}, {@code [::1]:6379}, {@code *:6379}, {@code 0.0.0.0%lo:6379}) or as
     * {@code /proc/net/tcp*} does ({@code 0100007F:18EB}). An {@code address} that is empty or a name other than
     * {@code localhost} matches every listener (which IP a name reaches is the client's business); a local address
     * that cannot be read matches as well, as the port alone did.
     */
    static boolean at(String address, String local) {
        Optional<byte[]> want = ip(address.equalsIgnoreCase("localhost") ? "127.0.0.1" : address);
        if (want.isEmpty()) {
            return true;
        }
        Optional<byte[]> have = local(local);
        if (have.isEmpty()) {
            return true;
        }
        byte[] h = have.get();
        return allZero(h) || Arrays.equals(unmapped(h), unmapped(want.get()));
    }

    /** The IP of a listener's local address, as ss or /proc/net/tcp* print it; empty for {@code *} (any). */
    static Optional<byte[]> local(String local) {
        String text = local.strip();
        if (PROC_HEX.matcher(text).matches()) {
            return Optional.of(procHex(text.substring(0, text.indexOf(':'))));
        }
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String host = text.substring(0, colon).replaceAll("%[^\\]]*", "");
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.equals("*")) {
            return Optional.of(new byte[4]);
        }
        return ip(host);
    }

    /** An IP literal's bytes; empty for anything else (a name is never resolved). */
    static Optional<byte[]> ip(String text) {
        String t = text.strip();
        boolean v4 = IPV4.matcher(t).matches();
        if (!v4 && !(t.contains(":") && IPV6.matcher(t).matches())) {
            return Optional.empty();
        }
        try {
            // brackets make an IPv6 literal that does not parse an error, never a name to look up
            return Optional.of(InetAddress.getByName(v4 ? t : "[" + t + "]").getAddress());
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** /proc/net/tcp prints an IPv4 address as one little-endian word, /proc/net/tcp6 an IPv6 one as four. */
    private static byte[] procHex(String hex) {
        byte[] raw = HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
        byte[] out = new byte[raw.length];
        for (int word = 0; word < raw.length; word += 4) {
            for (int i = 0; i < 4; i++) {
                out[word + i] = raw[word + 3 - i];
            }
        }
        return out;
    }

    private static byte[] unmapped(byte[] ip) {
        if (ip.length == 16 && Arrays.equals(Arrays.copyOf(ip, 12), V4_MAPPED)) {
            return Arrays.copyOfRange(ip, 12, 16);
        }
        return ip;
    }

    private static boolean allZero(byte[] ip) {
        for (byte b : ip) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
