/**
 * The statistics behind verdicts: medians and intervals, rank tests, Holm's correction, difference in differences,
 * per-host effects. Pure functions of numbers; imports nothing of fleetfix.
 */
package dev.fleetfix.bench.verdict.stats;
