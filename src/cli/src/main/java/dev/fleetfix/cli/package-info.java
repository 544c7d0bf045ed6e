/**
 * The commands (picocli): each parses, calls one service and prints through {@code report}. {@code Adapters} is
 * the one composition root; {@code ErrorHandler} maps exceptions to exit codes. Plug-ins add commands through
 * {@code CommandPlugin}. The top floor of fleetfix-cli.
 */
package dev.fleetfix.cli;
