/**
 * The {@link dev.fleetfix.transport.RemoteShell} port: a command on a host is a result (exit code, output), an
 * unreachable host an exception. Quoting, atomic writes, the bounded drain of hostile output and the command trace
 * live here. Imports {@code inventory} (a host's connection) and the root package.
 */
package dev.fleetfix.transport;
