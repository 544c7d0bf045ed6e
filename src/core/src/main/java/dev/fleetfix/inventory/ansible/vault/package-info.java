/**
 * Ansible Vault 1.1 and 1.2 on the JDK's own crypto: envelopes, keyrings (several ids), and where passwords come
 * from. Used by {@code inventory.ansible} and {@code yaml}'s callers; imports the root package only.
 */
package dev.fleetfix.inventory.ansible.vault;
