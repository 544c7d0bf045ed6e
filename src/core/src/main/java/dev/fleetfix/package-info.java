/**
 * What every floor may use: {@link dev.fleetfix.InputException} (bad input, exit code 2), the one duration parser
 * and formatter ({@code Durations}), {@code Secret}, {@code Forks}, the {@code Sleeper} that time-dependent code
 * is given, and {@code Crash}. It imports no other fleetfix package.
 */
package dev.fleetfix;
