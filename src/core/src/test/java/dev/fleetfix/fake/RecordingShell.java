package dev.fleetfix.fake;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one {@link RemoteShell} fake: it records every command and file write it is given, in order,
 * and answers a command by the first rule whose text the script contains, else by its fallback (exit
 * 0, no output, unless told otherwise). Safe to share between threads.
 *
 * <pre>{@code
 * RecordingShell shell = new RecordingShell("redis-1")
 *         .answer("--version", 0, "redis-benchmark 7.0.15", "")
 *         .strict(); // any other command fails the test
 * }</pre>
 */
public final class RecordingShell implements RemoteShell {

    /** A file write that reached the shell. */
    public record Put(String path, byte[] content, int mode, boolean become) {}

    /** What a {@link #put} does besides being recorded (write into a sandbox, say). */
    @FunctionalInterface
    public interface PutHandler {
        void put(String remotePath, byte[] content, int mode, boolean become);
    }

    private final String host;
    private final Map<String, ExecResult> rules = Collections.synchronizedMap(new LinkedHashMap<>());
    private final List<Command> commands = Collections.synchronizedList(new ArrayList<>());
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private final List<Put> puts = Collections.synchronizedList(new ArrayList<>());
    private volatile Function<Command, ExecResult> otherwise = command -> ok("");
    private volatile PutHandler onPut = (path, content, mode, become) -> {};
    private volatile RuntimeException onClose;
    private volatile Runnable closeAlso = () -> {};
    private volatile boolean closed;

    public RecordingShell(String host) {
        this.host = Objects.requireNonNull(host, "host");
    }

    /** A shell that answers every command with {@code answer}. */
    public static RecordingShell answering(String host, Function<Command, ExecResult> answer) {
        return new RecordingShell(host).otherwise(answer);
    }

    /** A shell that answers every command with exit 0 and {@code stdout}. */
    public static RecordingShell printing(String host, String stdout) {
        return answering(host, command -> ok(stdout));
    }

    /** Records what reaches {@code real} and passes it through unchanged (a local shell, say). */
    public static RecordingShell around(RemoteShell real) {
        return new RecordingShell(real.hostName())
                .otherwise(real::exec)
                .onPut(real::put)
                .onClose(real::close);
    }

    /** Exit 0 with this output and nothing on stderr. */
    public static ExecResult ok(String stdout) {
        return new ExecResult(0, stdout, "", Duration.ZERO);
    }

    /** A command whose script contains {@code text} gets this answer; a second rule for the same text replaces it. */
    public RecordingShell answer(String text, int exitCode, String stdout, String stderr) {
        return answer(text, new ExecResult(exitCode, stdout, stderr, Duration.ZERO));
    }

    public RecordingShell answer(String text, ExecResult result) {
        rules.put(text, result);
        return this;
    }

    /** How commands no rule matches are answered. */
    public RecordingShell otherwise(Function<Command, ExecResult> answer) {
        this.otherwise = Objects.requireNonNull(answer, "answer");
        return this;
    }

    /** A command no rule matches fails the test, naming the command. */
    public RecordingShell strict() {
        return otherwise(command -> {
            throw new AssertionError("unexpected command on " + host + ": " + command.script());
        });
    }

    public RecordingShell onPut(PutHandler handler) {
        this.onPut = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /** Every file write throws, saying why (for code that must write nothing). */
    public RecordingShell refusePuts(String why) {
        return onPut((path, content, mode, become) -> {
            throw new UnsupportedOperationException(why);
        });
    }

    /** {@link #close()} marks the shell closed and then throws this. */
    public RecordingShell failOnClose(RuntimeException failure) {
        this.onClose = failure;
        return this;
    }

    private RecordingShell onClose(Runnable also) {
        this.closeAlso = also;
        return this;
    }

    @Override
    public String hostName() {
        return host;
    }

    @Override
    public ExecResult exec(Command command) {
        commands.add(command);
        calls.add(command.script());
        ExecResult ruled = matching(command.script());
        return ruled != null ? ruled : otherwise.apply(command);
    }

    private ExecResult matching(String script) {
        synchronized (rules) {
            return rules.entrySet().stream()
                    .filter(rule -> script.contains(rule.getKey()))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse(null);
        }
    }

    @Override
    public void put(String remotePath, byte[] content, int mode, boolean become) {
        puts.add(new Put(remotePath, content.clone(), mode, become));
        calls.add("put " + remotePath);
        onPut.put(remotePath, content, mode, become);
    }

    @Override
    public void close() {
        closed = true;
        closeAlso.run();
        if (onClose != null) {
            throw onClose;
        }
    }

    /** Every command run, in order. */
    public List<Command> commands() {
        synchronized (commands) {
            return List.copyOf(commands);
        }
    }

    /** The scripts of {@link #commands()}. */
    public List<String> scripts() {
        return commands().stream().map(Command::script).toList();
    }

    /** Every call in order: a command's script, or {@code "put <path>"} for a file write. */
    public List<String> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    public List<Put> puts() {
        synchronized (puts) {
            return List.copyOf(puts);
        }
    }

    public boolean closed() {
        return closed;
    }
}
