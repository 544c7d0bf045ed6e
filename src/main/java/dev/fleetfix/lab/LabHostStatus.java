package dev.fleetfix.lab;

/**
 * What {@code fleetfix lab status} shows for one host.
 *
 * @param state the container's state as Docker names it ({@code running}, {@code exited}), or {@code missing}
 */
public record LabHostStatus(LabHost host, String state, boolean sshUp, boolean redisUp) {}
