/**
 * Reading the inventory as Ansible does: YAML, INI, JSON and script inventories, group_vars and host_vars, extra
 * vars, templates, ansible.cfg and the {@code ANSIBLE_*} environment with the OpenSSH client configuration
 * ({@code AnsibleEnvironment}), and vault ({@code ansible.vault}). {@code InventoryService} is the one way in: it
 * reads what the command line gives ({@code InventoryInput}) into the model of {@code inventory} and selects the
 * hosts. Outside {@code inventory}, code uses only those, {@code AnsibleEnvironment} with the settings it answers
 * ({@code AnsibleConfig}, {@code SshConfig}, {@code ExtraVars}) and {@code InventoryLoader}; every reader is
 * package-private (ArchitectureTest holds the wall). Imports {@code inventory}, {@code yaml}, {@code ansible.vault}
 * and the root package only.
 */
package dev.fleetfix.inventory.ansible;
