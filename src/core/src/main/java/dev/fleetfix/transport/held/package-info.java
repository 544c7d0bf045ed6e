/**
 * SSH connections held between runs, as OpenSSH's {@code ControlPersist} holds them for Ansible: a per-user process
 * keeps each host's connection open for a while after a run ends, and the next run's commands travel over it
 * instead of logging in again. Runs reach it over a Unix socket in a directory only its user can open; it keeps no
 * secret on disk and exits once no run has used it for the persist time.
 *
 * <p>This package is the run's side ({@code HeldShells}, {@code HeldShell}, {@code HoldClient}), the wire
 * ({@code HoldRequest}, {@code HoldWire}) and the holder ({@code Holder}, {@code HeldConnection}): it knows no SSH
 * library. The holder's process, with SSH shells, is the SSH adapter's {@code SshHolder}.
 */
package dev.fleetfix.transport.held;
