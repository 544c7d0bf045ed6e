package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleConfig;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.ExtraVars;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.InventorySources;
import dev.fleetfix.report.console.InputWarnings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Inventory options shared by every command that touches hosts ({@code @Mixin}). Loading and
 * selection throw {@link dev.fleetfix.InputException}, which the CLI turns into exit code 2.
 *
 * <p>Hosts get their connection settings as Ansible would give them: the inventory and its
 * group_vars/host_vars first, then ansible.cfg ({@code remote_user}, {@code private_key_file},
 * {@code become}), then {@code ssh_args -J}, then the OpenSSH client configuration.
 */
public final class InventoryOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = {"-i", "--inventory"},
            paramLabel = "SOURCE",
            description = "Ansible inventory: YAML, INI, an executable script, ansible-inventory --list JSON, a"
                    + " directory of these, or a host list 'a,b,'. group_vars/ and host_vars/ next to it are read."
                    + " Repeatable: sources merge in order, a later one winning for variables, as in Ansible."
                    + " Default: ansible.cfg's inventory, else the implicit localhost, reached without SSH.")
    List<Path> inventoryFiles = new ArrayList<>();

    @Option(
            names = "--inventory-from-ansible",
            description = "Run ansible-inventory -i SOURCE --list and use what it prints: any inventory plugin"
                    + " (aws_ec2, constructed, ...) works as in Ansible.")
    boolean fromAnsible;

    @Option(
            names = {"-l", "--limit"},
            paramLabel = "PATTERN",
            description = "Ansible host pattern: group, host, a:b, a:&b, a:!b, wildcards (redis-*), ~regex; an IPv6"
                    + " address (fe80::1) is one host. A !term or &term matching nothing is warned about and"
                    + " ignored, as in Ansible (so all:!typo selects every host); unlike Ansible, a plain term"
                    + " matching nothing, and an empty pattern or ',' (Ansible: all hosts), are refused.")
    String limit;

    @Option(
            names = "--list-hosts",
            description = "Print the hosts the inventory and --limit select, one per line, and connect to nothing.")
    boolean listHosts;

    @Option(
            names = {"-e", "--extra-vars"},
            paramLabel = "VARS",
            description = "Variables above every other (inventory, group_vars, host_vars, play vars), as in"
                    + " ansible-playbook: 'key=value key2=value2' (strings), a JSON or YAML mapping '{\"k\": 1}',"
                    + " or @FILE (YAML or JSON). Repeatable; the later wins.")
    List<String> extraVars = new ArrayList<>();

    @Option(
            names = {"-u", "--user"},
            paramLabel = "USER",
            description = "SSH user for hosts whose inventory sets none (ansible_user wins, as in Ansible);"
                    + " above ansible.cfg's remote_user.")
    String user;

    @Option(
            names = {"--private-key", "--key-file"},
            paramLabel = "FILE",
            description =
                    "SSH private key for hosts whose inventory sets none (above ansible.cfg's" + " private_key_file).")
    Path privateKey;

    @Option(
            names = {"-b", "--become"},
            description = "Run privileged commands with sudo on hosts whose inventory does not set ansible_become.")
    boolean become;

    @Option(
            names = "--become-user",
            paramLabel = "USER",
            description = "Only root: fleetfix writes /sys, /etc and service units. Accepted for Ansible's habit.")
    String becomeUser;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    VaultOptions vault = new VaultOptions();

    private ExtraVars extra;

    private AnsibleInventory loaded;
    private Inventory inventory;
    private Path playbookDir;

    /** The loaded inventory (read once), or the implicit localhost when there is no source. */
    public Inventory inventory() {
        if (inventory == null) {
            inventory = ansibleInventory().map(AnsibleInventory::inventory).orElseGet(Inventory::implicitLocalhost);
            // Ansible's words for what it accepts but doubts (a host or key written twice).
            if (spec != null) {
                inventory.warnings().forEach(InputWarnings.to(spec.commandLine().getErr()));
            }
        }
        return inventory;
    }

    /** The inventory with its group structure, with connection defaults applied; empty without a source. */
    public Optional<AnsibleInventory> ansibleInventory() {
        if (loaded == null) {
            loaded = load();
        }
        return Optional.ofNullable(loaded);
    }

    /** group_vars/ and host_vars/ next to the playbook count too, above the inventory's. */
    public void playbookDir(Path dir) {
        this.playbookDir = dir;
    }

    private AnsibleInventory load() {
        AnsibleSettings settings = settings();
        AnsibleConfig config = settings.config();
        List<String> sources = !inventoryFiles.isEmpty()
                ? inventoryFiles.stream().map(Path::toString).toList()
                : config.inventory();
        if (sources.isEmpty()) {
            if (fromAnsible) {
                throw new InputException("--inventory-from-ansible needs -i SOURCE");
            }
            return null;
        }
        Optional<Path> playbook = Optional.ofNullable(playbookDir);
        AnsibleInventory read = fromAnsible
                ? InventorySources.fromAnsible(
                        "ansible-inventory", sources, playbook, extraVars(), vault.keyring(settings))
                : InventorySources.load(sources, playbook, extraVars(), vault.keyring(settings));
        Inventory hosts = commandLineBecome(config.applyTo(commandLineDefaults(read.inventory())));
        hosts = withJump(hosts, settings.sshArgs().jump());
        hosts = settings.sshConfig().applyTo(hosts);
        if (mixee != null) {
            PrintWriter err = mixee.commandLine().getErr();
            settings.notices().forEach(n -> err.println("fleetfix: note: " + n));
            err.flush();
        }
        return new AnsibleInventory(hosts, read.groups());
    }

    /** The extra vars ({@code -e}), read once. */
    public ExtraVars extraVars() {
        if (extra == null) {
            Consumer<String> warnings =
                    spec == null ? w -> {} : InputWarnings.to(spec.commandLine().getErr());
            extra = ExtraVars.parse(extraVars, warnings, vault.keyring(settings()));
        }
        return extra;
    }

    /**
     * {@code -u} and {@code --private-key} fill what the inventory left unset: in Ansible the command line is
     * below every inventory variable and above ansible.cfg, which fills what is still unset after them.
     */
    private Inventory commandLineDefaults(Inventory inventory) {
        if (becomeUser != null && !becomeUser.equals("root")) {
            throw new InputException("--become-user " + becomeUser
                    + ": fleetfix becomes only root (it writes /sys, /etc and service units)");
        }
        if (user == null && privateKey == null) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            hosts.add(h.toBuilder()
                    .user(h.user().or(() -> Optional.ofNullable(user)))
                    .keyFile(h.keyFile().or(() -> Optional.ofNullable(privateKey)))
                    .build());
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }

    /** {@code -b}: above ansible.cfg's become, below a host's ansible_become. */
    private Inventory commandLineBecome(Inventory inventory) {
        if (!become) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            boolean becomeSet =
                    h.vars().containsKey("ansible_become") || h.vars().containsKey("become");
            hosts.add(h.toBuilder().become(becomeSet ? h.become() : true).build());
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

    private AnsibleSettings settings() {
        return mixee == null ? AnsibleSettings.none() : FleetfixCommand.settings(mixee.commandLine());
    }

    /** The hosts selected by {@code --limit} (all hosts without it), in inventory order. */
    public List<Host> selectHosts() {
        Inventory hosts = inventory();
        // all:!typo runs on every host, as in Ansible: the warning is all that tells the operator
        return HostPattern.parse(limit().orElse("all")).select(hosts, this::warn);
    }

    private void warn(String warning) {
        if (spec != null) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("fleetfix: warning: " + warning);
            err.flush();
        }
    }

    public Optional<String> limit() {
        return Optional.ofNullable(limit);
    }

    /**
     * The inventory the run journal records: the first {@code -i} source. A run given several records the first
     * only, and {@code apply --resume} needs the same {@code -i} options again (ApplyCommand warns of it).
     */
    public Optional<Path> inventoryFile() {
        return inventoryFiles.stream().findFirst();
    }

    /** Every {@code -i} source, in the order given. */
    public List<Path> inventorySources() {
        return List.copyOf(inventoryFiles);
    }

    /** The sources to read instead of the options' (a resumed run's, from its journal). */
    void inventorySources(List<Path> sources) {
        inventoryFiles = new ArrayList<>(sources);
    }

    public boolean listHosts() {
        return listHosts;
    }
}
