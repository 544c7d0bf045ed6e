/**
 * How a primary's role moves to a replica before its restart and back after it: one {@code Handover} interface, one
 * implementation per route (FAILOVER, Sentinel, Cluster, by hand), picked by the pure {@code RouteChoice}, the only
 * class that names them.
 */
package dev.fleetfix.steps.restart.handover;
