package dev.fleetfix.steps.restart;

import dev.fleetfix.steps.restart.PendingRestart.Marker;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether {@code restart_redis} restarts: a pure function of the play ({@code always: true}, a change made in this
 * play) and of what the host says: its {@link PendingRestart} record and when its Redis started. A run that died
 * after changing THP, or whose restart failed, leaves the record on the host: the next run restarts, although its
 * own steps now report no change.
 *
 * @param due restart
 * @param fromHost the host's record decided (the step line then says why; {@code always} and a change of this play
 *     need no word)
 * @param reason why, or why not, as the step line says it
 */
public record RestartDue(boolean due, boolean fromHost, String reason) {
    /**
     * @param redisStarted when the running Redis started, in the host's epoch seconds; empty when unknown
     */
    public static RestartDue decide(
            boolean always, boolean changedInPlay, Optional<Marker> marker, OptionalLong redisStarted) {
        if (always) {
            return new RestartDue(true, false, "always: true");
        }
        if (changedInPlay) {
            return new RestartDue(true, false, "this host changed in this play");
        }
        if (marker.isEmpty()) {
            return new RestartDue(
                    false, false, "nothing changed on this host in this play and no restart is pending on it");
        }
        Marker m = marker.get();
        String what = m.reason().isEmpty() ? "a change" : m.reason();
        String record = "restart pending on the host since "
                + (m.since() < 0
                        ? "an unreadable time"
                        : Instant.ofEpochSecond(m.since()).toString()) + " (" + what
                + ", run " + (m.run().isEmpty() ? "unknown" : m.run()) + ")";
        if (m.since() < 0) {
            return new RestartDue(true, true, record);
        }
        if (redisStarted.isEmpty()) {
            return new RestartDue(true, true, record + ", and when this Redis started cannot be read");
        }
        long before = m.since() - redisStarted.getAsLong();
        // the same second counts as before: one restart too many is safe, one too few is not
        if (before >= 0) {
            return new RestartDue(
                    true, true, record + ": this Redis started " + before + " s before it, under the old setting");
        }
        return new RestartDue(
                false, true, "this Redis started after the change (" + what + "): it already runs under it");
    }
}
