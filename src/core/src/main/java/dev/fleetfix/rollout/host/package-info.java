/**
 * One host's run: {@code HostRun} takes the host's lock, forecasts its steps ({@code Preflight}), then runs them in
 * order, retrying only what sent nothing ({@code Retrier}, {@code SendLog}), and reports each as an event.
 */
package dev.fleetfix.rollout.host;
