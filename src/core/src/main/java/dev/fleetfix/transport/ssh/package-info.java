/**
 * The SSH adapter: the only importer of SSHJ. Logins (keys, agent, passwords), known_hosts verification and jump
 * hosts; the OpenSSH client configuration is read with the inventory ({@code inventory.ansible.SshConfig}).
 */
package dev.fleetfix.transport.ssh;
