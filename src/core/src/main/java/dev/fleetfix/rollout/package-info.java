/**
 * Running a playbook over a fleet: {@code ApplyService} (run id, journal, resume, locks), the planner, {@code
 * PlaybookRunner}, batches, failure policy, change windows and preflight. Emits {@code rollout/event}s and formats
 * nothing.
 */
package dev.fleetfix.rollout;
