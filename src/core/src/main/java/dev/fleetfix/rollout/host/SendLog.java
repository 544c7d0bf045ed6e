package dev.fleetfix.rollout.host;

import dev.fleetfix.health.GateTarget;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Whether one attempt of a step sent anything to its host: a shell command that reached it, or a
 * Redis connection that was opened. A step is only run again when it sent nothing: a step whose
 * first command failed to connect may be tried again, but once one command went out (a read, a
 * BGSAVE, a restart), running the step again would send it a second time.
 */
final class SendLog {
    private final AtomicBoolean sent = new AtomicBoolean();

    void reset() {
        sent.set(false);
    }

    boolean nothingSent() {
        return !sent.get();
    }

    RemoteShell shell(RemoteShell shell) {
        return new RemoteShell() {
            @Override
            public String hostName() {
                return shell.hostName();
            }

            @Override
            public ExecResult exec(Command command) {
                return record(() -> shell.exec(command));
            }

            @Override
            public void put(String remotePath, byte[] content, int mode, boolean become) {
                record(() -> {
                    shell.put(remotePath, content, mode, become);
                    return null;
                });
            }

            @Override
            public void close() {
                shell.close();
            }
        };
    }

    GateTarget.Connect redis(GateTarget.Connect redis) {
        return timeout -> opened(() -> redis.open(timeout));
    }

    GateTarget.Primaries primaries(GateTarget.Primaries primaries) {
        return (address, port, timeout) -> opened(() -> primaries.open(address, port, timeout));
    }

    private <T> T record(Supplier<T> call) {
        try {
            T value = call.get();
            sent.set(true);
            return value;
        } catch (TransportException e) {
            if (e.sent()) {
                sent.set(true);
            }
            throw e;
        } catch (RuntimeException e) {
            sent.set(true);
            throw e;
        }
    }

    private <T> T opened(Supplier<T> open) {
        try {
            T node = open.get();
            if (node instanceof RedisNode || (node instanceof Optional<?> o && o.isPresent())) {
                sent.set(true);
            }
            return node;
        } catch (RedisException e) {
            if (!e.beforeSending()) {
                sent.set(true);
            }
            throw e;
        }
    }
}
