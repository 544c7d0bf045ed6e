/**
 * The redis-benchmark adapter: the command line it runs on a host over its shell, and the parsers of its CSV, quiet
 * and verbose output. Imports {@code bench}, {@code bench.plan} (its spec, the safety guard) and, of the builtin
 * engine, only {@code bench.load}'s eviction watch.
 */
package dev.fleetfix.bench.redisbenchmark;
