package dev.fleetfix.report.model;

/**
 * One point of a value-size (and TCP_NODELAY) sweep.
 *
 * @param valueSize bytes per value
 * @param tcpNoDelay {@code on} or {@code off} for the builtin client's socket option; null when the
 *     sweep left it to the client (on, for Jedis)
 * @param label how tables and charts name it: {@code 1024 B} or {@code 1024 B, tcp_nodelay off}
 */
public record SweepPointReport(int valueSize, String tcpNoDelay, String label) {}
