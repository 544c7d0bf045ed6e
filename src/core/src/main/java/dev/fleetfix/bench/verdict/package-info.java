/**
 * The verdicts: before against after per host and for the fleet, sweeps point against point, control hosts and this
 * machine's own drift, in the words a report shows. The numbers behind them live in {@code verdict.stats}. Imports
 * {@code bench} and {@code bench.plan} (the recorded rounds), never an engine.
 */
package dev.fleetfix.bench.verdict;
