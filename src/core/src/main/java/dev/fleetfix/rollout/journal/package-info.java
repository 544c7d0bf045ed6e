/**
 * What a run is besides its plan, and what a resume reads back: the run's id, its {@code RunControl} (lock owner,
 * hosts done before, stop request), the {@code RunJournal} with the digests of the run's inputs and the before
 * benchmarks it measured.
 */
package dev.fleetfix.rollout.journal;
