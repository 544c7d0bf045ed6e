package dev.fleetfix.checks;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** A RemoteShell that answers every command from a function and records what it was asked. */
final class FakeShell implements RemoteShell {
    final List<Command> commands = new ArrayList<>();
    private final String host;
    private final Function<Command, ExecResult> answer;
    boolean closed;

    FakeShell(String host, Function<Command, ExecResult> answer) {
        this.host = host;
        this.answer = answer;
    }

    static FakeShell printing(String host, String stdout) {
        return new FakeShell(host, command -> ok(stdout));
    }

    static ExecResult ok(String stdout) {
        return new ExecResult(0, stdout, "", Duration.ofMillis(3));
    }

    @Override
    public String hostName() {
        return host;
    }

    @Override
    public ExecResult exec(Command command) {
        commands.add(command);
        return answer.apply(command);
    }

    @Override
    public void put(String remotePath, byte[] content, int mode, boolean become) {
        throw new UnsupportedOperationException("the audit writes nothing");
    }

    @Override
    public void close() {
        closed = true;
    }
}
