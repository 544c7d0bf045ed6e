package dev.fleetfix.redis;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Redis, Valkey or redis-benchmark version: {@code 2.8.19}, {@code 7.2.4}. Which commands a server
 * has is decided from it in one place, {@link RedisServer}.
 */
public record RedisVersion(int major, int minor, int patch) implements Comparable<RedisVersion> {
    private static final Pattern VERSION = Pattern.compile("(\\d{1,6})\\.(\\d{1,6})(?:\\.(\\d{1,6}))?");

    public RedisVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("version parts must be >= 0, was " + major + "." + minor + "." + patch);
        }
    }

    /** The first x.y[.z] in a text such as "redis-benchmark 7.0.15" or "redis_version:6.2.6". */
    public static Optional<RedisVersion> find(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = VERSION.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        int patch = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return Optional.of(new RedisVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), patch));
    }

    public boolean atLeast(int wantMajor, int wantMinor) {
        return major > wantMajor || (major == wantMajor && minor >= wantMinor);
    }

    /** "7.0" of 7.0.15, for findings. */
    public String shortText() {
        return major + "." + minor;
    }

    @Override
    public int compareTo(RedisVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c == 0 ? Integer.compare(patch, o.patch) : c;
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
