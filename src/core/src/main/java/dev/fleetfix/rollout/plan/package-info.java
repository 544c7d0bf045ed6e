/**
 * What a run will do, before it touches a host: {@code RunPlanner} makes a {@code RunPlan} (each play's hosts in
 * batches, each host's steps resolved and checked) from a playbook, the inventory's hosts and the {@code RunOptions};
 * host orderings, {@code --start-at-task}, {@code --list-tasks} and change windows.
 */
package dev.fleetfix.rollout.plan;
