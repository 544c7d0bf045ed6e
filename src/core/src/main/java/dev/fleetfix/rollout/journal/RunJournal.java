package dev.fleetfix.rollout.journal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.InputException;
import dev.fleetfix.KnownSecrets;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.PlayHalted;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.event.WindowClosed;
import dev.fleetfix.rollout.shard.ShardSpec;
import dev.fleetfix.transport.HeadTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The run journal, {@code journal.jsonl} in the run directory: one JSON object a line, appended and
 * flushed as the run goes, so that it survives the process. It records the run's start, each host's
 * end per play (done, failed, unreachable), halts and the end. {@code fleetfix apply --resume DIR}
 * reads it back: hosts journaled done in a play are skipped in that play. A resumed run appends to
 * the same journal.
 *
 * <p>Each run (a resumed one too) also records the digests of the playbook and inventory files it
 * read ({@code inputs}), so that a resume can refuse a plan that changed since; and each host's
 * {@code before} benchmark when its step ends ({@code benchmark_before}), so that a host resumed
 * after it is compared with what was measured before the change, not with a second measurement of
 * an already changed host. Both are record kinds of their own: a journal without them still reads.
 *
 * <p>The journal is opened when the run is set up, before any host is touched, and held with an
 * exclusive lock until {@link #close()}: a second run pointed at the same directory (same
 * {@code --run-dir}, {@code --report} or {@code --resume}) is refused instead of interleaving its
 * lines. It is never written through a symbolic link.
 */
public final class RunJournal implements RunListener, AutoCloseable {
    public static final String FILE = "journal.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A host's reason can quote a megabyte of command output; the journal keeps a line's worth of it. */
    static final int REASON_CHARS = 4096;

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final Path runDir;
    private final boolean madeDir;
    private final boolean madeFile;
    private boolean written;

    /**
     * Opens {@code runDir/journal.jsonl} for this run alone, creating both when missing.
     *
     * @throws InputException when the directory cannot be made or written, the journal is a
     *     symbolic link, or another run holds it
     */
    public RunJournal(Path runDir) {
        this.file = runDir.resolve(FILE);
        this.runDir = runDir;
        this.madeDir = !Files.exists(runDir);
        this.madeFile = !Files.exists(file, LinkOption.NOFOLLOW_LINKS);
        try {
            Files.createDirectories(runDir);
        } catch (IOException e) {
            throw new InputException("cannot create the run directory " + runDir + ": " + reason(e));
        }
        if (Files.isSymbolicLink(file)) {
            throw new InputException("the run journal " + file + " is a symbolic link; fleetfix does not write"
                    + " through links: remove it or choose another directory");
        }
        try {
            // NOFOLLOW_LINKS: O_NOFOLLOW, so a link made after the check above is refused as well. The mode follows
            // the umask, like the reports': the journal records hosts, steps and outcomes, never a password or a
            // key (those stay in the inventory and the SSH agent), so it has nothing to hide from the user's group.
            this.channel = FileChannel.open(
                    file,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.DSYNC,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new InputException("cannot write the run journal " + file + ": " + reason(e));
        }
        FileLock held;
        try {
            held = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            held = null;
        } catch (IOException e) {
            closeQuietly();
            throw new InputException("cannot lock the run journal " + file + ": " + reason(e));
        }
        if (held == null) {
            closeQuietly();
            throw new InputException("the run journal " + file + " is in use by another fleetfix run; two runs never"
                    + " share a journal: wait for it, or give this run its own --run-dir");
        }
        this.lock = held;
    }

    private static String reason(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private void closeQuietly() {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing was written through it
        }
    }

    /** Releases the journal for the next run (a --resume, say). */
    @Override
    public void close() {
        try {
            if (lock != null && lock.isValid()) {
                lock.release();
            }
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the run journal " + file, e);
        }
    }

    /**
     * Removes the journal, and its directory, when this run made them and wrote nothing: a run
     * refused for bad input leaves no empty run directory behind. Then closes it.
     */
    public synchronized void discardUnused() {
        close();
        if (written || !madeFile) {
            return;
        }
        try {
            Files.deleteIfExists(file);
            if (madeDir) {
                Files.deleteIfExists(runDir);
            }
        } catch (IOException e) {
            // an empty journal is harmless; the run's error is what the user needs to see
        }
    }

    public Path file() {
        return file;
    }

    @Override
    public void on(RunEvent event) {
        String at = event.at().toString();
        Object line;
        if (event instanceof RunStarted e) {
            line = new RunStartedLine(at, "run_started", e.runId(), e.playbook().toString(), e.hosts());
        } else if (event instanceof HostFinished e) {
            line = new HostFinishedLine(
                    at,
                    "host_finished",
                    e.play(),
                    e.host(),
                    e.outcome().name(),
                    HeadTail.cut(e.reason(), REASON_CHARS));
        } else if (event instanceof PlayHalted e) {
            line = new HaltedLine(at, "halted", e.play(), e.reason());
        } else if (event instanceof WindowClosed e) {
            line = new WindowClosedLine(at, "window_closed", e.play(), e.window());
        } else if (event instanceof RunEnded e) {
            line = new RunEndedLine(
                    at, "run_ended", e.summary().outcome().name(), e.summary().reason());
        } else if (event instanceof StepFinished e
                && JournaledBenchmark.isBeforeSide(e.result().benchmarks())) {
            line = new BenchmarkBeforeLine(
                    at,
                    "benchmark_before",
                    e.play(),
                    e.host(),
                    e.index(),
                    e.step(),
                    e.type(),
                    e.result().facts(),
                    JournaledBenchmark.toJson(e.result().benchmarks()));
        } else {
            return;
        }
        append(line);
    }

    // The journal's lines, one record a kind, fields in the order they are written. What a host or Redis said (a
    // reason, a fact) is scrubbed of every known secret as a line is made; the rest (hosts, plays, paths) is read
    // back by --resume and must stay as it is, so the line is not scrubbed whole.
    @JsonPropertyOrder({"event", "run", "playbook", "inventory", "limit", "shard", "tags", "skip_tags"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ApplyLine(
            String event,
            String run,
            String playbook,
            String inventory,
            String limit,
            String shard,
            List<String> tags,
            @JsonProperty("skip_tags") List<String> skipTags) {}

    @JsonPropertyOrder({"at", "event", "run", "playbook", "hosts"})
    record RunStartedLine(String at, String event, String run, String playbook, List<String> hosts) {}

    @JsonPropertyOrder({"at", "event", "play", "host", "outcome", "reason"})
    record HostFinishedLine(String at, String event, String play, String host, String outcome, String reason) {
        HostFinishedLine {
            reason = KnownSecrets.scrub(reason);
        }
    }

    @JsonPropertyOrder({"at", "event", "play", "reason"})
    record HaltedLine(String at, String event, String play, String reason) {
        HaltedLine {
            reason = KnownSecrets.scrub(reason);
        }
    }

    @JsonPropertyOrder({"at", "event", "play", "window"})
    record WindowClosedLine(String at, String event, String play, String window) {}

    @JsonPropertyOrder({"at", "event", "outcome", "reason"})
    record RunEndedLine(String at, String event, String outcome, String reason) {
        RunEndedLine {
            reason = KnownSecrets.scrub(reason);
        }
    }

    @JsonPropertyOrder({"event", "playbook_sha256", "inventory_sha256"})
    record InputsLine(
            String event,
            @JsonProperty("playbook_sha256") Map<String, String> playbookSha256,
            @JsonProperty("inventory_sha256") Map<String, String> inventorySha256) {}

    @JsonPropertyOrder({"at", "event", "play", "host", "index", "step", "type", "facts", "runs"})
    record BenchmarkBeforeLine(
            String at,
            String event,
            String play,
            String host,
            int index,
            String step,
            String type,
            Map<String, String> facts,
            JsonNode runs) {
        BenchmarkBeforeLine {
            if (facts != null) {
                Map<String, String> scrubbed = new LinkedHashMap<>();
                facts.forEach((k, v) -> scrubbed.put(k, KnownSecrets.scrub(v)));
                facts = scrubbed;
            }
        }
    }

    private synchronized void append(Object line) {
        written = true;
        try {
            ByteBuffer bytes = ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run journal " + file, e);
        }
    }

    /**
     * Records how the run was asked for (absolute playbook and inventory paths, {@code --limit}, {@code --shard},
     * {@code --tags} and {@code --skip-tags} unless they are the default), so that {@code --resume DIR} alone runs the
     * same thing again.
     */
    public void invocation(
            String runId,
            Path playbook,
            Optional<Path> inventory,
            Optional<String> limit,
            Optional<ShardSpec> shard,
            TagSelection tags) {
        append(new ApplyLine(
                "apply",
                runId,
                playbook.toAbsolutePath().normalize().toString(),
                inventory.map(i -> i.toAbsolutePath().normalize().toString()).orElse(null),
                limit.orElse(null),
                shard.map(ShardSpec::toString).orElse(null),
                tags.only().equals(TagSelection.all().only()) ? null : List.copyOf(tags.only()),
                tags.skip().isEmpty() ? null : List.copyOf(tags.skip())));
    }

    /** Records the digests of the playbook and inventory files this run read, before any host is touched. */
    public void inputs(RunInputs inputs) {
        append(new InputsLine("inputs", inputs.playbook(), inputs.inventory()));
    }

    /**
     * What a journal says: how the run was asked for, the (play, host) pairs it finished, and how
     * its last run ended.
     *
     * @param inputs the digests of the playbook and inventory files the last run read; empty in a
     *     journal written before fleetfix kept them
     * @param befores the before benchmarks measured, by {@link JournaledBenchmark#key}
     * @param tags the {@code --tags} and {@code --skip-tags} of the last run (the default when it gave none)
     * @param shard the {@code --shard} of the last run; empty when it gave none, or the journal predates fleetfix
     *     recording it
     */
    public record Resumable(
            Optional<String> playbook,
            Optional<String> inventory,
            Optional<String> limit,
            Optional<ShardSpec> shard,
            Set<String> done,
            Optional<String> lastOutcome,
            Set<String> runs,
            Optional<RunInputs> inputs,
            Map<String, JournaledBenchmark> befores,
            TagSelection tags) {
        public Resumable {
            Objects.requireNonNull(shard, "shard");
            done = Set.copyOf(done);
            runs = Set.copyOf(runs);
            befores = Map.copyOf(befores);
            Objects.requireNonNull(tags, "tags");
        }
    }

    /** @throws IllegalArgumentException when there is no journal or a line is not JSON */
    public static Resumable read(Path runDir) {
        return JournalReader.read(runDir.resolve(FILE));
    }
}
