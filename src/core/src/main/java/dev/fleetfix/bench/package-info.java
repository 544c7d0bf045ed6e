/**
 * The benchmark's shared vocabulary: a run's results ({@link dev.fleetfix.bench.BenchResult}, its latencies, window
 * samples and client CPU), its phases and the metrics a verdict judges. The subpackages stand on it: {@code plan}
 * (what to run, and whether it is safe), {@code load} and {@code redisbenchmark} (the engines), {@code host} (a plan
 * run on hosts) and {@code verdict} (the statistics). This package imports none of them.
 */
package dev.fleetfix.bench;
