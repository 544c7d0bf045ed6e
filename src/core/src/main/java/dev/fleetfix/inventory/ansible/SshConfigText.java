package dev.fleetfix.inventory.ansible;

import dev.fleetfix.HomePaths;
import dev.fleetfix.InputException;
import dev.fleetfix.SshHostPatterns;
import dev.fleetfix.inventory.Host;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An OpenSSH client configuration as text: its lines as {@code Host} blocks of settings, its host patterns and its
 * {@code %} tokens. What the settings mean for a host is {@link SshConfig}'s.
 */
final class SshConfigText {
    private SshConfigText() {}

    /**
     * A {@code Host} block (a {@code Match} block is {@code never}: its settings apply to no host) and the first value
     * of each keyword in it.
     */
    record Block(List<String> patterns, boolean never, Map<String, Setting> settings) {}

    /** A keyword's value as written, and its line. */
    record Setting(String value, int line) {}

    /** The file's blocks, the first one the settings before any {@code Host}; the lines fleetfix does not read. */
    record Parsed(List<Block> blocks, List<String> notices) {}

    /** The blocks of {@code lines}, keeping the {@code keywords} only. */
    static Parsed parse(List<String> lines, Path file, Set<String> keywords) {
        List<Block> blocks = new ArrayList<>();
        List<String> notices = new ArrayList<>();
        Block current = new Block(List.of("*"), false, new LinkedHashMap<>());
        blocks.add(current);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> words = words(line, file, i + 1);
            String keyword = words.get(0).toLowerCase(Locale.ROOT);
            List<String> args = words.subList(1, words.size());
            if (args.isEmpty()) {
                throw new InputException(file, i + 1, 0, "ssh config: " + words.get(0) + " needs a value");
            }
            switch (keyword) {
                case "host" -> {
                    current = new Block(List.copyOf(args), false, new LinkedHashMap<>());
                    blocks.add(current);
                }
                case "match" -> {
                    notices.add(file + ":" + (i + 1) + ": Match blocks are not read by fleetfix; their settings are"
                            + " left out");
                    current = new Block(List.of(), true, new LinkedHashMap<>());
                    blocks.add(current);
                }
                case "include" -> notices.add(file + ":" + (i + 1) + ": Include is not read by fleetfix; "
                        + String.join(" ", args) + " is left out");
                default -> {
                    if (keywords.contains(keyword)) {
                        current.settings().putIfAbsent(keyword, new Setting(String.join(" ", args), i + 1));
                    }
                }
            }
        }
        return new Parsed(List.copyOf(blocks), List.copyOf(notices));
    }

    /** OpenSSH's %h, %d, %u, %% tokens. */
    static String tokens(String value, String target, Host host) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '%' || i + 1 == value.length()) {
                out.append(c);
                continue;
            }
            char t = value.charAt(++i);
            switch (t) {
                case 'h' -> out.append(target);
                case 'n' -> out.append(target);
                case 'd' -> out.append(System.getProperty("user.home"));
                case 'u' -> out.append(System.getProperty("user.name"));
                case 'r' -> out.append(host.user().orElse(System.getProperty("user.name")));
                case '%' -> out.append('%');
                default -> out.append('%').append(t);
            }
        }
        return out.toString();
    }

    static Path path(String value) {
        return Path.of(HomePaths.expand(value));
    }

    /** OpenSSH pattern lists: any positive pattern matches and no negated one does. */
    static boolean matches(List<String> patterns, String host) {
        return SshHostPatterns.matches(String.join(",", patterns), host);
    }

    /** A line's words: {@code Keyword value}, {@code Keyword=value}, double quotes group words. */
    private static List<String> words(String line, Path file, int number) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                any = true;
            } else if (!quoted && (Character.isWhitespace(c) || (c == '=' && out.isEmpty()))) {
                if (any) {
                    out.add(word.toString());
                    word.setLength(0);
                    any = false;
                }
            } else {
                word.append(c);
                any = true;
            }
        }
        if (quoted) {
            throw new InputException(file, number, 0, "ssh config: unclosed quote");
        }
        if (any) {
            out.add(word.toString());
        }
        return out;
    }
}
