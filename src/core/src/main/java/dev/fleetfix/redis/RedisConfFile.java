package dev.fleetfix.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The directives of a {@code redis.conf}, read the way Redis reads them: one directive a line,
 * arguments split as {@code sdssplitargs} does (bare words, "double quoted" with backslash escapes,
 * 'single quoted'), {@code #} comments. {@code include} lines are kept in place so the caller can
 * read those files and splice them in: a later directive overrides an earlier one.
 *
 * <p>Only what fleetfix needs is interpreted: the effective {@code save} points, {@code appendonly},
 * {@code rename-command} and {@code include}.
 */
public final class RedisConfFile {
    /** One directive: its name in lower case and its arguments. */
    public record Directive(String name, List<String> args, int line) {
        public Directive {
            Objects.requireNonNull(name, "name");
            args = List.copyOf(args);
        }
    }

    private final List<Directive> directives;

    private RedisConfFile(List<Directive> directives) {
        this.directives = List.copyOf(directives);
    }

    /** Parses a file's text; a line Redis could not split (an unclosed quote) is an error naming it. */
    public static RedisConfFile parse(String text) {
        List<Directive> all = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> words = split(line)
                    .orElseThrow(() -> new IllegalArgumentException("unbalanced quotes in configuration line"));
            if (!words.isEmpty()) {
                all.add(new Directive(words.get(0).toLowerCase(Locale.ROOT), words.subList(1, words.size()), i + 1));
            }
        }
        return new RedisConfFile(all);
    }

    /** The directives in file order, {@code include}s in place. */
    public List<Directive> directives() {
        return directives;
    }

    /** The files this one includes, in order. */
    public List<String> includes() {
        return directives.stream()
                .filter(d -> d.name().equals("include") && !d.args().isEmpty())
                .map(d -> d.args().get(0))
                .toList();
    }

    /** Replaces each {@code include} of {@code path} with the directives of {@code included}. */
    public RedisConfFile splice(String path, RedisConfFile included) {
        List<Directive> all = new ArrayList<>();
        for (Directive d : directives) {
            if (d.name().equals("include")
                    && !d.args().isEmpty()
                    && d.args().get(0).equals(path)) {
                all.addAll(included.directives);
            } else {
                all.add(d);
            }
        }
        return new RedisConfFile(all);
    }

    /**
     * Whether RDB save points are set: Redis's default points apply until the first {@code save}
     * line, which replaces them; {@code save ""} clears them; each further line adds points.
     */
    public boolean hasSavePoints() {
        boolean defaults = true;
        boolean points = false;
        for (Directive d : directives) {
            if (!d.name().equals("save")) {
                continue;
            }
            defaults = false;
            boolean clear = d.args().isEmpty()
                    || (d.args().size() == 1 && d.args().get(0).isEmpty());
            points = !clear && (points || !d.args().isEmpty());
        }
        return defaults || points;
    }

    /** The last {@code save} line, for messages ("save \"\"" or "save 900 1"); empty with none. */
    public Optional<Directive> lastSave() {
        return directives.stream().filter(d -> d.name().equals("save")).reduce((a, b) -> b);
    }

    /** Renamed commands: upper-case name → new name ("" when disabled). The last rename wins. */
    public Map<String, String> renamedCommands() {
        Map<String, String> renamed = new TreeMap<>();
        for (Directive d : directives) {
            if (d.name().equals("rename-command") && d.args().size() == 2) {
                renamed.put(d.args().get(0).toUpperCase(Locale.ROOT), d.args().get(1));
            }
        }
        return renamed;
    }

    /** Where {@link #split} is in a line: between words, in a bare word, or inside one of the two quotes. */
    private enum Place {
        BETWEEN,
        BARE,
        DOUBLE,
        SINGLE
    }

    /**
     * Splits a line as Redis's {@code sdssplitargs}; empty when a quote is not closed. A quote opens where a word starts
     * or inside a bare word ({@code a"b c"} is the one word {@code ab c}); a closing quote ends the word and must be
     * followed by a space or the end of the line.
     */
    static Optional<List<String>> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        Place place = Place.BETWEEN;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            boolean space = Character.isWhitespace(c);
            Place next =
                    switch (place) {
                        case BETWEEN -> space ? place : c == '"' ? Place.DOUBLE : c == '\'' ? Place.SINGLE : Place.BARE;
                        case BARE -> space ? Place.BETWEEN : c == '"' ? Place.DOUBLE : c == '\'' ? Place.SINGLE : place;
                        case DOUBLE -> c == '"' ? Place.BETWEEN : place;
                        case SINGLE -> c == '\'' ? Place.BETWEEN : place;
                    };
            if (place != Place.BETWEEN && next == Place.BETWEEN) {
                if (place != Place.BARE && i + 1 < line.length() && !Character.isWhitespace(line.charAt(i + 1))) {
                    return Optional.empty(); // Redis wants a space after the closing quote
                }
                words.add(word.toString());
                word.setLength(0);
            } else if (next == Place.DOUBLE && c == '\\') {
                i = escape(line, i, word);
            } else if (next == Place.SINGLE && line.startsWith("\\'", i)) {
                word.append('\'');
                i++;
            } else if (next != Place.BETWEEN && (next == place || next == Place.BARE)) {
                word.append(c);
            }
            place = next;
        }
        if (place == Place.BARE) {
            words.add(word.toString());
        }
        return place == Place.DOUBLE || place == Place.SINGLE ? Optional.empty() : Optional.of(words);
    }

    /**
     * A backslash inside "..." at {@code i}: {@code \xHH}, {@code \n \r \t \b \a}, or the next character as is;
     * returns the index of the escape's last character.
     */
    private static int escape(String line, int i, StringBuilder word) {
        if (i + 3 < line.length() && line.charAt(i + 1) == 'x' && isHex(line, i + 2)) {
            word.append((char) Integer.parseInt(line.substring(i + 2, i + 4), 16));
            return i + 3;
        }
        if (i + 1 < line.length()) {
            word.append(
                    switch (line.charAt(i + 1)) {
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        case 'b' -> '\b';
                        case 'a' -> (char) 7;
                        default -> line.charAt(i + 1);
                    });
        }
        return i + 1;
    }

    private static boolean isHex(String s, int at) {
        return Character.digit(s.charAt(at), 16) >= 0 && Character.digit(s.charAt(at + 1), 16) >= 0;
    }
}
