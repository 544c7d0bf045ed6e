package dev.fleetfix.rollout.event;

import java.time.Instant;

/** The run ended; the summary says how. */
public record RunEnded(Instant at, RunSummary summary) implements RunEvent {}
