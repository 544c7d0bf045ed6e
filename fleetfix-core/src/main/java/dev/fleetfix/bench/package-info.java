/**
 * The benchmark: load generation (builtin and redis-benchmark), plans, phases, safety guards, sweeps and the
 * verdict of a before/after comparison. Drives Redis through {@code redis/load}; statistics in {@code
 * bench/stats}.
 */
package dev.fleetfix.bench;
