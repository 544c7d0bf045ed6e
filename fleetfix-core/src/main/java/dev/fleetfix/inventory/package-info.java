/**
 * Hosts, groups and their variables as Ansible reads them: YAML, INI, JSON and script inventories, group_vars and
 * host_vars, ansible.cfg, extra vars and host patterns ({@code --limit}). Imports {@code yaml}, {@code
 * inventory.vault} and the root package only.
 */
package dev.fleetfix.inventory;
