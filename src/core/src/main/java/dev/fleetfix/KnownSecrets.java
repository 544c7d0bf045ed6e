package dev.fleetfix;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every secret value this process has seen, and the one scrubber every output applies: the console's writers, the
 * report files, the run journal. A peer may say back what it was sent (a Redis with {@code rename-command AUTH ""}
 * answers {@code ERR unknown command 'AUTH', with args beginning with: 'PASSWORD'}), a host's command output may
 * print a password, and an exception built from either carries it on: rather than trust each place that handles
 * peer text, the text is scrubbed where it leaves the process. A value is known from the moment it is read: a
 * {@link Secret} registers itself when made, and a password read at connect time (from an env var or a file) is
 * registered before it is sent, so nothing can echo it before it is known.
 *
 * <p>The process is one run, so the registry is the process's: a value once known stays known. Besides the value
 * as it is, its forms in other quoting are scrubbed (Redis's quoted representation, backslash escapes, shell
 * quoting, JSON, XML and HTML escapes, the control characters made visible as the console shows them), and a
 * value cut short: Redis echoes at most 128 characters of arguments, so a beginning of at least
 * {@value #MIN_PART} characters that ends where the text is cut (at a quote, a line's or the text's end)
 * is scrubbed, and so is an end that starts at such a place (cut by a space or a stop, only a piece of at least
 * {@value #MIN_WORD}: shorter ones are ordinary words). Like Ansible's {@code no_log}, a short or common
 * value is scrubbed wherever it appears: an output with too many {@value #MASK} is the safe side of this trade.
 */
public final class KnownSecrets {
    /** What a secret is replaced with: {@link Secret#toString()}'s. */
    public static final String MASK = "******";

    /**
     * The shortest piece of a cut value that is scrubbed. A peer cuts what it echoes at a length of its own (Redis at
     * 128 characters), so a short piece is ordinary text far more often than an echo: a password that begins with
     * its host's name ({@code audit-2.pw}) cut at 4 masked the host's name in every output.
     */
    static final int MIN_PART = 16;

    /** The shortest piece of a cut value that is scrubbed when a space or a stop, not a quote, cuts it. */
    static final int MIN_WORD = 12;

    private static final List<Entry> ENTRIES = new CopyOnWriteArrayList<>();

    private KnownSecrets() {}

    /** Makes {@code value} known to every output from now on; blank values are not secrets worth hiding. */
    public static void register(String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        synchronized (ENTRIES) {
            if (ENTRIES.stream().noneMatch(e -> e.value.equals(value))) {
                ENTRIES.add(new Entry(value, forms(value)));
                // longest first: a secret that contains another is replaced whole
                ENTRIES.sort(
                        Comparator.comparingInt((Entry e) -> e.value.length()).reversed());
            }
        }
    }

    /** {@code text} with every known secret, in each of its forms and cut short, replaced by {@link #MASK}. */
    public static String scrub(String text) {
        if (text == null || text.isEmpty() || ENTRIES.isEmpty()) {
            return text;
        }
        return scrub(text, List.copyOf(ENTRIES));
    }

    /**
     * A writer that passes on what is written to {@code out} scrubbed: text is held until a flush (picocli's
     * writers flush at every line) so that a secret written in pieces is seen whole.
     */
    public static Writer scrubbing(Writer out) {
        return new ScrubbingWriter(Objects.requireNonNull(out, "out"));
    }

    /**
     * A stream that passes on what is printed to {@code out} scrubbed, a flush (a line, with autoflush) at a time:
     * for {@code System.err}, where libraries log.
     */
    public static PrintStream scrubbing(PrintStream out) {
        Objects.requireNonNull(out, "out");
        OutputStream held = new OutputStream() {
            private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                bytes.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                bytes.write(b, off, len);
            }

            @Override
            public synchronized void flush() {
                if (bytes.size() > 0) {
                    out.print(scrub(bytes.toString(Charset.defaultCharset())));
                    bytes.reset();
                }
                out.flush();
            }
        };
        return new PrintStream(held, true, Charset.defaultCharset());
    }

    /** The value and its quoted or escaped forms, longest first. */
    static List<String> forms(String value) {
        Set<String> bases = new LinkedHashSet<>();
        bases.add(value);
        bases.add(visible(value));
        bases.add(redisRepr(value));
        bases.add(backslashed(value, "\\\"'"));
        bases.add(backslashed(value, "\\\"$`"));
        bases.add(value.replace("'", "'\\''"));
        bases.add(value.replace("'", "'\"'\"'"));
        Set<String> forms = new LinkedHashSet<>();
        for (String base : bases) {
            forms.add(base);
            forms.add(json(base));
            // XML text escapes neither quote, an XML attribute only the double one, HTML both ('&#39;' or '&apos;')
            for (String quot : List.of("\"", "&quot;")) {
                for (String apos : List.of("'", "&#39;", "&apos;")) {
                    String markup = markup(base, quot, apos);
                    forms.add(markup);
                    forms.add(json(markup));
                }
            }
        }
        List<String> sorted = new ArrayList<>(forms);
        sorted.removeIf(String::isBlank);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        return List.copyOf(sorted);
    }

    /**
     * Replaces each form whole, its beginnings (at least {@link #MIN_PART} characters) that the text cuts off, and
     * its ends that the text starts in the middle of (a truncated echo). At each place the longest match of any
     * secret is taken: a shorter secret inside a longer one's echo, or the value's beginning up to a quote inside it
     * (a piece of another form), must not hide the rest.
     */
    private static String scrub(String text, List<Entry> entries) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int match = 0;
            for (Entry entry : entries) {
                for (String form : entry.forms) {
                    if (form.length() > match && text.startsWith(form, i)) {
                        match = form.length();
                    }
                }
                for (Form form : entry.cuttable) {
                    match = Math.max(match, cutAt(text, i, form.text, form.starts));
                }
            }
            if (match > 0) {
                out.append(MASK);
                i += match;
            } else {
                out.append(text.charAt(i));
                i++;
            }
        }
        return out.toString();
    }

    /** The length of a piece of {@code form} cut short that starts at {@code at}, or 0. */
    private static int cutAt(String text, int at, String form, Map<Character, List<Integer>> starts) {
        // a beginning of the value that ends at a cut
        int same = 0;
        while (same < form.length() && at + same < text.length() && text.charAt(at + same) == form.charAt(same)) {
            same++;
        }
        for (int n = same; n >= MIN_PART; n--) {
            if (cutAfter(text, at + n, n)) {
                return n;
            }
        }
        // an end of the value that starts at a cut
        if (at > 0 && !cutBefore(text, at, MIN_PART)) {
            return 0;
        }
        for (int from : starts.getOrDefault(text.charAt(at), List.of())) {
            int length = form.length() - from;
            if (length >= MIN_PART
                    && text.startsWith(form.substring(from), at)
                    && cutAfter(text, at + length, length)
                    && (at == 0 || cutBefore(text, at, length))) {
                return length;
            }
        }
        return 0;
    }

    /**
     * Whether the text is cut at {@code i}, after a piece of {@code length}: at its end, a line's end, a quote (or
     * an escaped one) or an ellipsis; at a space or a stop only for a piece of at least {@link #MIN_WORD}, which ordinary words are not.
     */
    private static boolean cutAfter(String text, int i, int length) {
        return i == text.length() || isCut(text.charAt(i), length);
    }

    private static boolean cutBefore(String text, int i, int length) {
        return i == 0 || isCut(text.charAt(i - 1), length);
    }

    private static boolean isCut(char c, int length) {
        // a quote, or where an escaped one begins: JSON's \", markup's &#39; (or a tag's <)
        if ("'\"`\n\r…\\&<".indexOf(c) >= 0) {
            return true;
        }
        return length >= MIN_WORD && (Character.isWhitespace(c) || ".,;:)]}".indexOf(c) >= 0);
    }

    /** As the console shows a host's text: control characters as {@code \xNN}. */
    private static String visible(String value) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Redis's quoted representation (sdscatrepr) without its surrounding quotes. */
    private static String redisRepr(String value) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\', '"' -> b.append('\\').append(c);
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\u0007' -> b.append("\\a");
                case '\b' -> b.append("\\b");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    private static String backslashed(String value, String special) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (special.indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /** As a JSON string's content (Jackson's escapes). */
    private static String json(String value) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\', '"' -> b.append('\\').append(c);
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** As XML or HTML text, quotes written as {@code quot} and {@code apos}. */
    private static String markup(String value, String quot, String apos) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append(quot);
                case '\'' -> b.append(apos);
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A secret, its forms, and those long enough to be scrubbed cut short. */
    private record Entry(String value, List<String> forms, List<Form> cuttable) {
        Entry(String value, List<String> forms) {
            this(
                    value,
                    forms,
                    forms.stream()
                            .filter(f -> f.length() > MIN_PART)
                            .map(Form::of)
                            .toList());
        }
    }

    /** A form, and where in it each character stands (past its first), to find its ends quickly. */
    private record Form(String text, Map<Character, List<Integer>> starts) {
        static Form of(String text) {
            Map<Character, List<Integer>> starts = new HashMap<>();
            for (int from = 1; from <= text.length() - MIN_PART; from++) {
                starts.computeIfAbsent(text.charAt(from), c -> new ArrayList<>())
                        .add(from);
            }
            return new Form(text, starts);
        }
    }

    private static final class ScrubbingWriter extends Writer {
        private final Writer out;
        private final StringBuilder held = new StringBuilder();

        ScrubbingWriter(Writer out) {
            this.out = out;
        }

        @Override
        public synchronized void write(char[] chars, int off, int len) {
            held.append(chars, off, len);
        }

        @Override
        public synchronized void flush() throws IOException {
            if (!held.isEmpty()) {
                out.write(scrub(held.toString()));
                held.setLength(0);
            }
            out.flush();
        }

        @Override
        public synchronized void close() throws IOException {
            flush();
            out.close();
        }
    }
}
