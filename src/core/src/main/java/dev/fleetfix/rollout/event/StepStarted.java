package dev.fleetfix.rollout.event;

import java.time.Instant;

/** A step began on a host; {@code index} is 1-based within the play. */
public record StepStarted(Instant at, String play, String host, int index, String step, String type)
        implements RunEvent {}
