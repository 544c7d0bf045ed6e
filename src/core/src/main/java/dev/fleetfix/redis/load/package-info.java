/**
 * The benchmark's port onto Redis ({@code BenchTarget}, {@code BenchConnection}): the operations a load generator
 * sends, the keys a run writes and must remove, and the evidence a host gives about itself during a benchmark. It
 * sits under {@code redis} so that adapters implement it without importing {@code bench}.
 */
package dev.fleetfix.redis.load;
