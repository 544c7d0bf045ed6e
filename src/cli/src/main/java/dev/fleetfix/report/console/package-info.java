/**
 * What a command prints on the terminal: a run's live progress and its recap ({@link
 * dev.fleetfix.report.console.ConsoleReporter}, {@link dev.fleetfix.report.console.Recap}), the audit table, the
 * benchmark's and the THP demo's lines, inventory and shard listings, and the terminal itself (colours, live lines).
 * The top of {@code report}: it may use {@code report.files} (an apply run's listeners, {@code --json} output), never
 * the other way round.
 */
package dev.fleetfix.report.console;
