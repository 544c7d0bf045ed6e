package dev.fleetfix.steps.persist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which file sets a kernel parameter at boot, by the rules of sysctl.d(5) as systemd-sysctl applies them:
 * {@code *.conf} files of {@code /etc/sysctl.d}, {@code /run/sysctl.d}, {@code /usr/local/lib/sysctl.d},
 * {@code /usr/lib/sysctl.d} and {@code /lib/sysctl.d}; a name in an earlier directory hides the same name in a
 * later one; the files are read in lexical order of their names whatever their directory, and the last
 * assignment of a key wins. {@code /etc/sysctl.conf} counts where a file links to it (Debian's
 * {@code 99-sysctl.conf}); else it is read last, as {@code sysctl --system} does.
 */
public final class SysctlBoot {
    /** The directories, highest precedence first. */
    public static final List<String> DIRS =
            List.of("/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d", "/lib/sysctl.d");

    public static final String SYSCTL_CONF = "/etc/sysctl.conf";

    /**
     * One configuration file as listed on the host.
     *
     * @param path where it was found
     * @param target what it resolves to (itself, or the file a symlink names; {@code /dev/null} masks)
     * @param text its content
     */
    public record ConfFile(String path, String target, String text) {
        public ConfFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(text, "text");
        }

        String name() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    /** One line that sets a key. */
    public record Assignment(String file, int line, String key, String value) {
        public String where() {
            return file + ":" + line;
        }
    }

    private SysctlBoot() {}

    /** The files in the order a boot reads them. */
    public static List<ConfFile> bootOrder(List<ConfFile> listed) {
        Map<String, ConfFile> byName = new LinkedHashMap<>();
        Optional<ConfFile> sysctlConf = Optional.empty();
        for (ConfFile f : listed) {
            if (f.path().equals(SYSCTL_CONF)) {
                sysctlConf = Optional.of(f);
            } else if (f.name().endsWith(".conf") && dirRank(f.path()) >= 0) {
                ConfFile seen = byName.get(f.name());
                if (seen == null || dirRank(f.path()) < dirRank(seen.path())) {
                    byName.put(f.name(), f);
                }
            }
        }
        List<ConfFile> ordered = new ArrayList<>(byName.values());
        ordered.sort(Comparator.comparing(ConfFile::name));
        boolean linked = ordered.stream().anyMatch(f -> f.target().equals(SYSCTL_CONF));
        if (!linked) {
            sysctlConf.ifPresent(ordered::add);
        }
        return ordered;
    }

    /** The assignment of {@code key} that a boot applies last, when any file sets it. */
    public static Optional<Assignment> winner(List<ConfFile> ordered, String key) {
        Assignment last = null;
        for (ConfFile f : ordered) {
            for (Assignment a : assignments(f)) {
                if (matches(a.key(), key)) {
                    last = a;
                }
            }
        }
        return Optional.ofNullable(last);
    }

    static List<Assignment> assignments(ConfFile f) {
        List<Assignment> all = new ArrayList<>();
        String[] lines = f.text().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            int eq = line.indexOf('=');
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";") || eq <= 0) {
                continue;
            }
            String key = line.substring(0, eq).strip();
            all.add(new Assignment(
                    f.path(),
                    i + 1,
                    SysctlKey.dotted(key),
                    line.substring(eq + 1).strip()));
        }
        return all;
    }

    /** A key of a file matches ours exactly or as a glob ({@code net.ipv4.conf.*.rp_filter}). */
    private static boolean matches(String fileKey, String key) {
        if (fileKey.equals(key)) {
            return true;
        }
        if (!fileKey.contains("*") && !fileKey.contains("?")) {
            return false;
        }
        String regex = Pattern.quote(fileKey).replace("*", "\\E[^.]*\\Q").replace("?", "\\E[^.]\\Q");
        return key.matches(regex);
    }

    private static int dirRank(String path) {
        String dir = path.substring(0, Math.max(0, path.lastIndexOf('/')));
        return DIRS.indexOf(dir);
    }

    /** The script that lists every file of {@link #DIRS} and {@code /etc/sysctl.conf}, for {@link #parse}. */
    public static String listScript() {
        return "for f in "
                + String.join(" ", DIRS.stream().map(d -> d + "/*.conf").toList()) + " " + SYSCTL_CONF
                + "; do [ -e \"$f\" ] || continue; printf '==> %s %s <==\\n' \"$f\" \"$(readlink -f \"$f\")\";"
                + " cat \"$f\" 2>/dev/null; echo; done";
    }

    /** Reads the output of {@link #listScript()}. */
    public static List<ConfFile> parse(String output) {
        List<ConfFile> files = new ArrayList<>();
        String path = null;
        String target = null;
        StringBuilder text = new StringBuilder();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("==> ") && line.endsWith(" <==")) {
                if (path != null) {
                    files.add(new ConfFile(path, target, text.toString()));
                }
                String[] parts = line.substring(4, line.length() - 4).split(" ", 2);
                path = parts[0];
                target = parts.length > 1 ? parts[1] : parts[0];
                text.setLength(0);
            } else if (path != null) {
                text.append(line).append('\n');
            }
        }
        if (path != null) {
            files.add(new ConfFile(path, target, text.toString()));
        }
        return files;
    }
}
