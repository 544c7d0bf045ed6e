package dev.fleetfix.bench;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Redis or redis-benchmark version, as far as output formats depend on it. */
public record RedisVersion(int major, int minor, int patch) implements Comparable<RedisVersion> {
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    public RedisVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("version parts must be >= 0, was " + major + "." + minor + "." + patch);
        }
    }

    /** The first x.y[.z] in a text such as "redis-benchmark 7.0.15" or "redis_version:6.2.6". */
    public static Optional<RedisVersion> find(String text) {
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
