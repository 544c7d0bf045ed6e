/**
 * What a setting does at boot: the ways THP modes survive a reboot ({@code PersistMethods}, tuned's profile in {@code
 * TunedThp}), and which sysctl file wins at boot ({@code SysctlBoot}) for a {@code SysctlKey}.
 */
package dev.fleetfix.steps.persist;
