/**
 * Data-safe restarts: {@code SafeRestart} keeps the sequence (save or hand over, restart and verify, hand back); the
 * pure {@code RestartDecision} from facts, saves, the data check, and the pending-restart record that survives a crash
 * sit beside it. How a primary's role moves is the {@code handover} subpackage's.
 */
package dev.fleetfix.steps.restart;
