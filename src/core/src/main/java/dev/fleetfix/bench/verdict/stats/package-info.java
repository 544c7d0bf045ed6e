/**
 * The statistics behind verdicts: medians and intervals, rank tests, Holm's correction, difference in differences,
 * per-host effects. Pure functions of numbers; imports nothing of fleetfix. The distributions (normal, Student's t),
 * the sign test, mid-ranks and the exact Mann–Whitney test ({@link dev.fleetfix.bench.verdict.stats.ShiftedRankTest})
 * come from Apache Commons Statistics; what it lacks stays here: the exact test's shift against a margin, its
 * Hodges–Lehmann interval, Holm, the bootstrap interval and difference in differences (the design with control
 * hosts).
 */
package dev.fleetfix.bench.verdict.stats;
