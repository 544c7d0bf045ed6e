package dev.fleetfix.report.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.AnsibleYaml;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code fleetfix inventory --list/--graph/--host} in {@code ansible-inventory}'s shapes and layout
 * (sorted keys, four-space indent), so the two outputs can be diffed; with {@code --yaml}, YAML written by {@link AnsibleYaml}, keys sorted here. Templates are printed as written and inline
 * vaulted values as their ciphertext, as Ansible prints them; other secrets are shown as {@code ******}, where Ansible
 * would print the password. A host whose vault-encrypted variables file was not decrypted is refused, as Ansible
 * refuses it.
 */
public final class InventoryListing {
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    private static final DefaultPrettyPrinter PYTHON_LAYOUT = new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("    ", "\n"))
            .withArrayIndenter(new DefaultIndenter("    ", "\n"))
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER));

    private InventoryListing() {}

    /** {@code ansible-inventory --list}: groups with their direct hosts and children, and {@code _meta.hostvars}. */
    public static String list(AnsibleInventory inventory, Collection<Host> hosts) {
        Set<String> available = new HashSet<>();
        hosts.forEach(h -> available.add(h.name()));
        Map<String, Object> out = new TreeMap<>();
        group(inventory, "all", available, out, new HashSet<>());
        Map<String, Object> hostvars = new TreeMap<>();
        for (Host h : hosts) {
            Map<String, Object> vars = h.printableVars();
            if (!vars.isEmpty()) {
                hostvars.put(h.name(), shown(vars));
            }
        }
        out.put("_meta", Map.of("hostvars", hostvars));
        return json(out);
    }

    /**
     * {@code ansible-inventory --list --yaml}: not the JSON's shape but a YAML inventory, as Ansible prints it. From
     * {@code all}, each group holds its child groups under {@code children} and its hosts under {@code hosts}, keys
     * sorted; a host's variables (the same as {@code --list}'s {@code _meta.hostvars}) stand at its first place in
     * that walk, children before hosts, and it is {@code {}} elsewhere. A group under two parents is written under
     * each, an empty group as {@code {}}.
     */
    public static String listYaml(AnsibleInventory inventory, Collection<Host> hosts) {
        Map<String, Host> available = new HashMap<>();
        hosts.forEach(h -> available.put(h.name(), h));
        return AnsibleYaml.write(Map.of("all", yamlGroup(inventory, "all", available, new HashSet<>())));
    }

    private static Map<String, Object> yamlGroup(
            AnsibleInventory inventory, String name, Map<String, Host> available, Set<String> seen) {
        AnsibleInventory.GroupShape shape = inventory.groups().get(name);
        Map<String, Object> children = new TreeMap<>();
        for (String child : shape.children()) {
            if (!child.equals("all")) {
                children.put(child, yamlGroup(inventory, child, available, seen));
            }
        }
        Map<String, Object> members = new TreeMap<>();
        if (!name.equals("all")) {
            for (String member : shape.hosts()) {
                Host host = available.get(member);
                if (host != null) {
                    members.put(member, seen.add(member) ? shown(host.printableVars()) : Map.of());
                }
            }
        }
        Map<String, Object> body = new TreeMap<>();
        if (!children.isEmpty()) {
            body.put("children", children);
        }
        if (!members.isEmpty()) {
            body.put("hosts", members);
        }
        return body;
    }

    private static void group(
            AnsibleInventory inventory, String name, Set<String> available, Map<String, Object> out, Set<String> seen) {
        AnsibleInventory.GroupShape shape = inventory.groups().get(name);
        Map<String, Object> body = new LinkedHashMap<>();
        if (!name.equals("all")) {
            List<String> hosts =
                    shape.hosts().stream().filter(available::contains).toList();
            if (!hosts.isEmpty()) {
                body.put("hosts", hosts);
            }
        }
        if (!shape.children().isEmpty()) {
            body.put("children", shape.children());
        }
        for (String child : shape.children()) {
            if (seen.add(child)) {
                group(inventory, child, available, out, seen);
            }
        }
        if (!body.isEmpty()) {
            out.put(name, body);
        }
    }

    /** {@code ansible-inventory --graph}: the tree from {@code all}, children before hosts. */
    public static String graph(AnsibleInventory inventory, String from) {
        List<String> lines = new ArrayList<>();
        graph(inventory, from, 0, lines);
        return String.join("\n", lines) + "\n";
    }

    private static void graph(AnsibleInventory inventory, String name, int depth, List<String> lines) {
        lines.add(indent(depth) + "@" + name + ":");
        AnsibleInventory.GroupShape shape = inventory.groups().get(name);
        shape.children().forEach(child -> graph(inventory, child, depth + 1, lines));
        if (!name.equals("all")) {
            shape.hosts().forEach(h -> lines.add(indent(depth + 1) + h));
        }
    }

    private static String indent(int depth) {
        return depth == 0 ? "" : "  |".repeat(depth) + "--";
    }

    /** {@code ansible-inventory --host NAME}: the host's variables. */
    public static String host(Host host) {
        return json(shown(host.printableVars()));
    }

    /** {@code ansible-inventory --host NAME --yaml}: the host's variables in YAML. */
    public static String hostYaml(Host host) {
        return AnsibleYaml.write(shown(host.printableVars()));
    }

    /**
     * Variables as {@code ansible-inventory} prints them without a vault password: a template fleetfix did not
     * evaluate as written, an inline {@code !vault} value as its ciphertext under {@code __ansible_vault}. Any other
     * secret (a password variable, a value of a vault-encrypted file) is {@code ******}, where Ansible would print it.
     */
    private static Map<String, Object> shown(Map<String, Object> vars) {
        Map<String, Object> out = new TreeMap<>();
        vars.forEach((k, v) -> out.put(k, shown(v)));
        return out;
    }

    private static Object shown(Object value) {
        if (value instanceof Secret secret) {
            return secret.envelope()
                    .<Object>map(text -> Map.of("__ansible_vault", text))
                    .orElse(secret.toString());
        }
        if (value instanceof Unevaluated unevaluated) {
            return shown(unevaluated.written());
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), shown(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(InventoryListing::shown).toList();
        }
        return value;
    }

    private static String json(Object value) {
        try {
            String text = JSON.writer(PYTHON_LAYOUT).writeValueAsString(value);
            // Python writes empty containers as {} and [], Jackson's pretty printer as { } and [ ].
            return text.replaceAll("(?m)(^\\s*|: )\\{ \\}(,?)$", "$1{}$2")
                            .replaceAll("(?m)(^\\s*|: )\\[ \\](,?)$", "$1[]$2")
                    + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("inventory variables cannot be written as JSON", e);
        }
    }
}
