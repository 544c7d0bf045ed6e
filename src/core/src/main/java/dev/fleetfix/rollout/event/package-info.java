/**
 * The events of a run (records), which reporters subscribe to: run, play, batch, host and step starts and ends,
 * gates, waits and the summary.
 */
package dev.fleetfix.rollout.event;
