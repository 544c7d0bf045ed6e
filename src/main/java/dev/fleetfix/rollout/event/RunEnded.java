package dev.fleetfix.rollout.event;

import dev.fleetfix.rollout.RunSummary;
import java.time.Instant;

/** The run ended; the summary says how. */
public record RunEnded(Instant at, RunSummary summary) implements RunEvent {}
