package dev.fleetfix.yaml;

import dev.fleetfix.InputException;
import dev.fleetfix.yaml.YamlValue.Entry;
import dev.fleetfix.yaml.YamlValue.Mapping;
import dev.fleetfix.yaml.YamlValue.Scalar;
import dev.fleetfix.yaml.YamlValue.Sequence;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.Construct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Turns the nodes SnakeYAML composed into {@link YamlValue}s at their line:column, for {@link LocatedYaml}: aliases
 * resolved, {@code <<} merge keys as YAML 1.1 defines them, a key written twice as Ansible takes it, and every node it
 * makes counted against a budget (an alias bomb), nesting against {@link LocatedYaml#MAX_DEPTH}.
 */
final class NodeConverter {
    private final Path file;
    private final long budget;
    private final Consumer<String> warnings;
    private final VaultedText.Opener vaulted;
    private final Set<String> warned = new HashSet<>();
    private long made;
    private final Map<Node, Boolean> open = new IdentityHashMap<>();

    NodeConverter(Path file, long budget, Consumer<String> warnings, VaultedText.Opener vaulted) {
        this.file = file;
        this.budget = budget;
        this.warnings = warnings;
        this.vaulted = vaulted;
    }

    YamlValue convert(Node node, int depth) {
        if (++made > budget) {
            throw error(
                    node,
                    "aliases expand this document past " + budget
                            + " nodes (ten per character of the file); an alias bomb is refused");
        }
        if (depth > LocatedYaml.MAX_DEPTH) {
            throw error(node, "nested deeper than " + LocatedYaml.MAX_DEPTH + " levels");
        }
        if (open.containsKey(node)) {
            throw error(node, "an alias refers to a node that contains it (a recursive alias)");
        }
        int line = line(node);
        int column = column(node);
        if (node instanceof ScalarNode scalar) {
            Object value = Scalars.INSTANCE.value(scalar);
            return new Scalar(
                    value instanceof VaultedText text ? vaulted.open(text, line, column) : value, line, column);
        }
        open.put(node, Boolean.TRUE);
        try {
            if (node instanceof SequenceNode sequence) {
                List<YamlValue> items = new ArrayList<>();
                for (Node item : sequence.getValue()) {
                    items.add(convert(item, depth + 1));
                }
                return new Sequence(items, line, column);
            }
            return new Mapping(entries((MappingNode) node, depth), line, column);
        } finally {
            open.remove(node);
        }
    }

    /**
     * Explicit entries, each key once, after the keys merged in by {@code <<} that the mapping
     * does not set itself.
     */
    private List<Entry> entries(MappingNode mapping, int depth) {
        Map<String, Entry> explicitByKey = new LinkedHashMap<>();
        List<Entry> merged = new ArrayList<>();
        for (NodeTuple tuple : mapping.getValue()) {
            Node key = tuple.getKeyNode();
            if (key.getTag().equals(Tag.MERGE)) {
                merged.addAll(mergeSources(tuple.getValueNode(), depth));
                continue;
            }
            if (!(key instanceof ScalarNode scalarKey)) {
                throw error(key, "a mapping key must be a plain value, found a " + kind(key));
            }
            Entry entry = new Entry(
                    scalarKey.getValue(),
                    line(key),
                    column(key),
                    convert(tuple.getValueNode(), depth + 1),
                    Scalars.INSTANCE.value(scalarKey) instanceof String);
            Entry first = explicitByKey.get(entry.key());
            explicitByKey.put(entry.key(), first == null ? entry : lastValueAtFirst(first, entry));
        }
        List<Entry> explicit = new ArrayList<>(explicitByKey.values());
        if (merged.isEmpty()) {
            return explicit;
        }
        Set<String> seen = new HashSet<>();
        explicit.forEach(e -> seen.add(e.key()));
        List<Entry> out = new ArrayList<>();
        for (Entry entry : merged) {
            // YAML's merge: the mapping's own keys win, then earlier merged mappings.
            if (seen.add(entry.key())) {
                out.add(entry);
            }
        }
        out.addAll(explicit);
        return out;
    }

    /** Ansible's rule for a key written twice: warn, and take the last value. */
    private Entry lastValueAtFirst(Entry first, Entry again) {
        String warning = file + ":" + again.line() + ":" + again.column() + ": duplicate key \"" + again.key()
                + "\" (first at line " + first.line() + "); using the last value only";
        // a mapping an alias repeats is converted again; its duplicate is still one warning
        if (warned.add(warning)) {
            warnings.accept(warning);
        }
        return new Entry(first.key(), first.line(), first.column(), again.value(), first.textKey());
    }

    private List<Entry> mergeSources(Node value, int depth) {
        if (value instanceof MappingNode) {
            return ((Mapping) convert(value, depth + 1)).entries();
        }
        if (value instanceof SequenceNode sequence) {
            List<Entry> out = new ArrayList<>();
            for (Node item : sequence.getValue()) {
                if (!(item instanceof MappingNode)) {
                    throw error(item, "a merge key (<<) takes a mapping or a list of mappings, found a " + kind(item));
                }
                out.addAll(((Mapping) convert(item, depth + 1)).entries());
            }
            return out;
        }
        throw error(value, "a merge key (<<) takes a mapping or a list of mappings, found a " + kind(value));
    }

    private InputException error(Node node, String message) {
        return new InputException(file, line(node), column(node), message);
    }

    private static String kind(Node node) {
        return switch (node.getNodeId()) {
            case mapping -> "mapping";
            case sequence -> "list";
            default -> "scalar";
        };
    }

    private static int line(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    private static int column(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getColumn() + 1;
    }

    /**
     * YAML 1.1 scalar types through SnakeYAML's own constructors; an Ansible {@code !vault} scalar becomes a
     * {@link VaultedText} for its reader to decrypt; any other tag keeps its text.
     */
    private static final class Scalars extends SafeConstructor {
        static final Scalars INSTANCE = new Scalars();
        private static final Set<Tag> TYPED = Set.of(Tag.BOOL, Tag.INT, Tag.FLOAT);

        private Scalars() {
            super(new LoaderOptions());
        }

        Object value(ScalarNode node) {
            if (node.getTag().equals(Tag.NULL)) {
                return null;
            }
            if (node.getTag().getValue().equals(VaultedText.TAG)) {
                return new VaultedText(node.getValue());
            }
            Construct construct = TYPED.contains(node.getTag()) ? yamlConstructors.get(node.getTag()) : null;
            if (construct == null) {
                return node.getValue();
            }
            try {
                return construct.construct(node);
            } catch (RuntimeException e) {
                // A scalar the resolver typed but cannot be built (a huge sexagesimal): keep its text.
                return node.getValue();
            }
        }
    }
}
