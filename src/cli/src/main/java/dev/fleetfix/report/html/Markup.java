package dev.fleetfix.report.html;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A piece of HTML that is safe to put in the page. Anything that is not already {@code Markup}
 * becomes text and is escaped on the way in, so a value from a host (a test name in redis-benchmark's
 * output, a host name, a message) can never become markup: escaping is what happens unless a caller
 * holds {@code Markup}, not a call someone has to remember.
 *
 * <p>Tag and attribute names are checked to be plain names; attribute values are always escaped.
 */
final class Markup {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9-]*");
    static final Markup EMPTY = new Markup("");

    private final String html;

    private Markup(String html) {
        this.html = html;
    }

    /** Text, escaped. */
    static Markup text(Object value) {
        return value instanceof Markup m ? m : new Markup(Html.escape(value == null ? "" : String.valueOf(value)));
    }

    /**
     * Markup this program wrote itself and that holds no value from outside (a renderer's SVG whose
     * every value it escaped): the one way in besides elements and text.
     */
    static Markup trusted(String html) {
        return new Markup(Objects.requireNonNull(html, "html"));
    }

    /** {@code <tag>content</tag>}; content that is not Markup is escaped. */
    static Markup el(String tag, Object... content) {
        return el(tag, Map.of(), content);
    }

    /** {@code <tag a="v">content</tag>}; attribute values and content that is not Markup are escaped. */
    static Markup el(String tag, Map<String, ?> attributes, Object... content) {
        StringBuilder b = new StringBuilder();
        b.append('<').append(name(tag)).append(attributes(attributes)).append('>');
        for (Object c : content) {
            append(b, c);
        }
        return new Markup(b.append("</").append(tag).append('>').toString());
    }

    /** {@code <tag a="v"/>}: an empty SVG element. */
    static Markup empty(String tag, Map<String, ?> attributes) {
        return new Markup("<" + name(tag) + attributes(attributes) + "/>");
    }

    /** The parts one after another; parts that are not Markup are escaped. */
    static Markup of(Object... parts) {
        StringBuilder b = new StringBuilder();
        for (Object p : parts) {
            append(b, p);
        }
        return new Markup(b.toString());
    }

    /** Attributes in the order given: {@code attrs("class", "series", "stroke", color)}. */
    static Map<String, Object> attrs(Object... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name/value pairs");
        }
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(String.valueOf(pairs[i]), pairs[i + 1]);
        }
        return map;
    }

    private static void append(StringBuilder b, Object c) {
        if (c instanceof Iterable<?> items) {
            items.forEach(item -> append(b, item));
        } else if (c != null) {
            b.append(text(c).html);
        }
    }

    private static String attributes(Map<String, ?> attributes) {
        StringBuilder b = new StringBuilder();
        attributes.forEach((k, v) -> {
            if (v != null) {
                b.append(' ')
                        .append(name(k))
                        .append("=\"")
                        .append(Html.escape(String.valueOf(v)))
                        .append('"');
            }
        });
        return b.toString();
    }

    private static String name(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a tag or attribute name: '" + name + "'");
        }
        return name;
    }

    @Override
    public String toString() {
        return html;
    }
}
