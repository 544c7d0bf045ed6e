package dev.fleetfix.inventory.ansible;

import dev.fleetfix.BoundedFile;
import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one way in to the hosts: reads an inventory as Ansible would and selects from it with {@code --limit}. Hosts
 * get their connection settings in Ansible's order: the inventory and its group_vars/host_vars first, then the
 * command line ({@code -u}, {@code --private-key}, {@code -b}), then ansible.cfg ({@code remote_user}, {@code
 * private_key_file}, {@code become}), then {@code ssh_args -J}, then the OpenSSH client configuration.
 *
 * <p>One service serves one command run: it reads the vault passwords and parses {@code -e} once, so their
 * warnings come once. Loading and selection throw {@link InputException} for bad input.
 */
public final class InventoryService {
    private final AnsibleEnvironment environment;
    private final Messages messages;
    private VaultKeyring keyring;
    private ExtraVars extraVars;

    /**
     * Where the service tells what it reads but doubts, one line each, as it finds them; a command prints them.
     *
     * @param inputWarnings what a file has that is accepted but doubted (a host or key written twice), in Ansible's
     *     words
     * @param warnings a {@code --limit} term that matches nothing and is ignored, as in Ansible
     * @param notes settings read but not applied (ssh_args fleetfix leaves out)
     */
    public record Messages(Consumer<String> inputWarnings, Consumer<String> warnings, Consumer<String> notes) {
        public Messages {
            Objects.requireNonNull(inputWarnings, "inputWarnings");
            Objects.requireNonNull(warnings, "warnings");
            Objects.requireNonNull(notes, "notes");
        }

        /** Told to no one. */
        public static Messages none() {
            return new Messages(m -> {}, m -> {}, m -> {});
        }
    }

    public InventoryService(AnsibleEnvironment environment, Messages messages) {
        this.environment = Objects.requireNonNull(environment, "environment");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    /**
     * Reads {@code source} and selects the hosts {@code limit} names (all without it), in inventory order.
     *
     * @param playbookDir where group_vars/ and host_vars/ next to the playbook are, above the inventory's
     */
    public HostSelection load(InventoryInput source, Optional<String> limit, Optional<Path> playbookDir) {
        Inventory inventory =
                read(source, playbookDir).map(AnsibleInventory::inventory).orElseGet(Inventory::implicitLocalhost);
        return select(inventory, source, limit);
    }

    /**
     * The hosts {@code limit} selects from an inventory already read, after the inventory's warnings. {@code
     * all:!typo} runs on every host, as in Ansible: the warning is all that tells the operator.
     */
    public HostSelection select(Inventory inventory, InventoryInput source, Optional<String> limit) {
        // Ansible's words for what it accepts but doubts (a host or key written twice).
        inventory.warnings().forEach(messages.inputWarnings());
        Optional<HostPattern> pattern = limit.isEmpty()
                ? Optional.of(HostPattern.parse(InventoryLoader.ALL))
                : HostPattern.limit(limit.get(), InventoryService::limitFile);
        if (pattern.isEmpty()) {
            messages.warnings()
                    .accept("--limit '" + limit.orElseThrow() + "' names no host or group: every host is selected,"
                            + " as ansible-playbook does");
        }
        List<Host> hosts =
                pattern.orElseGet(() -> HostPattern.parse(InventoryLoader.ALL)).select(inventory, messages.warnings());
        return new HostSelection(inventory, source.sources(), limit, hosts);
    }

    /** The lines of a {@code --limit @FILE}: a regular file of bounded size, as every input file. */
    private static List<String> limitFile(Path file) {
        return BoundedFile.read(file, "--limit @FILE: limit file", HostPattern.MAX_LIMIT_FILE_BYTES)
                .lines()
                .toList();
    }

    /**
     * The inventory with its group structure and the connection defaults applied; empty when there is no source
     * (no {@code -i}, no inventory in ansible.cfg).
     */
    public Optional<AnsibleInventory> read(InventoryInput source, Optional<Path> playbookDir) {
        AnsibleConfig config = environment.config();
        List<String> sources = !source.sources().isEmpty()
                ? source.sources().stream().map(Path::toString).toList()
                : config.inventory();
        if (sources.isEmpty()) {
            if (source.fromAnsible()) {
                throw new InputException("--inventory-from-ansible needs -i SOURCE");
            }
            return Optional.empty();
        }
        AnsibleInventory read = source.fromAnsible()
                ? InventorySources.fromAnsible(
                        "ansible-inventory", sources, playbookDir, extraVars(source), keyring(source))
                : InventorySources.load(sources, playbookDir, extraVars(source), keyring(source));
        Inventory hosts = commandLineBecome(source, config.applyTo(commandLineDefaults(source, read.inventory())));
        hosts = withJump(hosts, environment.sshArgs().jump());
        hosts = environment.sshConfig().applyTo(hosts);
        environment.notices().forEach(messages.notes());
        return Optional.of(new AnsibleInventory(hosts, read.groups()));
    }

    /** The extra vars ({@code -e}), parsed once. */
    public ExtraVars extraVars(InventoryInput source) {
        if (extraVars == null) {
            extraVars = ExtraVars.parse(source.extraVars(), messages.inputWarnings(), keyring(source));
        }
        return extraVars;
    }

    private VaultKeyring keyring(InventoryInput source) {
        if (keyring == null) {
            keyring = environment.keyring(source.vaultIds(), source.vaultPasswordFiles(), source.vaultPassword());
        }
        return keyring;
    }

    /**
     * {@code -u} and {@code --private-key} fill what the inventory left unset: in Ansible the command line is
     * below every inventory variable and above ansible.cfg, which fills what is still unset after them.
     */
    private static Inventory commandLineDefaults(InventoryInput source, Inventory inventory) {
        Optional<String> becomeUser = source.becomeUser();
        if (becomeUser.isPresent() && !becomeUser.get().equals("root")) {
            throw new InputException("--become-user " + becomeUser.get()
                    + ": fleetfix becomes only root (it writes /sys, /etc and service units)");
        }
        if (source.user().isEmpty() && source.privateKey().isEmpty()) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            hosts.add(h.toBuilder()
                    .user(h.user().or(source::user))
                    .keyFile(h.keyFile().or(source::privateKey))
                    .build());
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }

    /**
     * {@code -b}: above ansible.cfg's become, below a host's ansible_become. {@code -K}: the password of hosts whose
     * inventory sets no ansible_become_password, as Ansible's variables win over its prompt.
     */
    private static Inventory commandLineBecome(InventoryInput source, Inventory inventory) {
        if (!source.become() && source.becomePassword().isEmpty()) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            boolean becomeSet =
                    h.vars().containsKey("ansible_become") || h.vars().containsKey("become");
            hosts.add(h.toBuilder()
                    .become(becomeSet || !source.become() ? h.become() : true)
                    .becomePassword(h.becomePassword().or(source::becomePassword))
                    .build());
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }

    private static Inventory withJump(Inventory inventory, Optional<String> jump) {
        if (jump.isEmpty()) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            hosts.add(h.toBuilder().jump(h.jump().or(() -> jump)).build());
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }
}
