package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.TemplateText;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.PasswordVariables;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code {{ name }}} templates in one host's variable values, resolved as Ansible resolves them when the host
 * is used: {@code ansible_host: "{{ inventory_hostname }}.{{ domain }}"} is an address, not a host name with
 * braces in it. Names are the host's own variables (after precedence) and Ansible's magic variables that mean
 * something here: {@code inventory_hostname}, {@code inventory_hostname_short}, {@code group_names}, {@code groups},
 * {@code inventory_dir} and {@code inventory_file}; a variable may use another that is itself templated.
 *
 * <p>A value fleetfix's templates cannot evaluate ({@code lookup()}, filters, expressions, {@code {% %}}, an
 * undefined name such as {@code ansible_playbook_python}, a secret spliced into text) is never taken literally (a
 * password of {@code "{{ lookup('env','PW') }}"} would be sent as is) and never refused here either: it becomes an
 * {@link Unevaluated} that keeps the text as written and the error by file:line:column, and whatever uses it (a
 * connection setting, a Redis setting, a step's argument) refuses with that error. Ansible templates a variable only
 * when it is used, and an inventory shared with Ansible holds many that fleetfix never uses.
 */
final class VarTemplates {
    private final String host;
    private final Map<String, YamlValue> merged;
    private final Map<String, Object> magic;
    private final Function<YamlValue, Path> fileOf;
    private final Map<String, YamlValue> rendered = new HashMap<>();
    private final Set<String> resolving = new LinkedHashSet<>();

    private VarTemplates(
            String host, Map<String, YamlValue> merged, Map<String, Object> magic, Function<YamlValue, Path> fileOf) {
        this.host = host;
        this.merged = merged;
        this.magic = magic;
        this.fileOf = fileOf;
    }

    /**
     * The layers with every templated value that decides a variable (the most specific one) resolved; each
     * resolved node keeps its place, and {@code renderedFrom} learns which node it came from, for errors that name
     * its file. Layers without any template are returned as they are.
     */
    static List<Map<String, YamlValue>> render(
            String host,
            List<String> groups,
            Map<String, Object> magicVars,
            List<Map<String, YamlValue>> layers,
            Function<YamlValue, Path> fileOf,
            Map<YamlValue, YamlValue> renderedFrom) {
        if (layers.stream().flatMap(l -> l.values().stream()).noneMatch(VarTemplates::hasTemplate)) {
            return layers;
        }
        Map<String, YamlValue> merged = new LinkedHashMap<>();
        layers.forEach(merged::putAll);
        Map<String, Object> magic = new HashMap<>(magicVars);
        magic.put("inventory_hostname", host);
        magic.put("inventory_hostname_short", host.split("\\.", 2)[0]);
        magic.put(
                "group_names",
                groups.stream()
                        .filter(g -> !g.equals(InventoryLoader.ALL))
                        .sorted()
                        .toList());
        VarTemplates templates = new VarTemplates(host, merged, magic, fileOf);
        List<Map<String, YamlValue>> out = new ArrayList<>();
        for (Map<String, YamlValue> layer : layers) {
            Map<String, YamlValue> copy = new LinkedHashMap<>();
            layer.forEach((key, node) -> {
                // a value that a more specific layer overrides is never used, and not resolved
                YamlValue value = merged.get(key) == node ? templates.variable(key) : node;
                if (value != node) {
                    renderedFrom.put(value, node);
                }
                copy.put(key, value);
            });
            out.add(copy);
        }
        return out;
    }

    private static boolean hasTemplate(YamlValue node) {
        Object value = node.value();
        if (value instanceof String text) {
            return TemplateText.isTemplated(text) || text.contains("{%");
        }
        if (value instanceof Map<?, ?> map) {
            return map.values().stream().anyMatch(f -> hasTemplate(((YamlValue.Entry) f).value()));
        }
        if (value instanceof List<?> list) {
            return list.stream().anyMatch(item -> hasTemplate((YamlValue) item));
        }
        return false;
    }

    /**
     * A variable's node with its templates resolved, once per variable; one that cannot be evaluated is a scalar
     * holding an {@link Unevaluated}. Only a loop throws, to the variable that closes it, which keeps it unevaluated.
     */
    private YamlValue variable(String name) {
        YamlValue done = rendered.get(name);
        if (done != null) {
            return done;
        }
        YamlValue node = merged.get(name);
        if (!hasTemplate(node)) {
            return node;
        }
        if (!resolving.add(name)) {
            throw error(
                    node,
                    name,
                    "'" + name + "' is defined through itself (" + String.join(" -> ", resolving) + " -> " + name
                            + ")");
        }
        YamlValue value;
        try {
            value = node(node, name, secret(name));
        } catch (InputException e) {
            // kept as written; whatever uses it refuses with this error
            value = new YamlValue.Scalar(new Unevaluated(node.plain(), e), node.line(), node.column());
        } finally {
            resolving.remove(name);
        }
        rendered.put(name, value);
        return value;
    }

    private static boolean secret(String name) {
        return PasswordVariables.isPassword(name);
    }

    private YamlValue node(YamlValue node, String name, boolean secret) {
        Object value = node.value();
        if (value instanceof String text) {
            return text(node, text, name, secret);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, YamlValue.Entry> out = new LinkedHashMap<>();
            map.values().forEach(f -> {
                YamlValue.Entry field = (YamlValue.Entry) f;
                out.put(
                        field.key(),
                        new YamlValue.Entry(
                                field.key(),
                                field.line(),
                                field.column(),
                                node(field.value(), name + "." + field.key(), secret)));
            });
            return new YamlValue.Mapping(out, node.line(), node.column());
        }
        if (value instanceof List<?> list) {
            List<YamlValue> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                out.add(node((YamlValue) list.get(i), name + "[" + i + "]", secret));
            }
            return new YamlValue.Sequence(out, node.line(), node.column());
        }
        return node;
    }

    private YamlValue text(YamlValue node, String text, String name, boolean secret) {
        if (text.contains("{%") || text.contains("{#")) {
            throw error(node, name, "Jinja statements and comments ('{%', '{#') are not supported in '" + text + "'");
        }
        if (!TemplateText.isTemplated(text)) {
            return node;
        }
        Object value = TemplateText.render(text, this::lookup, message -> error(node, name, message));
        if (value instanceof Secret s) {
            if (!secret) {
                throw error(
                        node,
                        name,
                        "'" + text.strip() + "' is a secret, and only another password variable may"
                                + " take its value (" + name + " would show it in listings and reports)");
            }
            // still a secret, decrypted (when vaulted) only when a run reveals it
        }
        return YamlValue.of(value, node.line(), node.column());
    }

    /** A name's value for {@link TemplateText}: plain Java values, a password as a {@link Secret}. */
    private Object lookup(String name) {
        if (magic.containsKey(name)) {
            return magic.get(name);
        }
        if (!merged.containsKey(name)) {
            return null;
        }
        Object plain = variable(name).plain();
        if (plain instanceof Secret || plain instanceof Unevaluated) {
            return plain; // an inline !vault value: a secret whatever its name; TemplateText refuses an Unevaluated
        }
        return plain != null && secret(name) ? Secret.of(String.valueOf(plain)) : plain;
    }

    private InputException error(YamlValue node, String name, String message) {
        Path file = fileOf.apply(node);
        return new InputException(file, node.line(), node.column(), "host " + host + ": " + name + ": " + message);
    }
}
