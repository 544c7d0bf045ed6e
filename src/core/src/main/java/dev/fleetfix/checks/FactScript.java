package dev.fleetfix.checks;

import dev.fleetfix.transport.ScriptResource;
import dev.fleetfix.transport.ShellQuote;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell script that gathers a host's facts in one round trip, and the parser of its output.
 *
 * <p>The script ({@code facts.sh} next to this class) prints sections, each opened by a marker line
 * {@code @@fleetfix NAME}, and ends with the section {@code end}; output without it is cut short and
 * rejected. Lines that set THP at boot come as {@code FILE<TAB>STATE<TAB>LINE}.
 */
public final class FactScript {
    static final String MARKER = "@@fleetfix ";
    private static final String RESOURCE = "facts.sh";
    private static final Pattern MODE_WORD =
            Pattern.compile("(?<![\\w+])(always|madvise|never|defer\\+madvise|defer)(?![\\w+])");
    private static final Pattern FS_TYPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_./+-]{0,39}");
    private static final Pattern CMDLINE_THP = Pattern.compile("transparent_hugepage=([\\w+]+)");
    private static final Pattern CLAUSE_SPLIT = Pattern.compile("&&|\\|\\||;|\\|");
    private static final Set<String> ACTIVE_UNIT_STATES =
            Set.of("enabled", "enabled-runtime", "static", "generated", "indirect", "alias");

    private FactScript() {}

    /**
     * The script to run. {@code redisPid} is Redis's {@code process_id} when Redis answered; without it
     * the script falls back to {@code pidof redis-server}.
     */
    public static String script(OptionalLong redisPid) {
        String pid = redisPid.isPresent() ? ShellQuote.quote(Long.toString(redisPid.getAsLong())) : "''";
        return "redis_pid=" + pid + "\n" + ScriptResource.read(FactScript.class, RESOURCE);
    }

    /**
     * Reads the script's output into facts.
     *
     * @throws IllegalArgumentException when the output is cut short (no {@code end} section)
     */
    public static HostFacts parse(String host, String stdout, RedisFacts redis) {
        Map<String, List<String>> sections = sections(stdout);
        if (!sections.containsKey("end")) {
            throw new IllegalArgumentException("host " + host + ": the fact script's output is incomplete");
        }
        return new HostFacts(
                host,
                first(sections, "kernel").orElse("unknown"),
                first(sections, "uid").map("0"::equals).orElse(false),
                thp(sections),
                boot(sections),
                number(sections, "overcommit"),
                number(sections, "somaxconn"),
                redis,
                redisProcess(sections));
    }

    static Map<String, List<String>> sections(String stdout) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : stdout.split("\r?\n")) {
            if (line.startsWith(MARKER)) {
                current = new ArrayList<>();
                sections.put(line.substring(MARKER.length()).strip(), current);
            } else if (current != null && !line.isBlank()) {
                current.add(line);
            }
        }
        return sections;
    }

    private static Optional<String> first(Map<String, List<String>> sections, String name) {
        List<String> lines = sections.getOrDefault(name, List.of());
        return lines.isEmpty() ? Optional.empty() : Optional.of(lines.get(0).strip());
    }

    private static OptionalInt number(Map<String, List<String>> sections, String name) {
        Optional<String> text = first(sections, name);
        if (text.isPresent() && text.get().matches("-?\\d+")) {
            return OptionalInt.of(Integer.parseInt(text.get()));
        }
        return OptionalInt.empty();
    }

    private static ThpFacts thp(Map<String, List<String>> sections) {
        Optional<String> dir = first(sections, "thp.dir");
        if (dir.isEmpty()) {
            return ThpFacts.unsupported();
        }
        return new ThpFacts(dir, mode(sections, "thp.enabled"), mode(sections, "thp.defrag"), filesystem(sections));
    }

    /**
     * The filesystem type that holds THP's {@code enabled}: statfs's name when it gave one, else
     * mountinfo's. A word that is not a plain type name (an old coreutils' {@code UNKNOWN (0x...)},
     * control characters, a long line) counts as unread, never as "not the kernel's".
     */
    static Optional<String> filesystem(Map<String, List<String>> sections) {
        List<String> lines = sections.getOrDefault("thp.fs", List.of());
        for (String source : List.of("statfs ", "mountinfo ")) {
            for (String line : lines) {
                if (!line.startsWith(source)) {
                    continue;
                }
                String type = line.substring(source.length()).strip();
                if (FS_TYPE.matcher(type).matches() && !type.startsWith("UNKNOWN")) {
                    return Optional.of(type);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<ThpMode> mode(Map<String, List<String>> sections, String name) {
        return ThpParser.selected(String.join("\n", sections.getOrDefault(name, List.of())));
    }

    private static ThpBoot boot(Map<String, List<String>> sections) {
        List<BootSetting> settings = new ArrayList<>();
        for (String line : sections.getOrDefault("cmdline", List.of())) {
            Matcher m = CMDLINE_THP.matcher(line);
            while (m.find()) {
                settings.add(new BootSetting(
                        BootSource.KERNEL_CMDLINE,
                        "/proc/cmdline",
                        m.group(),
                        ThpMode.fromWord(m.group(1)),
                        BootSetting.ENABLED,
                        true));
            }
        }
        for (Hit hit : hits(sections, "grub")) {
            Matcher m = CMDLINE_THP.matcher(hit.line);
            while (m.find()) {
                settings.add(new BootSetting(
                        BootSource.GRUB, hit.file, hit.line, ThpMode.fromWord(m.group(1)), BootSetting.ENABLED, true));
            }
        }
        Set<String> units = new HashSet<>();
        String lastFile = null;
        for (Hit hit : hits(sections, "systemd")) {
            String unit = hit.file.substring(hit.file.lastIndexOf('/') + 1);
            // the same unit under /etc and /lib (or /lib linked to /usr/lib): the first one wins, as in systemd
            if (!hit.file.equals(lastFile) && !units.add(unit)) {
                continue;
            }
            lastFile = hit.file;
            settings.addAll(writes(BootSource.SYSTEMD, hit, ACTIVE_UNIT_STATES.contains(hit.state)));
        }
        for (Hit hit : hits(sections, "tmpfiles")) {
            settings.addAll(writes(BootSource.TMPFILES, hit, true));
        }
        for (Hit hit : hits(sections, "rc.local")) {
            settings.addAll(writes(BootSource.RC_LOCAL, hit, hit.state.equals("active")));
        }
        for (Hit hit : hits(sections, "sysfs")) {
            settings.addAll(writes(BootSource.SYSFS_CONF, hit, true));
        }
        for (Hit hit : hits(sections, "tuned")) {
            settings.addAll(writes(BootSource.TUNED, hit, hit.state.startsWith("enabled")));
        }
        return new ThpBoot(settings, kernelDefault(sections));
    }

    /** The THP writes of one line: a unit's ExecStart may set enabled and defrag in one go. */
    private static List<BootSetting> writes(BootSource source, Hit hit, boolean active) {
        List<BootSetting> writes = new ArrayList<>();
        for (String clause : CLAUSE_SPLIT.split(hit.line)) {
            Matcher m = MODE_WORD.matcher(clause);
            if (!m.find()) {
                continue;
            }
            String target = clause.contains("defrag") ? BootSetting.DEFRAG : BootSetting.ENABLED;
            writes.add(new BootSetting(source, hit.file, hit.line, ThpMode.fromWord(m.group(1)), target, active));
        }
        return writes;
    }

    private record Hit(String file, String state, String line) {}

    private static List<Hit> hits(Map<String, List<String>> sections, String name) {
        List<Hit> hits = new ArrayList<>();
        for (String raw : sections.getOrDefault(name, List.of())) {
            String[] parts = raw.split("\t", 3);
            if (parts.length < 3) {
                continue;
            }
            String line = parts[2].strip();
            if (line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            hits.add(new Hit(parts[0], parts[1], line));
        }
        return hits;
    }

    private static Optional<ThpMode> kernelDefault(Map<String, List<String>> sections) {
        for (String line : sections.getOrDefault("kconfig", List.of())) {
            if (line.startsWith("CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS=y")) {
                return Optional.of(ThpMode.ALWAYS);
            }
            if (line.startsWith("CONFIG_TRANSPARENT_HUGEPAGE_MADVISE=y")) {
                return Optional.of(ThpMode.MADVISE);
            }
            if (line.startsWith("CONFIG_TRANSPARENT_HUGEPAGE_NEVER=y")) {
                return Optional.of(ThpMode.NEVER);
            }
        }
        return Optional.empty();
    }

    private static RedisProcess redisProcess(Map<String, List<String>> sections) {
        Optional<String> pidLine = first(sections, "redis.pid");
        if (pidLine.isEmpty()) {
            return RedisProcess.NONE;
        }
        String[] words = pidLine.get().split("\\s+");
        Optional<String> source = Optional.of(words[0]);
        if (words.length == 1) {
            return new RedisProcess(OptionalLong.empty(), source, OptionalLong.empty(), Optional.empty());
        }
        if (words.length > 2) {
            String pids = String.join(" ", List.of(words).subList(1, words.length));
            return new RedisProcess(
                    OptionalLong.empty(),
                    source,
                    OptionalLong.empty(),
                    Optional.of("several redis-server processes (" + pids + ") and Redis did not say which"));
        }
        if (!words[1].matches("\\d+")) {
            return new RedisProcess(
                    OptionalLong.empty(), source, OptionalLong.empty(), Optional.of("no pid in " + pidLine.get()));
        }
        OptionalLong pid = OptionalLong.of(Long.parseLong(words[1]));
        Optional<String> smaps = first(sections, "smaps");
        if (smaps.isEmpty()) {
            return new RedisProcess(pid, source, OptionalLong.empty(), Optional.of("smaps was not read"));
        }
        String text = smaps.get();
        if (text.matches("kb \\d+")) {
            return new RedisProcess(pid, source, OptionalLong.of(Long.parseLong(text.substring(3))), Optional.empty());
        }
        String error = text.startsWith("error ") ? text.substring(6) : "no AnonHugePages in smaps";
        return new RedisProcess(pid, source, OptionalLong.empty(), Optional.of(error));
    }
}
