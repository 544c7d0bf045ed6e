package dev.fleetfix.rollout.host;

import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.TransportException;

/** What a step's failure makes of the host: failed, or unreachable (nothing reached it). */
final class StepFailures {
    private StepFailures() {}

    /**
     * A step that could not connect, or whose connection was lost before its command was sent, leaves the host
     * unreachable. A command that was sent reached the host: whether it then timed out or its connection broke (the
     * network, the connection holder killed), it may have run, so the step failed and the host is not unreachable.
     */
    static StepResult of(RuntimeException e, int attempts) {
        String suffix = attempts > 1 ? " (after " + attempts + " attempts)" : "";
        if (e instanceof TransportException t && t.sent()) {
            return StepResult.failed(
                    t.kind() == TransportException.Kind.TIMEOUT
                            ? e.getMessage() + " (not sent again: it may have run)"
                            : e.getMessage() + " (the connection broke after the command was sent; it may have run;"
                                    + " not sent again)");
        }
        if (e instanceof TransportException t && t.kind() != TransportException.Kind.BECOME) {
            return StepResult.unreachable(e.getMessage() + suffix);
        }
        if (e instanceof StepFailure) {
            return StepResult.failed(e.getMessage());
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return StepResult.failed(message + suffix);
    }

    /**
     * A command reached the host (it then timed out, or its connection broke), or sudo refused its become password:
     * the host is not unreachable.
     */
    static boolean sent(RuntimeException e) {
        return e instanceof TransportException t && (t.sent() || t.kind() == TransportException.Kind.BECOME);
    }
}
