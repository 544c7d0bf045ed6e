package dev.fleetfix.playbook;

import dev.fleetfix.InputException;
import dev.fleetfix.TemplateText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Substitutes {@code {{ name }}} in step arguments, through {@link TemplateText}. Only plain variable names
 * are allowed (no filters, no expressions): a playbook that needs more is better off with a play variable. A
 * string that is exactly one template keeps the variable's type ({@code "{{ port }}"} stays a number).
 */
public final class Templates {
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
        Function<String, InputException> error = message -> where.error(arg + ": " + message);
        if (!shellQuote) {
            return TemplateText.render(text, vars::get, error);
        }
        TemplateText.checkClosed(text, error);
        try {
            return ShellSplice.render(text, expression -> TemplateText.spliced(expression, vars::get, error));
        } catch (ShellSplice.Refused e) {
            throw where.error(arg + ": " + e.getMessage() + " (in '" + text + "')");
        }
    }
}
