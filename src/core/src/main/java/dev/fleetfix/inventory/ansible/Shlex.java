package dev.fleetfix.inventory.ansible;

import java.util.ArrayList;
import java.util.List;

/**
 * Python's {@code shlex.split(line, comments=True)}, which Ansible's ini plugin applies to host
 * lines: POSIX quoting, backslash escapes, and {@code #} starting a comment even inside a word.
 */
final class Shlex {
    private Shlex() {}

    /** The words of {@code line}; an unclosed quote or a trailing backslash is an {@link IllegalArgumentException}. */
    static List<String> split(String line) {
        return split(line, true);
    }

    /** As {@link #split(String)}; with {@code comments} false a {@code #} is a character like any other. */
    static List<String> split(String line, boolean comments) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if (c == '#' && comments) {
                break;
            } else if (c == '\\') {
                if (i + 1 >= line.length()) {
                    throw new IllegalArgumentException("no escaped character");
                }
                word.append(line.charAt(i + 1));
                inWord = true;
                i += 2;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("no closing quotation");
                }
                word.append(line, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word);
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Inside double quotes a backslash only escapes {@code "} and {@code \}. */
    private static int doubleQuoted(String line, int i, StringBuilder word) {
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < line.length() && (line.charAt(i + 1) == '"' || line.charAt(i + 1) == '\\')) {
                word.append(line.charAt(i + 1));
                i += 2;
            } else {
                word.append(c);
                i++;
            }
        }
        throw new IllegalArgumentException("no closing quotation");
    }
}
