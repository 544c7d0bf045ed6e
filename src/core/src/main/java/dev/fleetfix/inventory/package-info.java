/**
 * Hosts, groups and their variables as Ansible reads them: YAML, INI, JSON and script inventories, group_vars and
 * host_vars, ansible.cfg and the {@code ANSIBLE_*} environment with the OpenSSH client configuration ({@code
 * AnsibleEnvironment}), extra vars and host patterns ({@code --limit}). {@code InventoryService} is the one way in:
 * it reads what the command line gives ({@code InventoryInput}) and selects the hosts ({@code HostSelection}).
 * Imports {@code yaml}, {@code inventory.vault} and the root package only.
 */
package dev.fleetfix.inventory;
