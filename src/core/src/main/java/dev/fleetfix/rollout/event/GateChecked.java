package dev.fleetfix.rollout.event;

import dev.fleetfix.health.GateResult;
import java.time.Instant;

/** A health gate (or a composite of gates) passed or failed on a host. */
public record GateChecked(Instant at, String play, String host, GateResult result) implements RunEvent {}
