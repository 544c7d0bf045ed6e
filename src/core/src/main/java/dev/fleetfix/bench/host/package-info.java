/**
 * A benchmark plan run on hosts one after another: warm-up, rounds, sweeps, controls and Redis's own evidence,
 * through the engines the composition root builds once ({@link dev.fleetfix.bench.host.BenchEngines}). The top of
 * {@code bench}: it imports {@code plan}, {@code load} and {@code redisbenchmark}, and nothing in {@code bench}
 * imports it.
 */
package dev.fleetfix.bench.host;
