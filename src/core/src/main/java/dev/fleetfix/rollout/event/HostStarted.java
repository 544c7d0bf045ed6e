package dev.fleetfix.rollout.event;

import java.time.Instant;

/** The engine started working on a host in a play. */
public record HostStarted(Instant at, String play, String host) implements RunEvent {}
