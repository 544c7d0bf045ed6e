package dev.fleetfix.playbook;

import dev.fleetfix.playbook.YamlTree.Entry;
import dev.fleetfix.playbook.YamlTree.ListNode;
import dev.fleetfix.playbook.YamlTree.MapNode;
import dev.fleetfix.playbook.YamlTree.Node;
import dev.fleetfix.playbook.YamlTree.ScalarNode;
import dev.fleetfix.yaml.LocatedYaml;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a playbook: a YAML list of plays. Every mistake (unknown key, unknown step type, wrong
 * value) is an {@link dev.fleetfix.InputException} naming file:line:column.
 *
 * <pre>
 * - name: THP off
 *   hosts: redis
 *   serial: [1, "50%"]
 *   steps:
 *     - thp: {enabled: never, defrag: never}
 *     - name: restart
 *       tags: [restart]
 *       restart_redis: {unit: "{{ redis_service }}"}
 * </pre>
 */
public final class PlaybookParser {
    private static final Set<String> PLAY_KEYS =
            Set.of("name", "hosts", "serial", "max_fail_percentage", "vars", "window", "steps", "tags");
    private static final Set<String> STEP_KEYS = Set.of("name", "when", "tags");
    private static final Map<String, String> ANSIBLE_HINTS =
            Map.of("tasks", "steps", "max_fail_percent", "max_fail_percentage", "host", "hosts");

    private final StepCatalog catalog;

    public PlaybookParser(StepCatalog catalog) {
        this.catalog = catalog;
    }

    public Playbook parse(Path file) {
        return parse(file, LocatedYaml.readText(file, "playbook"));
    }

    /**
     * Parses {@code text}, read from {@code file}. What it accepts but doubts (a key written twice)
     * is in the playbook's {@link Playbook#warnings()}.
     */
    public Playbook parse(Path file, String text) {
        List<String> warnings = new ArrayList<>();
        Node root = YamlTree.read(file, text, warnings::add);
        if (!(root instanceof ListNode list)) {
            throw root.at().error("a playbook is a list of plays (\"- name: ...\"), found " + root.kind());
        }
        if (list.items().isEmpty()) {
            throw root.at().error("the playbook has no plays");
        }
        List<Play> plays = new ArrayList<>();
        for (Node item : list.items()) {
            plays.add(play(item));
        }
        return new Playbook(file, plays, warnings);
    }

    private Play play(Node node) {
        MapNode map = map(node, "a play");
        checkKeys(map, PLAY_KEYS, "play");
        String hosts = requiredText(map, "hosts", "play");
        String name = optionalText(map, "name").orElse(hosts);
        List<BatchSize> serial = map.entries().containsKey("serial")
                ? serial(map.entries().get("serial").value())
                : List.of();
        int maxFail = map.entries().containsKey("max_fail_percentage")
                ? percentage(map.entries().get("max_fail_percentage").value())
                : 0;
        Map<String, Object> vars = new LinkedHashMap<>();
        if (map.entries().containsKey("vars")) {
            MapNode varsNode = map(map.entries().get("vars").value(), "vars");
            varsNode.entries().forEach((k, e) -> vars.put(k, e.value().plain()));
        }
        Optional<String> window = optionalText(map, "window");
        Entry stepsEntry = map.entries().get("steps");
        if (stepsEntry == null) {
            throw map.at().error("play '" + name + "': missing key 'steps'");
        }
        if (!(stepsEntry.value() instanceof ListNode stepList)) {
            throw stepsEntry
                    .value()
                    .at()
                    .error("steps: expected a list of steps, found "
                            + stepsEntry.value().kind());
        }
        List<Step> steps = new ArrayList<>();
        for (Node stepNode : stepList.items()) {
            steps.add(step(stepNode));
        }
        List<String> tags = tags(map);
        try {
            return new Play(name, hosts, serial, maxFail, vars, window, steps, map.at(), tags);
        } catch (IllegalArgumentException e) {
            throw map.at().error(e.getMessage());
        }
    }

    private Step step(Node node) {
        MapNode map = map(node, "a step");
        Entry typeEntry = null;
        for (Entry entry : map.entries().values()) {
            if (STEP_KEYS.contains(entry.key())) {
                continue;
            }
            if (catalog.signature(entry.key()).isEmpty()) {
                throw entry.keyAt()
                        .error("unknown step type '" + entry.key() + "' (known: "
                                + String.join(", ", new TreeSet<>(catalog.typeNames())) + ")");
            }
            if (typeEntry != null) {
                throw entry.keyAt()
                        .error("a step has one type, found '" + typeEntry.key() + "' and '" + entry.key() + "'");
            }
            typeEntry = entry;
        }
        if (typeEntry == null) {
            throw map.at()
                    .error("step without a type (one of: " + String.join(", ", new TreeSet<>(catalog.typeNames()))
                            + ")");
        }
        StepSignature signature = catalog.signature(typeEntry.key()).orElseThrow();
        Map<String, Object> args = args(typeEntry, signature);
        String name = optionalText(map, "name").orElse(typeEntry.key());
        Optional<String> when = optionalText(map, "when");
        return new Step(typeEntry.key(), name, args, when, map.at(), tags(map));
    }

    /**
     * {@code tags:} of a play or a step, in Ansible's three forms: one tag, tags separated by commas, or a list.
     * The selection words ({@code all}, {@code tagged}, {@code untagged}) are refused (Ansible warns that they
     * "might give unexpected results"), and so is a template: a tag is chosen on the command line before any
     * variable is known.
     */
    private static List<String> tags(MapNode map) {
        Entry entry = map.entries().get("tags");
        if (entry == null) {
            return List.of();
        }
        Node value = entry.value();
        Set<String> tags = new LinkedHashSet<>();
        if (value instanceof ScalarNode scalar && scalar.value() != null) {
            for (String piece : scalar.text().split(",", -1)) {
                tags.add(tag(piece, scalar.at()));
            }
        } else if (value instanceof ListNode list) {
            for (Node item : list.items()) {
                if (!(item instanceof ScalarNode tag) || tag.value() == null) {
                    throw item.at().error("tags: expected a tag (text), found " + item.kind());
                }
                if (tag.text().contains(",")) {
                    throw item.at()
                            .error("tags: '" + tag.text() + "' holds a comma; in a list, give each tag as an item");
                }
                tags.add(tag(tag.text(), tag.at()));
            }
        } else {
            throw value.at()
                    .error("tags: expected a tag, tags separated by commas, or a list of tags, found " + value.kind());
        }
        return List.copyOf(tags);
    }

    private static String tag(String text, Location at) {
        String tag = text.strip();
        if (tag.isEmpty()) {
            throw at.error("tags: an empty tag");
        }
        if (TagSelection.SELECTION_WORDS.contains(tag)) {
            throw at.error("tags: '" + tag + "' selects steps on the command line (--tags all, tagged, untagged);"
                    + " it cannot be a step's tag");
        }
        if (tag.contains("{{") || tag.contains("{%")) {
            throw at.error(
                    "tags: '" + tag + "': tags are not templated (they are chosen before any variable is known)");
        }
        return tag;
    }

    private static Map<String, Object> args(Entry typeEntry, StepSignature signature) {
        Node value = typeEntry.value();
        Map<String, Object> args = new LinkedHashMap<>();
        if (value instanceof ScalarNode scalar) {
            if (scalar.value() == null) {
                return args;
            }
            String free = signature.freeFormArg().orElseThrow(() -> scalar.at()
                    .error(signature.type() + ": expected a mapping of arguments ({...}), found a scalar"));
            args.put(free, scalar.value());
            return args;
        }
        if (!(value instanceof MapNode map)) {
            throw value.at().error(signature.type() + ": expected a mapping of arguments, found " + value.kind());
        }
        for (Entry arg : map.entries().values()) {
            if (!signature.accepts(arg.key())) {
                throw arg.keyAt()
                        .error(signature.type() + ": unknown argument '" + arg.key() + "' (known: "
                                + String.join(", ", new TreeSet<>(signature.args())) + ")");
            }
            args.put(arg.key(), arg.value().plain());
        }
        return args;
    }

    private static List<BatchSize> serial(Node node) {
        List<BatchSize> sizes = new ArrayList<>();
        if (node instanceof ListNode list) {
            if (list.items().isEmpty()) {
                throw node.at().error("serial: the list is empty");
            }
            for (Node item : list.items()) {
                sizes.add(batchSize(item));
            }
        } else {
            sizes.add(batchSize(node));
        }
        return sizes;
    }

    private static BatchSize batchSize(Node node) {
        if (!(node instanceof ScalarNode scalar) || scalar.value() == null) {
            throw node.at().error("serial: expected a number or a percentage like \"25%\", found " + node.kind());
        }
        String text = scalar.text().strip();
        try {
            if (text.endsWith("%")) {
                return new BatchSize.Percent(
                        Integer.parseInt(text.substring(0, text.length() - 1).strip()));
            }
            return new BatchSize.Count(Integer.parseInt(text));
        } catch (NumberFormatException e) {
            throw node.at().error("serial: expected a number or a percentage like \"25%\", was '" + text + "'");
        } catch (IllegalArgumentException e) {
            throw node.at().error(e.getMessage());
        }
    }

    private static int percentage(Node node) {
        String text = node instanceof ScalarNode s ? s.text().strip() : "";
        if (text.endsWith("%")) {
            text = text.substring(0, text.length() - 1);
        }
        try {
            int value = Integer.parseInt(text);
            if (value < 0 || value > 100) {
                throw node.at().error("max_fail_percentage: must be 0..100, was " + value);
            }
            return value;
        } catch (NumberFormatException e) {
            throw node.at().error("max_fail_percentage: expected a number 0..100, was '" + text + "'");
        }
    }

    private static MapNode map(Node node, String what) {
        if (node instanceof MapNode map) {
            return map;
        }
        throw node.at().error("expected " + what + " (a mapping), found " + node.kind());
    }

    private static void checkKeys(MapNode map, Set<String> allowed, String what) {
        for (Entry entry : map.entries().values()) {
            if (!allowed.contains(entry.key())) {
                String hint = ANSIBLE_HINTS.containsKey(entry.key())
                        ? " (did you mean '" + ANSIBLE_HINTS.get(entry.key()) + "'?)"
                        : " (known: " + String.join(", ", new TreeSet<>(allowed)) + ")";
                throw entry.keyAt().error("unknown " + what + " key '" + entry.key() + "'" + hint);
            }
        }
    }

    private static String requiredText(MapNode map, String key, String what) {
        return optionalText(map, key).orElseThrow(() -> map.at().error(what + ": missing key '" + key + "'"));
    }

    private static Optional<String> optionalText(MapNode map, String key) {
        Entry entry = map.entries().get(key);
        if (entry == null) {
            return Optional.empty();
        }
        if (!(entry.value() instanceof ScalarNode scalar) || scalar.value() == null) {
            throw entry.value()
                    .at()
                    .error(key + ": expected text, found " + entry.value().kind());
        }
        return Optional.of(scalar.text());
    }
}
