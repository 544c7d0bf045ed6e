package dev.fleetfix.checks;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One command run on a host on a thread of its own, so that the caller can ask Redis meanwhile: the audit's script
 * needs only what INFO server says, and the rest of Redis's answers (replication, CONFIG GET, the ACL checks) would
 * otherwise hold it back by their round trips. Its result, or its failure as the shell threw it, is taken once both
 * are done.
 */
final class SideCommand {
    private final RemoteShell shell;
    private final CompletableFuture<ExecResult> result = new CompletableFuture<>();
    private boolean started;

    SideCommand(RemoteShell shell) {
        this.shell = Objects.requireNonNull(shell, "shell");
    }

    /** Starts the command; once only. */
    synchronized void start(Command command) {
        if (started) {
            throw new IllegalStateException("the command was started already");
        }
        started = true;
        Thread thread = new Thread(
                () -> {
                    try {
                        result.complete(shell.exec(command));
                    } catch (Throwable e) { // handed to the caller as it was thrown
                        result.completeExceptionally(e);
                    }
                },
                "host-command-" + shell.hostName());
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits for the command if it was started, whatever became of it. */
    void awaitQuietly() {
        if (isStarted()) {
            result.handle((r, e) -> null).join();
        }
    }

    /**
     * The command's result, once it is done; its failure is thrown as the shell threw it.
     *
     * @throws IllegalStateException when it was never started
     */
    ExecResult result() {
        if (!isStarted()) {
            throw new IllegalStateException("the command was never started");
        }
        try {
            return result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private synchronized boolean isStarted() {
        return started;
    }
}
