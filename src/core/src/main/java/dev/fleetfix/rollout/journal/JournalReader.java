package dev.fleetfix.rollout.journal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.InputException;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.rollout.event.HostOutcome;
import dev.fleetfix.rollout.shard.ShardSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads a run journal back, line after line, into what a resume needs ({@link RunJournal.Resumable}). */
final class JournalReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private Optional<String> playbook = Optional.empty();
    private Optional<String> inventory = Optional.empty();
    private Optional<String> limit = Optional.empty();
    private Optional<ShardSpec> shard = Optional.empty();
    private Optional<String> outcome = Optional.empty();
    private final Set<String> done = new LinkedHashSet<>();
    private final Set<String> runs = new LinkedHashSet<>();
    private Optional<RunInputs> inputs = Optional.empty();
    private final Map<String, JournaledBenchmark> befores = new LinkedHashMap<>();
    private TagSelection tags = TagSelection.all();
    private String lastRun;

    private JournalReader(Path file) {
        this.file = file;
    }

    /** @throws IllegalArgumentException when there is no journal or a line is not JSON */
    static RunJournal.Resumable read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no run journal " + file);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        JournalReader reader = new JournalReader(file);
        for (int n = 1; n <= lines.size(); n++) {
            int at = n;
            reader.parse(lines.get(n - 1), n, n == lines.size()).ifPresent(line -> reader.take(line, at));
        }
        return new RunJournal.Resumable(
                reader.playbook,
                reader.inventory,
                reader.limit,
                reader.shard,
                reader.done,
                reader.outcome,
                reader.runs,
                reader.inputs,
                reader.befores,
                reader.tags);
    }

    /** Line {@code n}; empty for a blank line, one that is not an object, and a partial last line. */
    private Optional<Line> parse(String text, int n, boolean last) {
        if (text.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode tree = JSON.readTree(text);
            return tree.isObject() ? Optional.of(JSON.treeToValue(tree, Line.class)) : Optional.empty();
        } catch (IOException e) {
            // A run killed mid-write leaves a partial last line; anything else is not our journal.
            if (last) {
                return Optional.empty();
            }
            throw new IllegalArgumentException(file + ":" + n + ": not a journal line: " + e.getMessage());
        }
    }

    private void take(Line line, int n) {
        switch (line.event() == null ? "" : line.event()) {
            case "apply" -> apply(line, n);
            case "host_finished" -> {
                String key = RunControl.key(orEmpty(line.play()), orEmpty(line.host()));
                if (HostOutcome.DONE.name().equals(line.outcome())) {
                    done.add(key);
                } else {
                    done.remove(key);
                }
            }
            case "run_ended" -> outcome = Optional.of(orEmpty(line.outcome()));
            case "inputs" -> {
                if (line.playbookSha256() != null && line.inventorySha256() != null) {
                    inputs = Optional.of(new RunInputs(line.playbookSha256(), line.inventorySha256()));
                }
            }
            case "benchmark_before" -> JournaledBenchmark.fromJournal(line, lastRun)
                    // the first measurement stands: a resumed run replays it, it does not measure again
                    .ifPresent(b -> befores.putIfAbsent(b.key(), b));
            default -> {}
        }
    }

    private void apply(Line line, int n) {
        Optional.ofNullable(line.run()).ifPresent(runs::add);
        lastRun = line.run();
        String book = line.playbook() == null ? "" : line.playbook();
        playbook = playbook.or(() -> Optional.of(book));
        inventory = inventory.or(() -> Optional.ofNullable(line.inventory()));
        limit = limit.or(() -> Optional.ofNullable(line.limit()));
        // the last run's, as its tags: a forced resume of another shard is what a later resume continues
        shard = shard(line.shard(), n);
        // the last run's: a resume given other tags (with --force) is what a later resume continues
        tags = new TagSelection(
                line.tags() == null ? Set.of() : Set.copyOf(line.tags()),
                line.skipTags() == null ? Set.of() : Set.copyOf(line.skipTags()));
    }

    private Optional<ShardSpec> shard(String text, int line) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(ShardSpec.parse(text));
        } catch (InputException e) {
            throw new IllegalArgumentException(file + ":" + line + ": shard: " + e.getMessage());
        }
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }

    /** Any journal line, as read back: the fields resuming needs. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Line(
            String at,
            String event,
            String run,
            String playbook,
            String inventory,
            String limit,
            String shard,
            String play,
            String host,
            String outcome,
            List<String> tags,
            @JsonProperty("skip_tags") List<String> skipTags,
            @JsonProperty("playbook_sha256") Map<String, String> playbookSha256,
            @JsonProperty("inventory_sha256") Map<String, String> inventorySha256,
            Integer index,
            String step,
            String type,
            Map<String, String> facts,
            JsonNode runs) {}
}
