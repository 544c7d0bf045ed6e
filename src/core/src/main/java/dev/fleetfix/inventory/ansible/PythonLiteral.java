package dev.fleetfix.inventory.ansible;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Python's {@code ast.literal_eval} for the values of an INI inventory, which Ansible's ini plugin
 * passes through it: {@code 8080} is an int, {@code True} a bool, {@code [1, 'a']} a list, and
 * anything that is not a Python literal ({@code true}, {@code yes}, {@code 0777}, {@code web 1})
 * stays the string it was. Tuples and sets become lists, as they do in Ansible's JSON output.
 */
final class PythonLiteral {
    private final String text;
    private int pos;

    private PythonLiteral(String text) {
        this.text = text;
    }

    /** The value {@code literal_eval} gives, or {@code text} itself when it is no literal. */
    static Object eval(String text) {
        return parse(text).orElse(text);
    }

    /** Empty when {@code text} is not exactly one Python literal. */
    static Optional<Object> parse(String text) {
        PythonLiteral p = new PythonLiteral(text);
        try {
            p.skipSpace();
            if (p.atEnd()) {
                return Optional.empty();
            }
            Object value = p.value(0);
            p.skipSpace();
            return p.atEnd() ? Optional.ofNullable(value).or(() -> Optional.of(NONE)) : Optional.empty();
        } catch (NotLiteral e) {
            return Optional.empty();
        }
    }

    /** Python's None, so that {@link #parse} can tell "None" from "no literal". */
    static final Object NONE = new Object() {
        @Override
        public String toString() {
            return "None";
        }
    };

    /** {@link #eval} with None as Java null. */
    static Object evalToJava(String text) {
        Object value = eval(text);
        return value == NONE ? null : value;
    }

    private static final class NotLiteral extends RuntimeException {
        NotLiteral() {
            super(null, null, false, false);
        }
    }

    private boolean atEnd() {
        return pos >= text.length();
    }

    private char peek() {
        return atEnd() ? '\0' : text.charAt(pos);
    }

    /** Spaces, tabs and a trailing {@code # comment}, which Python's tokenizer ignores. */
    private void skipSpace() {
        while (!atEnd()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\f') {
                pos++;
            } else if (c == '#') {
                pos = text.length();
            } else {
                return;
            }
        }
    }

    private Object value(int depth) {
        if (depth > 100) {
            throw new NotLiteral();
        }
        skipSpace();
        char c = peek();
        Object v;
        if (c == '[') {
            v = sequence(']', depth);
        } else if (c == '(') {
            v = tuple(depth);
        } else if (c == '{') {
            v = braces(depth);
        } else if (c == '-' || c == '+') {
            pos++;
            skipSpace();
            Object n = number();
            v = c == '-' ? negate(n) : n;
        } else if (Character.isDigit(c)
                || (c == '.' && pos + 1 < text.length() && Character.isDigit(text.charAt(pos + 1)))) {
            v = number();
        } else if (isStringStart()) {
            v = strings();
        } else {
            v = name();
        }
        skipSpace();
        return v;
    }

    private Object name() {
        int start = pos;
        while (!atEnd() && (Character.isLetterOrDigit(peek()) || peek() == '_')) {
            pos++;
        }
        return switch (text.substring(start, pos)) {
            case "True" -> Boolean.TRUE;
            case "False" -> Boolean.FALSE;
            case "None" -> NONE;
            default -> throw new NotLiteral();
        };
    }

    private List<Object> sequence(char close, int depth) {
        pos++;
        List<Object> items = new ArrayList<>();
        skipSpace();
        while (peek() != close) {
            items.add(java(value(depth + 1)));
            if (peek() == ',') {
                pos++;
                skipSpace();
            } else if (peek() != close) {
                throw new NotLiteral();
            }
        }
        pos++;
        return Collections.unmodifiableList(items);
    }

    /** {@code ()} and {@code (1, 2)} are tuples; {@code (1)} is just 1. */
    private Object tuple(int depth) {
        int start = pos;
        pos++;
        skipSpace();
        if (peek() == ')') {
            pos++;
            return List.of();
        }
        Object first = value(depth + 1);
        if (peek() == ')') {
            pos++;
            return first;
        }
        pos = start;
        return sequence(')', depth);
    }

    private Object braces(int depth) {
        int start = pos;
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            return Collections.unmodifiableMap(new LinkedHashMap<>());
        }
        Object first = value(depth + 1);
        if (peek() != ':') {
            pos = start;
            return setItems(depth);
        }
        pos = start + 1;
        Map<String, Object> map = new LinkedHashMap<>();
        skipSpace();
        while (peek() != '}') {
            Object key = value(depth + 1);
            if (peek() != ':') {
                throw new NotLiteral();
            }
            pos++;
            Object val = value(depth + 1);
            map.put(keyText(key), java(val));
            if (peek() == ',') {
                pos++;
                skipSpace();
            } else if (peek() != '}') {
                throw new NotLiteral();
            }
        }
        pos++;
        return Collections.unmodifiableMap(map);
    }

    private List<Object> setItems(int depth) {
        // A set has no order in Python; Ansible's JSON shows it as a list. Duplicates go.
        List<Object> items = sequence('}', depth);
        return List.copyOf(new java.util.LinkedHashSet<>(items));
    }

    /** JSON keys are strings: Python's json.dumps writes 1 as "1", True as "true", None as "null". */
    private static String keyText(Object key) {
        if (key == NONE) {
            return "null";
        }
        if (key instanceof Boolean b) {
            return b.toString();
        }
        if (key instanceof List || key instanceof Map) {
            throw new NotLiteral();
        }
        return String.valueOf(key);
    }

    private static Object java(Object value) {
        return value == NONE ? null : value;
    }

    private static Object negate(Object n) {
        if (n instanceof Integer || n instanceof Long || n instanceof BigInteger) {
            // Through BigInteger, so -2147483648 stays an int and no ternary widens the type.
            return narrow(new BigInteger(n.toString()).negate());
        }
        if (n instanceof Double d) {
            return -d;
        }
        throw new NotLiteral();
    }

    private Object number() {
        int start = pos;
        while (!atEnd() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == '.')) {
            char c = peek();
            pos++;
            if ((c == 'e' || c == 'E') && (peek() == '+' || peek() == '-') && !isHexAt(start)) {
                pos++;
            }
        }
        String token = text.substring(start, pos);
        if (token.contains("__") || token.endsWith("_") || token.contains("_.") || token.contains("._")) {
            throw new NotLiteral();
        }
        String digits = token.replace("_", "");
        String lower = digits.toLowerCase(java.util.Locale.ROOT);
        try {
            if (lower.startsWith("0x")) {
                return narrow(new BigInteger(digits.substring(2), 16));
            }
            if (lower.startsWith("0o")) {
                return narrow(new BigInteger(digits.substring(2), 8));
            }
            if (lower.startsWith("0b")) {
                return narrow(new BigInteger(digits.substring(2), 2));
            }
            if (lower.matches("[0-9]+")) {
                // Python 3 refuses 0777: a leading zero is only allowed in 0, 00, ...
                if (lower.length() > 1 && lower.startsWith("0") && !lower.matches("0+")) {
                    throw new NotLiteral();
                }
                return narrow(new BigInteger(lower));
            }
            if (lower.matches("([0-9]+\\.[0-9]*|\\.[0-9]+|[0-9]+)(e[+-]?[0-9]+)?")) {
                return Double.parseDouble(lower);
            }
        } catch (NumberFormatException e) {
            throw new NotLiteral();
        }
        throw new NotLiteral();
    }

    private boolean isHexAt(int start) {
        return text.regionMatches(true, start, "0x", 0, 2);
    }

    private static Object narrow(BigInteger value) {
        if (value.bitLength() < 32) {
            return value.intValue();
        }
        if (value.bitLength() < 64) {
            return value.longValue();
        }
        return value;
    }

    private boolean isStringStart() {
        int p = pos;
        while (p < text.length() && p - pos < 2 && "rRuUbBfF".indexOf(text.charAt(p)) >= 0) {
            p++;
        }
        return p < text.length() && (text.charAt(p) == '\'' || text.charAt(p) == '"');
    }

    /** Adjacent string literals concatenate, as in Python: {@code 'a' "b"} is "ab". */
    private String strings() {
        StringBuilder out = new StringBuilder();
        while (isStringStart()) {
            out.append(string());
            skipSpace();
        }
        return out.toString();
    }

    private String string() {
        boolean raw = false;
        while ("rRuUbBfF".indexOf(peek()) >= 0) {
            char prefix = Character.toLowerCase(peek());
            if (prefix == 'b' || prefix == 'f') {
                // bytes and f-strings are not plain str literals for Ansible's purposes
                throw new NotLiteral();
            }
            raw |= prefix == 'r';
            pos++;
        }
        char quote = peek();
        boolean triple = text.startsWith(String.valueOf(quote).repeat(3), pos);
        pos += triple ? 3 : 1;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (atEnd()) {
                throw new NotLiteral();
            }
            char c = text.charAt(pos);
            if (c == quote && (!triple || text.startsWith(String.valueOf(quote).repeat(3), pos))) {
                pos += triple ? 3 : 1;
                return out.toString();
            }
            if (c == '\\' && pos + 1 < text.length()) {
                if (raw) {
                    out.append(c).append(text.charAt(pos + 1));
                    pos += 2;
                } else {
                    escape(out);
                }
                continue;
            }
            out.append(c);
            pos++;
        }
    }

    private void escape(StringBuilder out) {
        char e = text.charAt(pos + 1);
        pos += 2;
        switch (e) {
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'r' -> out.append('\r');
            case '\\' -> out.append('\\');
            case '\'' -> out.append('\'');
            case '"' -> out.append('"');
            case 'a' -> out.append('\u0007');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'v' -> out.append('\u000b');
            case 'x' -> out.appendCodePoint(hex(2));
            case 'u' -> out.appendCodePoint(hex(4));
            case 'U' -> out.appendCodePoint(hex(8));
            default -> {
                if (e >= '0' && e <= '7') {
                    int value = e - '0';
                    for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; i++) {
                        value = value * 8 + (text.charAt(pos++) - '0');
                    }
                    out.append((char) value);
                } else {
                    // Python keeps an unknown escape as written.
                    out.append('\\').append(e);
                }
            }
        }
    }

    private int hex(int digits) {
        if (pos + digits > text.length()) {
            throw new NotLiteral();
        }
        try {
            int cp = Integer.parseInt(text.substring(pos, pos + digits), 16);
            pos += digits;
            if (!Character.isValidCodePoint(cp)) {
                throw new NotLiteral();
            }
            return cp;
        } catch (NumberFormatException ex) {
            throw new NotLiteral();
        }
    }
}
