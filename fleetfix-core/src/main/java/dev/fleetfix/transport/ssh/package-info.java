/**
 * The SSH adapter: the only importer of SSHJ. Logins (keys, agent, passwords), known_hosts verification, jump
 * hosts and OpenSSH client configuration.
 */
package dev.fleetfix.transport.ssh;
