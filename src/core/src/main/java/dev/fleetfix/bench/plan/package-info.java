/**
 * What a benchmark runs: the plan and its builder, the engines' specs (builtin load, fork under load,
 * redis-benchmark), sweep points, the rounds a step records ({@link dev.fleetfix.bench.plan.BenchRun}), and the
 * safety guard with the footprint it holds against the room left in Redis. Imports only {@code bench} itself of the
 * benchmark, so the engines and the verdicts may all read a plan.
 */
package dev.fleetfix.bench.plan;
