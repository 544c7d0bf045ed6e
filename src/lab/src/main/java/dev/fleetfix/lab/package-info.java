/**
 * The disposable lab fleet: Redis hosts (systemd or SysV, sshd, redis-server of every era) in local Docker
 * containers on loopback addresses, built by Testcontainers, the only importer of it. Used by {@code fleetfix lab}
 * and the integration tests.
 */
package dev.fleetfix.lab;
