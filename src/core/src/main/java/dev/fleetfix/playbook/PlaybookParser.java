package dev.fleetfix.playbook;

import dev.fleetfix.yaml.LocatedYaml;
import dev.fleetfix.yaml.YamlValue;
import dev.fleetfix.yaml.YamlValue.Entry;
import dev.fleetfix.yaml.YamlValue.Mapping;
import dev.fleetfix.yaml.YamlValue.Scalar;
import dev.fleetfix.yaml.YamlValue.Sequence;
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
        YamlValue root = LocatedYaml.parse(file, text, warnings::add, (vaulted, line, column) -> {
                    // never the ciphertext as the value: a step would send it as a password
                    throw new Location(file, line, column)
                            .error("an inline !vault value in a playbook is not decrypted; put it in group_vars/ or"
                                    + " host_vars/ (next to the inventory or the playbook), where fleetfix decrypts"
                                    + " it");
                })
                .orElseThrow(() -> new Location(file, 1, 1).error("the playbook is empty"));
        return new Document(file, catalog).playbook(root, warnings);
    }

    /** One playbook file being read: its nodes' places are in this file. */
    private record Document(Path file, StepCatalog catalog) {

        Playbook playbook(YamlValue root, List<String> warnings) {
            if (!(root instanceof Sequence list)) {
                throw at(root).error("a playbook is a list of plays (\"- name: ...\"), found " + root.kind());
            }
            if (list.items().isEmpty()) {
                throw at(root).error("the playbook has no plays");
            }
            List<Play> plays = new ArrayList<>();
            for (YamlValue item : list.items()) {
                plays.add(play(item));
            }
            return new Playbook(file, plays, warnings);
        }

        private Location at(YamlValue value) {
            return new Location(file, value.line(), value.column());
        }

        private Location keyAt(Entry entry) {
            return new Location(file, entry.line(), entry.column());
        }

        private Play play(YamlValue node) {
            Mapping map = map(node, "a play");
            checkKeys(map, PLAY_KEYS, "play");
            String hosts = requiredText(map, "hosts", "play");
            String name = optionalText(map, "name").orElse(hosts);
            List<BatchSize> serial = map.fields().containsKey("serial")
                    ? serial(map.fields().get("serial").value())
                    : List.of();
            int maxFail = map.fields().containsKey("max_fail_percentage")
                    ? percentage(map.fields().get("max_fail_percentage").value())
                    : 0;
            Map<String, Object> vars = new LinkedHashMap<>();
            if (map.fields().containsKey("vars")) {
                Mapping varsNode = map(map.fields().get("vars").value(), "vars");
                varsNode.fields().forEach((k, e) -> vars.put(k, e.value().plain()));
            }
            Optional<String> window = optionalText(map, "window");
            Entry stepsEntry = map.fields().get("steps");
            if (stepsEntry == null) {
                throw at(map).error("play '" + name + "': missing key 'steps'");
            }
            if (!(stepsEntry.value() instanceof Sequence stepList)) {
                throw at(stepsEntry.value())
                        .error("steps: expected a list of steps, found "
                                + stepsEntry.value().kind());
            }
            List<Step> steps = new ArrayList<>();
            for (YamlValue stepNode : stepList.items()) {
                steps.add(step(stepNode));
            }
            List<String> tags = tags(map);
            try {
                return new Play(name, hosts, serial, maxFail, vars, window, steps, at(map), tags);
            } catch (IllegalArgumentException e) {
                throw at(map).error(e.getMessage());
            }
        }

        private Step step(YamlValue node) {
            Mapping map = map(node, "a step");
            Entry typeEntry = null;
            for (Entry entry : map.fields().values()) {
                if (STEP_KEYS.contains(entry.key())) {
                    continue;
                }
                if (catalog.signature(entry.key()).isEmpty()) {
                    throw keyAt(entry)
                            .error("unknown step type '" + entry.key() + "' (known: "
                                    + String.join(", ", new TreeSet<>(catalog.typeNames())) + ")");
                }
                if (typeEntry != null) {
                    throw keyAt(entry)
                            .error("a step has one type, found '" + typeEntry.key() + "' and '" + entry.key() + "'");
                }
                typeEntry = entry;
            }
            if (typeEntry == null) {
                throw at(map).error("step without a type (one of: "
                        + String.join(", ", new TreeSet<>(catalog.typeNames())) + ")");
            }
            StepSignature signature = catalog.signature(typeEntry.key()).orElseThrow();
            Map<String, Object> args = args(typeEntry, signature);
            String name = optionalText(map, "name").orElse(typeEntry.key());
            Optional<String> when = optionalText(map, "when");
            return new Step(typeEntry.key(), name, args, when, at(map), tags(map));
        }

        /**
         * {@code tags:} of a play or a step, in Ansible's three forms: one tag, tags separated by commas, or a list.
         * The selection words ({@code all}, {@code tagged}, {@code untagged}) are refused (Ansible warns that they
         * "might give unexpected results"), and so is a template: a tag is chosen on the command line before any
         * variable is known.
         */
        private List<String> tags(Mapping map) {
            Entry entry = map.fields().get("tags");
            if (entry == null) {
                return List.of();
            }
            YamlValue value = entry.value();
            Set<String> tags = new LinkedHashSet<>();
            if (value instanceof Scalar scalar && scalar.value() != null) {
                for (String piece : scalar.text().split(",", -1)) {
                    tags.add(tag(piece, at(scalar)));
                }
            } else if (value instanceof Sequence list) {
                for (YamlValue item : list.items()) {
                    if (!(item instanceof Scalar tag) || tag.value() == null) {
                        throw at(item).error("tags: expected a tag (text), found " + item.kind());
                    }
                    if (tag.text().contains(",")) {
                        throw at(item).error("tags: '" + tag.text()
                                + "' holds a comma; in a list, give each tag as an item");
                    }
                    tags.add(tag(tag.text(), at(tag)));
                }
            } else {
                throw at(value)
                        .error("tags: expected a tag, tags separated by commas, or a list of tags, found "
                                + value.kind());
            }
            return List.copyOf(tags);
        }

        private String tag(String text, Location at) {
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

        private Map<String, Object> args(Entry typeEntry, StepSignature signature) {
            YamlValue value = typeEntry.value();
            Map<String, Object> args = new LinkedHashMap<>();
            if (value instanceof Scalar scalar) {
                if (scalar.value() == null) {
                    return args;
                }
                String free = signature.freeFormArg().orElseThrow(() -> at(scalar)
                        .error(signature.type() + ": expected a mapping of arguments ({...}), found a scalar"));
                args.put(free, scalar.value());
                return args;
            }
            if (!(value instanceof Mapping map)) {
                throw at(value).error(signature.type() + ": expected a mapping of arguments, found " + value.kind());
            }
            for (Entry arg : map.fields().values()) {
                if (!signature.accepts(arg.key())) {
                    throw keyAt(arg)
                            .error(signature.type() + ": unknown argument '" + arg.key() + "' (known: "
                                    + String.join(", ", new TreeSet<>(signature.args())) + ")");
                }
                args.put(arg.key(), arg.value().plain());
            }
            return args;
        }

        private List<BatchSize> serial(YamlValue node) {
            List<BatchSize> sizes = new ArrayList<>();
            if (node instanceof Sequence list) {
                if (list.items().isEmpty()) {
                    throw at(node).error("serial: the list is empty");
                }
                for (YamlValue item : list.items()) {
                    sizes.add(batchSize(item));
                }
            } else {
                sizes.add(batchSize(node));
            }
            return sizes;
        }

        private BatchSize batchSize(YamlValue node) {
            if (!(node instanceof Scalar scalar) || scalar.value() == null) {
                throw at(node).error("serial: expected a number or a percentage like \"25%\", found " + node.kind());
            }
            String text = scalar.text().strip();
            try {
                if (text.endsWith("%")) {
                    return new BatchSize.Percent(Integer.parseInt(
                            text.substring(0, text.length() - 1).strip()));
                }
                return new BatchSize.Count(Integer.parseInt(text));
            } catch (NumberFormatException e) {
                throw at(node).error("serial: expected a number or a percentage like \"25%\", was '" + text + "'");
            } catch (IllegalArgumentException e) {
                throw at(node).error(e.getMessage());
            }
        }

        private int percentage(YamlValue node) {
            String text = node instanceof Scalar s ? s.text().strip() : "";
            if (text.endsWith("%")) {
                text = text.substring(0, text.length() - 1);
            }
            try {
                int value = Integer.parseInt(text);
                if (value < 0 || value > 100) {
                    throw at(node).error("max_fail_percentage: must be 0..100, was " + value);
                }
                return value;
            } catch (NumberFormatException e) {
                throw at(node).error("max_fail_percentage: expected a number 0..100, was '" + text + "'");
            }
        }

        private Mapping map(YamlValue node, String what) {
            if (node instanceof Mapping map) {
                return map;
            }
            throw at(node).error("expected " + what + " (a mapping), found " + node.kind());
        }

        private void checkKeys(Mapping map, Set<String> allowed, String what) {
            for (Entry entry : map.fields().values()) {
                if (!allowed.contains(entry.key())) {
                    String hint = ANSIBLE_HINTS.containsKey(entry.key())
                            ? " (did you mean '" + ANSIBLE_HINTS.get(entry.key()) + "'?)"
                            : " (known: " + String.join(", ", new TreeSet<>(allowed)) + ")";
                    throw keyAt(entry).error("unknown " + what + " key '" + entry.key() + "'" + hint);
                }
            }
        }

        private String requiredText(Mapping map, String key, String what) {
            return optionalText(map, key).orElseThrow(() -> at(map).error(what + ": missing key '" + key + "'"));
        }

        private Optional<String> optionalText(Mapping map, String key) {
            Entry entry = map.fields().get(key);
            if (entry == null) {
                return Optional.empty();
            }
            if (!(entry.value() instanceof Scalar scalar) || scalar.value() == null) {
                throw at(entry.value())
                        .error(key + ": expected text, found " + entry.value().kind());
            }
            return Optional.of(scalar.text());
        }
    }
}
