/**
 * The inventory as the rest of fleetfix sees it: hosts ({@code Host}) with their connection and Redis endpoints,
 * the loaded {@code Inventory} with its groups ({@code AnsibleInventory} keeps their structure for {@code --list}
 * and {@code --graph}), host patterns ({@code --limit}) and the hosts they select ({@code HostSelection}). How it is
 * read from Ansible's formats lives in {@code inventory.ansible}, whose {@code InventoryService} is the one way in;
 * this package imports neither it nor {@code yaml}, only the root package.
 */
package dev.fleetfix.inventory;
