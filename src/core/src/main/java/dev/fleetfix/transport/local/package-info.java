/**
 * The local adapter of {@link dev.fleetfix.transport.RemoteShell} ({@code ansible_connection: local}): commands
 * run on this machine.
 */
package dev.fleetfix.transport.local;
