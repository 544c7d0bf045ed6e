/**
 * Host facts and the audit: one fact script per host, THP, kernel and Redis facts, findings and verdicts, and the
 * discovery of the service that runs Redis. No rollout concepts.
 */
package dev.fleetfix.checks;
