package dev.fleetfix.playbook;

import dev.fleetfix.Secret;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Substitutes {@code {{ name }}} in step arguments. Only plain variable names are allowed (no
 * filters, no expressions): a playbook that needs more is better off with a play variable. A string
 * that is exactly one template keeps the variable's type ({@code "{{ port }}"} stays a number).
 */
public final class Templates {
    private static final Pattern TEMPLATE = Pattern.compile("\\{\\{(.*?)}}");
    private static final Pattern NAME = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*");

    private Templates() {}

    /**
     * Resolves every template in a value (recursing into lists and maps).
     *
     * @param shellQuote quote each substituted value for {@code sh}: for arguments that are shell text
     * @throws dev.fleetfix.InputException naming the variable and {@code where} when it is undefined
     */
    public static Object render(
            Object value, Map<String, Object> vars, Location where, String arg, boolean shellQuote) {
        if (value instanceof String text) {
            return renderText(text, vars, where, arg, shellQuote);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object item : list) {
                out.add(render(item, vars, where, arg, shellQuote));
            }
            return List.copyOf(out);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k.toString(), render(v, vars, where, arg + "." + k, shellQuote)));
            return out;
        }
        return value;
    }

    private static Object renderText(
            String text, Map<String, Object> vars, Location where, String arg, boolean shellQuote) {
        if (TEMPLATE.matcher(text).replaceAll("").contains("{{")) {
            throw where.error(arg + ": unclosed '{{' in '" + text + "'");
        }
        Matcher m = TEMPLATE.matcher(text);
        if (!shellQuote && m.matches()) {
            return lookup(m.group(1), vars, where, arg);
        }
        if (shellQuote) {
            try {
                return ShellSplice.render(text, expression -> spliced(expression, vars, where, arg));
            } catch (ShellSplice.Refused e) {
                throw where.error(arg + ": " + e.getMessage() + " (in '" + text + "')");
            }
        }
        m.reset();
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String piece = spliced(m.group(1), vars, where, arg);
            m.appendReplacement(out, Matcher.quoteReplacement(piece));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A value as text inside a longer string; a secret is refused, since its text would be "******". */
    private static String spliced(String expression, Map<String, Object> vars, Location where, String arg) {
        Object resolved = lookup(expression, vars, where, arg);
        if (resolved instanceof Secret) {
            throw where.error(arg + ": '{{" + expression + "}}' is a secret, and fleetfix never puts a secret into"
                    + " a command or other text (it would show in the host's process list and in logs);"
                    + " steps that need it (restart_redis, wait_healthy) read it from the inventory themselves");
        }
        String piece = String.valueOf(resolved);
        if (piece.indexOf('\0') >= 0) {
            throw where.error(arg + ": the value of '{{" + expression + "}}' holds a NUL character");
        }
        return piece;
    }

    private static Object lookup(String expression, Map<String, Object> vars, Location where, String arg) {
        Matcher name = NAME.matcher(expression);
        if (!name.matches()) {
            throw where.error(arg + ": only plain variable names are supported in '{{" + expression + "}}'");
        }
        String key = name.group(1);
        if (!vars.containsKey(key) || vars.get(key) == null) {
            throw where.error(arg + ": undefined variable '" + key + "'");
        }
        return vars.get(key);
    }
}
