package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleInventory;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.YamlValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What {@code -i SOURCE} means, as in Ansible: a YAML or INI file, an executable inventory script,
 * {@code ansible-inventory --list} JSON, a directory of such sources, or a comma-separated host list
 * ({@code -i 'redis-1,redis-2,'}). {@code group_vars/} and {@code host_vars/} next to the source
 * (and next to the playbook) are read too.
 */
final class InventorySources {
    /** Ansible's INVENTORY_IGNORE_EXTS (with REJECT_EXTS) and the always-ignored names in a directory. */
    private static final List<String> IGNORED_EXTENSIONS = List.of(
            ".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt", ".rst", ".orig", ".ini", ".cfg", ".retry");

    private static final Pattern IGNORED_NAMES = Pattern.compile("^\\.|^host_vars$|^group_vars$|^vars_plugins$");

    private InventorySources() {}

    /** Loads {@code source}, refusing vault-encrypted data: no vault password is given. */
    static AnsibleInventory load(String source, Optional<Path> playbookDir) {
        return load(List.of(source), playbookDir, ExtraVars.none(), VaultKeyring.none());
    }

    /** Loads {@code source}, decrypting vault-encrypted files and {@code !vault} values with {@code vault}. */
    static AnsibleInventory load(String source, Optional<Path> playbookDir, VaultKeyring vault) {
        return load(List.of(source), playbookDir, ExtraVars.none(), vault);
    }

    /** Several sources, in order, as several {@code -i}; vault-encrypted data refused. */
    static AnsibleInventory load(List<String> sources, Optional<Path> playbookDir) {
        return load(sources, playbookDir, ExtraVars.none(), VaultKeyring.none());
    }

    /**
     * Loads several sources into one inventory, in order, as Ansible does with several {@code -i}: a host or group
     * named by two sources is one, and where both set a variable the later source wins. {@code playbookDir} adds its
     * group_vars/host_vars above the inventory's; {@code extra} ({@code -e}) is above every variable of every host.
     * Vault-encrypted files and {@code !vault} values are decrypted with {@code vault}.
     */
    static AnsibleInventory load(
            List<String> sources, Optional<Path> playbookDir, ExtraVars extra, VaultKeyring vault) {
        List<InventorySource> read = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        for (String source : sources) {
            Path path = Path.of(source);
            if (!Files.exists(path) && source.contains(",")) {
                read.add(hostList(source));
                continue;
            }
            if (!Files.exists(path)) {
                throw new InputException("inventory " + source + ": no such file or directory");
            }
            List<InventorySource> these = new ArrayList<>();
            if (Files.isDirectory(path)) {
                walk(path, these, new HashSet<>(), vault);
            } else {
                these.add(read(path, vault));
            }
            refuseEmpty(these, path);
            read.addAll(these);
            if (!dirs.contains(baseDir(path))) {
                dirs.add(baseDir(path));
            }
        }
        return build(read, dirs, playbookDir, extra, vault);
    }

    /** {@code ansible-inventory -i SOURCE... --list} run by fleetfix: any plugin Ansible has. */
    static AnsibleInventory fromAnsible(String program, List<String> sources, Optional<Path> playbookDir) {
        return fromAnsible(program, sources, playbookDir, ExtraVars.none(), VaultKeyring.none());
    }

    /** The same, {@code extra} above every variable, the playbook's group_vars/host_vars decrypted with {@code vault}. */
    static AnsibleInventory fromAnsible(
            String program, List<String> sources, Optional<Path> playbookDir, ExtraVars extra, VaultKeyring vault) {
        InventorySource listed = ScriptInventory.fromAnsible(
                program, sources.stream().map(Path::of).toList());
        // ansible-inventory already folded group_vars and host_vars of the inventory into hostvars.
        return build(List.of(listed), List.of(), playbookDir, extra, vault);
    }

    /**
     * Stricter than Ansible, which reads an empty file as an inventory of no host: a remediation given an empty
     * inventory (a file truncated by a failed copy, say) must not report success over nothing.
     */
    private static void refuseEmpty(List<InventorySource> sources, Path path) {
        if (sources.stream().allMatch(s -> s.documents().isEmpty())) {
            Path where = sources.isEmpty() ? path : sources.get(0).file();
            throw new InputException(where, 0, 0, "inventory is empty: define at least one host");
        }
    }

    private static AnsibleInventory build(
            List<InventorySource> sources,
            List<Path> dirs,
            Optional<Path> playbookDir,
            ExtraVars extra,
            VaultKeyring vault) {
        List<Path> playbook = playbookDir.map(p -> p.toAbsolutePath().normalize()).stream()
                .filter(p -> !dirs.contains(p))
                .toList();
        return InventoryLoader.load(sources, extra.over(new GroupVars(dirs, playbook, vault)));
    }

    private static Path baseDir(Path source) {
        Path abs = source.toAbsolutePath().normalize();
        return Files.isDirectory(abs) ? abs : abs.getParent();
    }

    private static void walk(Path dir, List<InventorySource> sources, Set<Path> seen, VaultKeyring vault) {
        try {
            if (!seen.add(dir.toRealPath())) {
                return; // a symlink back into the tree: read once, as a loop would never end
            }
        } catch (IOException e) {
            throw new InputException(dir, 0, 0, "cannot read inventory directory: " + e.getMessage());
        }
        List<Path> entries;
        try (Stream<Path> list = Files.list(dir)) {
            entries = list.sorted().toList();
        } catch (IOException e) {
            throw new InputException(dir, 0, 0, "cannot list inventory directory: " + e.getMessage());
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (IGNORED_NAMES.matcher(name).find()
                    || IGNORED_EXTENSIONS.stream().anyMatch(name::endsWith)) {
                continue;
            }
            if (Files.isDirectory(entry)) {
                walk(entry, sources, seen, vault);
            } else {
                sources.add(read(entry, vault));
            }
        }
    }

    /**
     * One file, by Ansible's plugin order: script, then YAML (and --list JSON), then INI; a
     * vault-encrypted file is decrypted first, and is no script. A .yml whose text is one YAML string (INI lines, as
     * dellemc's role tests ship in inventory.yaml) fails Ansible's yaml plugin ("should be a dictionary"), and its
     * ini plugin, tried next, reads it: so does fleetfix.
     */
    static InventorySource read(Path file, VaultKeyring vault) {
        if (!Files.isRegularFile(file)) {
            // /dev/zero, a FIFO, a socket: nothing an inventory is read from, and reading might never end
            throw new InputException(file, 0, 0, "inventory is not a regular file");
        }
        if (ScriptInventory.isScript(file) && !isVaultFile(file)) {
            return ScriptInventory.run(file);
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean yamlName = name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
        boolean noExtension = !name.contains(".");
        if (!yamlName && !noExtension) {
            return IniInventory.read(file, vault);
        }
        Optional<YamlValue> root;
        // What Ansible would warn about while reading it (a key written twice), kept for the YAML reading only
        List<String> warnings = new ArrayList<>();
        try {
            root = InventoryYaml.read(file, warnings::add, vault);
        } catch (VaultException e) {
            throw e;
        } catch (InputException e) {
            if (noExtension) {
                return IniInventory.read(file, vault);
            }
            throw e;
        }
        if (root.isEmpty()) {
            return new InventorySource(file, List.of());
        }
        YamlValue doc = root.get();
        if ((noExtension && !looksLikeYamlInventory(doc)) || doc instanceof YamlValue.Scalar) {
            return IniInventory.read(file, vault);
        }
        refusePluginConfig(file, doc);
        // ansible-inventory --list always prints _meta, a script's output saved to a .json may not; in a YAML file
        // without it, "hosts: [a, b]" is a YAML inventory written wrong (Ansible refuses it), not a listing
        boolean listing = doc.isMapping() && (doc.fields().containsKey("_meta") || name.endsWith(".json"));
        if (listing && ScriptInventory.isListShape(doc)) {
            return ScriptInventory.fromFile(file, doc);
        }
        return new InventorySource(file, List.of(doc), warnings);
    }

    /** A YAML file that configures an inventory plugin ({@code plugin: aws_ec2}) holds no hosts fleetfix can read. */
    private static void refusePluginConfig(Path file, YamlValue doc) {
        if (doc.isMapping() && doc.fields().containsKey("plugin")) {
            YamlValue.Entry plugin = doc.fields().get("plugin");
            throw new InputException(
                    file,
                    plugin.line(),
                    plugin.column(),
                    "this is the configuration of inventory plugin " + InventoryLoader.describe(plugin.value())
                            + ", which only Ansible runs: use --inventory-from-ansible");
        }
    }

    /** Whether the file begins with a vault header: its errors are the vault's, not a guess at INI. */
    private static boolean isVaultFile(Path file) {
        try (var in = Files.newInputStream(file)) {
            return new String(in.readNBytes(15), java.nio.charset.StandardCharsets.US_ASCII)
                    .startsWith("$ANSIBLE_VAULT;");
        } catch (IOException e) {
            return false;
        }
    }

    /** A mapping of groups to mappings (or nothing): anything else in a file without extension is INI. */
    private static boolean looksLikeYamlInventory(YamlValue doc) {
        return doc.isMapping()
                && doc.fields().values().stream()
                        .allMatch(f -> f.value().isNull() || f.value().isMapping());
    }

    /**
     * Ansible's host_list plugin: {@code -i 'a,b:2222,'}, every host ungrouped. A range is not expanded there
     * ({@code -i 'r[1:3],'} is one host named so, as in Ansible; its advanced_host_list plugin, not enabled by
     * default, would expand it).
     */
    private static InventorySource hostList(String source) {
        Map<String, YamlValue.Entry> hosts = new LinkedHashMap<>();
        for (String part : source.split(",")) {
            String host = part.strip();
            if (!host.isEmpty()) {
                hosts.put(host, new YamlValue.Entry(host, 0, 0, new YamlValue.Scalar(null, 0, 0)));
            }
        }
        if (hosts.isEmpty()) {
            throw new InputException("inventory " + source + ": the host list names no host");
        }
        Map<String, YamlValue.Entry> body = new LinkedHashMap<>();
        body.put("hosts", new YamlValue.Entry("hosts", 0, 0, new YamlValue.Mapping(hosts, 0, 0)));
        Map<String, YamlValue.Entry> top = new LinkedHashMap<>();
        top.put(
                InventoryLoader.UNGROUPED,
                new YamlValue.Entry(InventoryLoader.UNGROUPED, 0, 0, new YamlValue.Mapping(body, 0, 0)));
        return new InventorySource(Path.of(source), List.of(new YamlValue.Mapping(top, 0, 0)), List.of(), false);
    }
}
