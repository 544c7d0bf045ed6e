package dev.fleetfix.rollout.host;

import dev.fleetfix.Counts;
import dev.fleetfix.Progress;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host's shell that tells the running step's progress each time the host answers a command or a file is written
 * ("5 commands answered"), so that a step of many commands (persist_thp writes units and reloads systemd) is not
 * silent while it runs. What the commands are is not told: they may carry secrets.
 */
final class ShellProgress {
    private final AtomicInteger answered = new AtomicInteger();
    private final Progress.Listener progress;

    ShellProgress(Progress.Listener progress) {
        this.progress = progress;
    }

    /** A new step begins: the count starts again. */
    void reset() {
        answered.set(0);
    }

    RemoteShell shell(RemoteShell shell) {
        return new RemoteShell() {
            @Override
            public String hostName() {
                return shell.hostName();
            }

            @Override
            public ExecResult exec(Command command) {
                ExecResult result = shell.exec(command);
                told();
                return result;
            }

            @Override
            public void put(String remotePath, byte[] content, int mode, boolean become) {
                shell.put(remotePath, content, mode, become);
                told();
            }

            @Override
            public void close() {
                shell.close();
            }
        };
    }

    private void told() {
        int n = answered.incrementAndGet();
        progress.progress(new Progress("commands on the host", Counts.of(n, "command") + " answered"));
    }
}
