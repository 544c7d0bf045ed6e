/**
 * Data-safe restarts: the pure {@code RestartDecision} from facts, saves, failover through Sentinel, Cluster or by
 * hand, the data check after, and the pending-restart record that survives a crash.
 */
package dev.fleetfix.steps.restart;
