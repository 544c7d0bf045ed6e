package dev.fleetfix.rollout.event;

import dev.fleetfix.Progress;
import java.time.Instant;
import java.util.Objects;

/**
 * A long step on a host tells how far it has got (a benchmark's round and its rps so far, a BGSAVE
 * still running), about once a second ({@link Progress#EVERY}). Reporters show it as a live line
 * and pace it; the report files keep none of it.
 *
 * @param step the step, as named in the play
 */
public record Progressed(Instant at, String play, String host, String step, Progress progress) implements RunEvent {
    public Progressed {
        Objects.requireNonNull(progress, "progress");
    }
}
