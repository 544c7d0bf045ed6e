package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.yaml.YamlValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code group_vars/} and {@code host_vars/} as Ansible's {@code host_group_vars} plugin reads them,
 * from each base directory (the inventory's directory, then the playbook's):
 *
 * <ul>
 *   <li>for a group or host NAME, the first of {@code NAME}, {@code NAME.yml}, {@code NAME.yaml},
 *       {@code NAME.json} that exists is used, and only that one; when it is a directory, every
 *       file in it (recursively, sorted by name, hidden files and {@code ~} backups skipped, only
 *       those extensions or none) is read in order, a later file replacing a variable of an earlier
 *       one;
 *   <li>an empty file is nothing; a file that is not a mapping is refused, naming file and line;
 *   <li>a vault-encrypted file is decrypted with the run's vault passwords, and every value in it is a secret;
 *       one that cannot be decrypted (no password given, none fits) is a {@link SealedVars}: its hosts are listed
 *       and selected, and what prints or uses their variables refuses, naming the file. Each {@code !vault} value
 *       is decrypted when a run first uses it.
 * </ul>
 *
 * <p>Precedence (Ansible's default): inventory group vars &lt; {@code group_vars/all} (inventory,
 * then playbook) &lt; {@code group_vars/GROUP} for the host's groups in sort order (all inventory
 * directories, then the playbook's) &lt; inventory host vars &lt; {@code host_vars/HOST}.
 */
final class GroupVars implements VarsLayers {
    private static final List<String> EXTENSIONS = List.of("", ".yml", ".yaml", ".json");

    private final List<Path> inventoryDirs;
    private final List<Path> playbookDirs;
    private final Map<Path, List<Map<String, YamlValue>>> cache = new HashMap<>();
    private final Map<YamlValue, Path> origins = new IdentityHashMap<>();
    private final VaultKeyring vault;

    GroupVars(List<Path> inventoryDirs, List<Path> playbookDirs, VaultKeyring vault) {
        this.inventoryDirs = List.copyOf(inventoryDirs);
        this.playbookDirs = List.copyOf(playbookDirs);
        this.vault = vault;
    }

    @Override
    public List<Map<String, YamlValue>> groups(List<String> groups) {
        List<Map<String, YamlValue>> layers = new ArrayList<>();
        if (groups.contains(InventoryLoader.ALL)) {
            layers.addAll(from(inventoryDirs, "group_vars", InventoryLoader.ALL));
            layers.addAll(from(playbookDirs, "group_vars", InventoryLoader.ALL));
        }
        List<String> others =
                groups.stream().filter(g -> !g.equals(InventoryLoader.ALL)).toList();
        others.forEach(g -> layers.addAll(from(inventoryDirs, "group_vars", g)));
        others.forEach(g -> layers.addAll(from(playbookDirs, "group_vars", g)));
        return layers;
    }

    @Override
    public List<Map<String, YamlValue>> host(String host) {
        List<Map<String, YamlValue>> layers = new ArrayList<>(from(inventoryDirs, "host_vars", host));
        layers.addAll(from(playbookDirs, "host_vars", host));
        return layers;
    }

    @Override
    public Map<YamlValue, Path> origins() {
        return origins;
    }

    private List<Map<String, YamlValue>> from(List<Path> dirs, String kind, String name) {
        List<Map<String, YamlValue>> layers = new ArrayList<>();
        for (Path dir : dirs) {
            layers.addAll(cache.computeIfAbsent(dir.resolve(kind).resolve(name), this::read));
        }
        return layers;
    }

    private List<Map<String, YamlValue>> read(Path base) {
        for (String ext : EXTENSIONS) {
            Path candidate = base.resolveSibling(base.getFileName() + ext);
            if (Files.isDirectory(candidate)) {
                List<Map<String, YamlValue>> layers = new ArrayList<>();
                filesIn(candidate).forEach(f -> layers.addAll(readFile(f)));
                return layers;
            }
            if (Files.exists(candidate)) {
                return readFile(candidate);
            }
        }
        return List.of();
    }

    private static List<Path> filesIn(Path dir) {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : entries.sorted().toList()) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".") || name.endsWith("~")) {
                    continue;
                }
                String ext = extension(name);
                if (Files.isDirectory(entry) && ext.isEmpty()) {
                    out.addAll(filesIn(entry));
                } else if (Files.isRegularFile(entry) && EXTENSIONS.contains(ext)) {
                    out.add(entry);
                }
            }
        } catch (IOException e) {
            throw new InputException(dir, 0, 0, "cannot list variables directory: " + e.getMessage());
        }
        return out;
    }

    /** Python's os.path.splitext: a leading dot is no extension. */
    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? "" : name.substring(dot);
    }

    private List<Map<String, YamlValue>> readFile(Path file) {
        YamlValue root;
        try {
            root = InventoryYaml.readVariables(file, "inventory", warning -> {}, vault)
                    .orElse(null);
        } catch (VaultException e) {
            // decrypted when used: listings and selections go on without its variables, a run refuses its hosts
            return List.of(new SealedVars(e));
        }
        if (root == null) {
            return List.of();
        }
        if (!root.isMapping()) {
            throw new InputException(
                    file,
                    root.line(),
                    root.column(),
                    "a variables file must be a mapping of variable names to values, was "
                            + InventoryLoader.describe(root));
        }
        Map<String, YamlValue> layer = new LinkedHashMap<>();
        root.fields().values().forEach(f -> {
            layer.put(f.key(), f.value());
            origins.put(f.value(), file);
        });
        return List.of(layer);
    }
}
