/**
 * Running a playbook over a fleet: {@code ApplyService} (run id, journal, resume, locks) and {@code PlaybookRunner}
 * (plays, batches, failure policy, change windows), with their policy. The subpackages, each below this one: {@code
 * plan} (what runs where: the planner, batches, orderings, options, windows), {@code host} (one host's run: locks,
 * preflight, retries), {@code journal} (the run's id and control, its journal and what a resume reads back), {@code
 * shard} (a fleet cut in shards by replication group). Emits {@code rollout/event}s and formats nothing.
 */
package dev.fleetfix.rollout;
