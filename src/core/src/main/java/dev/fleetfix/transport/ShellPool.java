package dev.fleetfix.transport;

import dev.fleetfix.inventory.Host;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One shell per host for a whole run: opened on first use, reused for every later command, closed
 * together at the end. Safe to use from many threads; two threads asking for the same host share
 * one connection, and a slow host does not hold up the others.
 *
 * <p>A host that fails to open is not remembered: the next {@link #shell(Host)} tries again.
 */
public final class ShellPool implements AutoCloseable {

    private final ShellFactory factory;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public ShellPool(ShellFactory factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** The open shell to this host, opening it if this is the first use. */
    public RemoteShell shell(Host host) {
        if (closed) {
            throw new IllegalStateException("shell pool is closed; cannot open host " + host.name());
        }
        Slot slot = slots.computeIfAbsent(host.name(), name -> new Slot());
        try {
            return slot.get(host);
        } catch (RuntimeException e) {
            slots.remove(host.name(), slot);
            throw e;
        }
    }

    /** Closes every shell opened so far; a failure to close one does not stop the others. */
    @Override
    public void close() {
        closed = true;
        List<RuntimeException> failures = new ArrayList<>();
        for (Slot slot : slots.values()) {
            try {
                slot.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        slots.clear();
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    private final class Slot {
        private RemoteShell shell;
        private boolean slotClosed;

        synchronized RemoteShell get(Host host) {
            if (slotClosed) {
                throw new IllegalStateException("shell pool is closed; cannot open host " + host.name());
            }
            if (shell == null) {
                shell = factory.open(host);
            }
            return shell;
        }

        synchronized void close() {
            slotClosed = true;
            if (shell != null) {
                shell.close();
            }
        }
    }
}
