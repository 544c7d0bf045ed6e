/**
 * What every floor may use: {@link dev.fleetfix.InputException} (bad input, exit code 2), the one duration parser
 * and formatter ({@code Durations}), {@code Secret}, {@code Forks}, the {@code Sleeper} that time-dependent code
 * is given, {@code Crash}, the one reading of {@code ~} in a path ({@code HomePaths}) and the one matcher of
 * OpenSSH's host patterns ({@code SshHostPatterns}). It imports no other fleetfix package.
 */
package dev.fleetfix;
