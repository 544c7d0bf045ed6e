package dev.fleetfix.report;

import dev.fleetfix.transport.HeadTail;

/**
 * The one sanitizer for text a host said (command output, lock files, Redis replies, file
 * contents) before it is printed or written into a report. Control characters become visible
 * escapes ({@code ESC} is shown as {@code \x1b}): on a terminal they could move the cursor, rewrite
 * earlier lines or set the window title even with {@code --no-color}, and in XML one of them makes
 * the whole file unreadable. Newlines and tabs stay; a carriage return not followed by a newline,
 * C1 controls, Unicode direction overrides, lone surrogates and the non-characters XML refuses are
 * escaped or replaced as well. Text that needs none of this is returned as it is.
 */
public final class HostText {
    private HostText() {}

    /** {@code text} with every character that is unsafe on a terminal or in XML made visible. */
    public static String clean(String text) {
        if (text == null || isClean(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                // CRLF line ends are line ends
            } else if (Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
                out.append('\uFFFD');
            } else if (unsafe(c)) {
                out.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** What one line keeps of a message, head and tail; the report files keep more. */
    private static final int LINE_CHARS = 2000;

    /** {@code text} cleaned and on one line: command output may span lines, a progress line must not. */
    public static String oneLine(String text) {
        String line = HeadTail.cut(text.strip(), LINE_CHARS).replaceAll("\\s*\\R\\s*", " / ");
        return clean(line);
    }

    private static boolean isClean(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (unsafe(c) || c == '\r' || Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
                return false;
            }
        }
        return true;
    }

    private static boolean unsafe(char c) {
        if (c == '\n' || c == '\t') {
            return false;
        }
        return c < 0x20
                || (c >= 0x7f && c <= 0x9f)
                || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069')
                || c == '\u200e'
                || c == '\u200f';
    }
}
