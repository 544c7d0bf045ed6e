package dev.fleetfix;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fleetfix's one template language, {@code {{ name }}}: only plain variable names, no filters, no expressions.
 * Playbooks (step arguments, play vars) and inventories (variable values) both use it, so what one accepts the
 * other does, and both refuse the rest with the same words.
 *
 * <p>Errors are made by the caller's {@code error} function from a message, so each names its own place
 * (file:line:column and the argument or variable).
 */
public final class TemplateText {
    private static final Pattern TEMPLATE = Pattern.compile("\\{\\{(.*?)}}");
    private static final Pattern NAME = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*");

    private TemplateText() {}

    /** Whether {@code text} holds a template to resolve. */
    public static boolean isTemplated(String text) {
        return text.contains("{{");
    }

    /**
     * Resolves every template in {@code text}. A text that is exactly one template keeps the variable's type
     * ({@code "{{ port }}"} stays a number, a secret stays a secret); otherwise each value is spliced in as text.
     *
     * @param vars a variable's value, or null when it is undefined
     */
    public static Object render(
            String text, Function<String, Object> vars, Function<String, ? extends RuntimeException> error) {
        checkClosed(text, error);
        Matcher m = TEMPLATE.matcher(text);
        // exactly one template, the whole text: matches() alone would read "{{ a }}.{{ b }}" as one
        if (m.find() && m.start() == 0 && m.end() == text.length()) {
            return lookup(m.group(1), vars, error);
        }
        m.reset();
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(spliced(m.group(1), vars, error)));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Refuses a {@code {{} that no {@code }}} closes. */
    public static void checkClosed(String text, Function<String, ? extends RuntimeException> error) {
        if (TEMPLATE.matcher(text).replaceAll("").contains("{{")) {
            throw error.apply("unclosed '{{' in '" + text + "'");
        }
    }

    /** A value as text inside a longer string; a secret is refused, since its text would be "******". */
    public static String spliced(
            String expression, Function<String, Object> vars, Function<String, ? extends RuntimeException> error) {
        Object resolved = lookup(expression, vars, error);
        if (resolved instanceof Secret) {
            throw error.apply("'{{" + expression + "}}' is a secret, and fleetfix never puts a secret into"
                    + " a command or other text (it would show in the host's process list and in logs);"
                    + " steps that need it (restart_redis, wait_healthy) read it from the inventory themselves");
        }
        String piece = String.valueOf(resolved);
        if (piece.indexOf('\0') >= 0) {
            throw error.apply("the value of '{{" + expression + "}}' holds a NUL character");
        }
        return piece;
    }

    /**
     * The value of one {@code {{ expression }}}: a plain variable name that is defined, else an error; a variable
     * whose own value cannot be evaluated ({@link Unevaluated}) is an error too, naming both places.
     */
    public static Object lookup(
            String expression, Function<String, Object> vars, Function<String, ? extends RuntimeException> error) {
        Matcher name = NAME.matcher(expression);
        if (!name.matches()) {
            throw error.apply("only plain variable names are supported in '{{" + expression + "}}'");
        }
        String key = name.group(1);
        Object value = vars.apply(key);
        if (value == null) {
            throw error.apply("undefined variable '" + key + "'");
        }
        if (value instanceof Unevaluated unusable) {
            throw error.apply(
                    "'" + key + "' cannot be evaluated: " + unusable.problem().getMessage());
        }
        return value;
    }
}
