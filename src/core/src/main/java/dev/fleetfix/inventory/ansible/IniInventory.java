package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.YamlValue;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an INI inventory as Ansible's {@code ini} plugin does, into YAML-inventory documents that
 * {@link InventoryLoader} builds (so ranges, {@code host:port}, groups and precedence are one
 * implementation for both formats):
 *
 * <ul>
 *   <li>{@code [group]}, {@code [group:children]}, {@code [group:vars]}; hosts before any section
 *       are {@code ungrouped};
 *   <li>host lines are split like a POSIX shell ({@code #} starts a comment) and their values go
 *       through Python's {@code literal_eval}: {@code port=6380} is a number, {@code on=True} a
 *       boolean, {@code name='x y'} a string;
 *   <li>{@code :vars} lines are {@code key = value}, the value stripped and also literal-evaluated
 *       (ansible-core 2.14 does this; the documentation's "always strings" is not what it does);
 *   <li>a child group must be defined by a section of its own somewhere in the file, and
 *       {@code [g:vars]} needs {@code g} defined, or the file is refused.
 * </ul>
 */
final class IniInventory {
    private static final Pattern SECTION = Pattern.compile("^\\[([^:\\]\\s]+)(?::(\\w+))?\\]\\s*(?:#.*)?$");
    private static final Pattern GROUP_NAME = Pattern.compile("^([^:\\]\\s]+)\\s*(?:#.*)?$");

    private final Path file;
    private final List<YamlValue> documents = new ArrayList<>();
    private final Set<String> defined = new LinkedHashSet<>();
    /** Children named before their own section: child → (parent, line of the mention). */
    private final Map<String, List<Pending>> pendingChildren = new LinkedHashMap<>();
    /** {@code [g:vars]} sections whose group is not defined yet: group → line. */
    private final Map<String, Integer> pendingVars = new LinkedHashMap<>();

    private record Pending(String parent, int line) {}

    private IniInventory(Path file) {
        this.file = file;
    }

    static InventorySource read(Path file, VaultKeyring vault) {
        IniInventory ini = new IniInventory(file);
        ini.parse(lines(file, vault));
        return new InventorySource(file, ini.documents);
    }

    /** Whether {@code text} looks like an INI inventory rather than YAML: Ansible tries YAML first. */
    static List<String> lines(Path file, VaultKeyring vault) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
            return vault.reveal(file, text).lines().toList();
        } catch (CharacterCodingException e) {
            // Stricter than Ansible, which reads the bytes into a host name no DNS or SSH would take
            throw new InputException(file, firstBadLine(file), 0, "inventory is not UTF-8 text");
        } catch (IOException e) {
            throw new InputException("inventory " + file + ": cannot read: " + e.getMessage());
        }
    }

    /** The 1-based line of the first byte sequence that is not UTF-8, for the error. */
    private static int firstBadLine(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            int line = 1;
            int start = 0;
            for (int i = 0; i <= bytes.length; i++) {
                if (i == bytes.length || bytes[i] == '\n') {
                    try {
                        StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes, start, i - start));
                    } catch (CharacterCodingException e) {
                        return line;
                    }
                    line++;
                    start = i + 1;
                }
            }
            return 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private void parse(List<String> lines) {
        String group = InventoryLoader.UNGROUPED;
        String state = "hosts";
        defined.add(InventoryLoader.ALL);
        defined.add(InventoryLoader.UNGROUPED);
        int number = 0;
        for (String raw : lines) {
            number++;
            String line = raw.strip();
            if (line.isEmpty() || line.charAt(0) == '#' || line.charAt(0) == ';') {
                continue;
            }
            Matcher section = SECTION.matcher(line);
            if (section.matches()) {
                group = section.group(1);
                state = section.group(2) == null ? "hosts" : section.group(2);
                section(group, state, number);
                continue;
            }
            if (line.startsWith("[") && !line.contains("]")) {
                // Ansible fails on it too, reading it as a host; "[2001:db8::1]:22" is a host, and has its "]"
                throw error(number, "section " + line + " is never closed: a section is [group]");
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                throw error(
                        number,
                        "invalid section " + line + ": a section is [group], [group:children] or [group:vars],"
                                + " without spaces");
            }
            switch (state) {
                case "hosts" -> hostLine(group, line, number);
                case "vars" -> varsLine(group, line, number);
                default -> childLine(group, line, number);
            }
        }
        refuseUndefined();
    }

    /** A {@code [g:vars]} or a child group whose group has no section of its own anywhere in the file. */
    private void refuseUndefined() {
        if (!pendingVars.isEmpty()) {
            Map.Entry<String, Integer> first = pendingVars.entrySet().iterator().next();
            throw error(
                    first.getValue(),
                    "section [" + first.getKey() + ":vars] is for a group that is defined nowhere in the file");
        }
        if (!pendingChildren.isEmpty()) {
            Map.Entry<String, List<Pending>> first =
                    pendingChildren.entrySet().iterator().next();
            Pending mention = first.getValue().get(0);
            throw error(
                    mention.line(),
                    "section [" + mention.parent() + ":children] names group " + first.getKey()
                            + ", which has no section of its own ([" + first.getKey() + "] or ["
                            + first.getKey() + ":children])");
        }
    }

    private void section(String group, String state, int line) {
        if (!Set.of("hosts", "children", "vars").contains(state)) {
            throw error(
                    line,
                    "section [" + group + ":" + state + "] has unknown type " + state + " (hosts, children or vars)");
        }
        if (state.equals("vars")) {
            if (!defined.contains(group)) {
                pendingVars.putIfAbsent(group, line);
            }
            document(group, line, "vars", Map.of());
            return;
        }
        document(group, line, "hosts", Map.of());
        defined.add(group);
        pendingVars.remove(group);
        addPendingChildren(group);
    }

    /** A group defined at last joins the parents that named it, and theirs in turn (as Ansible). */
    private void addPendingChildren(String group) {
        List<Pending> parents = pendingChildren.remove(group);
        if (parents == null) {
            return;
        }
        for (Pending p : parents) {
            child(p.parent(), group, p.line());
            addPendingChildren(p.parent());
        }
    }

    private void hostLine(String group, String line, int number) {
        List<String> tokens;
        try {
            tokens = Shlex.split(line);
        } catch (IllegalArgumentException e) {
            throw error(number, "cannot parse host line: " + e.getMessage());
        }
        if (tokens.isEmpty()) {
            return;
        }
        String pattern = tokens.get(0);
        if (pattern.strip().equals("---")) {
            throw error(number, "host \"---\": this looks like a YAML file, not an INI inventory");
        }
        if (tokens.size() == 1 && pattern.contains("=")) {
            // Stricter than Ansible, which makes a host named "port=6380": a variable written on its own line where
            // a host belongs would be lost, and the "host" fail at connection time
            throw error(
                    number,
                    "host \"" + pattern + "\" is a key=value with no host before it: a host's variables follow its"
                            + " name on its line, a group's go under [" + group + ":vars]");
        }
        if (pattern.strip().endsWith(":")) {
            throw error(number, "host \"" + pattern + "\" ends in ':', which is reserved for a port");
        }
        Map<String, YamlValue.Entry> vars = new LinkedHashMap<>();
        for (String token : tokens.subList(1, tokens.size())) {
            int eq = token.indexOf('=');
            if (eq < 0) {
                throw error(number, "expected key=value after the host name, got \"" + token + "\"");
            }
            String key = token.substring(0, eq);
            vars.put(key, field(key, number, PythonLiteral.evalToJava(token.substring(eq + 1))));
        }
        Map<String, YamlValue.Entry> host = new LinkedHashMap<>();
        host.put(
                pattern,
                new YamlValue.Entry(
                        pattern,
                        number,
                        1,
                        vars.isEmpty()
                                ? new YamlValue.Scalar(null, number, 1)
                                : new YamlValue.Mapping(vars, number, 1)));
        document(group, number, "hosts", host);
    }

    private void varsLine(String group, String line, int number) {
        int eq = line.indexOf('=');
        if (eq < 0) {
            throw error(number, "expected key=value in [" + group + ":vars], got \"" + line + "\"");
        }
        String key = line.substring(0, eq).strip();
        Object value = PythonLiteral.evalToJava(line.substring(eq + 1).strip());
        document(group, number, "vars", Map.of(key, field(key, number, value)));
    }

    private void childLine(String group, String line, int number) {
        Matcher m = GROUP_NAME.matcher(line);
        if (!m.matches()) {
            throw error(number, "expected a group name in [" + group + ":children], got \"" + line + "\"");
        }
        String child = m.group(1);
        if (defined.contains(child)) {
            child(group, child, number);
        } else {
            pendingChildren.computeIfAbsent(child, c -> new ArrayList<>()).add(new Pending(group, number));
        }
    }

    private void child(String parent, String child, int number) {
        Map<String, YamlValue.Entry> children = new LinkedHashMap<>();
        children.put(child, new YamlValue.Entry(child, number, 1, new YamlValue.Scalar(null, number, 1)));
        document(parent, number, "children", children);
    }

    /** One document {@code {group: {section: entries}}}; the loader merges them in order. */
    private void document(String group, int line, String section, Map<String, YamlValue.Entry> entries) {
        Map<String, YamlValue.Entry> body = new LinkedHashMap<>();
        if (!entries.isEmpty()) {
            body.put(section, new YamlValue.Entry(section, line, 1, new YamlValue.Mapping(entries, line, 1)));
        }
        Map<String, YamlValue.Entry> top = new LinkedHashMap<>();
        top.put(
                group,
                new YamlValue.Entry(
                        group,
                        line,
                        1,
                        body.isEmpty() ? new YamlValue.Scalar(null, line, 1) : new YamlValue.Mapping(body, line, 1)));
        documents.add(new YamlValue.Mapping(top, line, 1));
    }

    private static YamlValue.Entry field(String key, int line, Object value) {
        return new YamlValue.Entry(key, line, 1, YamlValue.of(value, line, 0));
    }

    private InputException error(int line, String message) {
        return new InputException(file, line, 0, message);
    }
}
