package dev.fleetfix.rollout.event;

import java.util.List;

/** Receives a run's events (Ansible's callback plugins). */
@FunctionalInterface
public interface RunListener {
    void on(RunEvent event);

    static RunListener none() {
        return event -> {};
    }

    /** Every listener, in order. */
    static RunListener all(List<RunListener> listeners) {
        List<RunListener> copy = List.copyOf(listeners);
        return event -> copy.forEach(l -> l.on(event));
    }
}
