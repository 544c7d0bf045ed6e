package dev.fleetfix.inventory.ansible;

import dev.fleetfix.HomePaths;
import dev.fleetfix.InputException;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The settings of an Ansible repository that fleetfix honours, found as Ansible finds them: the file
 * named by {@code ANSIBLE_CONFIG}, else {@code ./ansible.cfg} (unless the directory is world-writable,
 * which Ansible also refuses), else {@code ~/.ansible.cfg}, else {@code /etc/ansible/ansible.cfg};
 * only the first found is read. An {@code ANSIBLE_*} environment variable beats the file.
 *
 * <p>Read: {@code [defaults]} {@code inventory}, {@code remote_user}, {@code private_key_file},
 * {@code forks}, {@code host_key_checking}, {@code timeout}, {@code vault_password_file},
 * {@code vault_identity_list}; {@code [privilege_escalation]}
 * {@code become}, {@code become_method}, {@code become_user}; {@code [ssh_connection]}
 * {@code ssh_args} (only {@code -J}/{@code ProxyJump} and {@code -F}, the rest is reported).
 *
 * @param file the file read, if any
 * @param values setting → value, keyed {@code section.key}, environment already applied
 * @param lines setting → line in {@code file}, for errors
 */
public record AnsibleConfig(Optional<Path> file, Map<String, String> values, Map<String, Integer> lines) {

    private static final Set<String> TRUE = Set.of("true", "yes", "on", "y", "t", "1");
    private static final Set<String> FALSE = Set.of("false", "no", "off", "n", "f", "0");

    /** Each setting fleetfix reads and its environment variable. */
    private static final Map<String, String> ENV = Map.ofEntries(
            Map.entry("defaults.inventory", "ANSIBLE_INVENTORY"),
            Map.entry("defaults.remote_user", "ANSIBLE_REMOTE_USER"),
            Map.entry("defaults.private_key_file", "ANSIBLE_PRIVATE_KEY_FILE"),
            Map.entry("defaults.forks", "ANSIBLE_FORKS"),
            Map.entry("defaults.host_key_checking", "ANSIBLE_HOST_KEY_CHECKING"),
            Map.entry("defaults.timeout", "ANSIBLE_TIMEOUT"),
            Map.entry("defaults.stdout_callback", "ANSIBLE_STDOUT_CALLBACK"),
            Map.entry("privilege_escalation.become", "ANSIBLE_BECOME"),
            Map.entry("privilege_escalation.become_method", "ANSIBLE_BECOME_METHOD"),
            Map.entry("privilege_escalation.become_user", "ANSIBLE_BECOME_USER"),
            Map.entry("ssh_connection.ssh_args", "ANSIBLE_SSH_ARGS"),
            Map.entry("defaults.vault_password_file", "ANSIBLE_VAULT_PASSWORD_FILE"),
            Map.entry("defaults.vault_identity_list", "ANSIBLE_VAULT_IDENTITY_LIST"));

    public AnsibleConfig {
        values = Map.copyOf(values);
        lines = Map.copyOf(lines);
    }

    static AnsibleConfig none() {
        return new AnsibleConfig(Optional.empty(), Map.of(), Map.of());
    }

    /** Finds and reads the configuration for a process with this environment, directory and home. */
    static AnsibleConfig find(Map<String, String> env, Path cwd, Path home) {
        Optional<Path> file = locate(env, cwd, home);
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        file.ifPresent(f -> parse(f, values, lines));
        ENV.forEach((key, var) -> {
            String v = env.get(var);
            if (v != null) {
                values.put(key, v);
                lines.remove(key);
            }
        });
        return new AnsibleConfig(file, values, lines);
    }

    private static Optional<Path> locate(Map<String, String> env, Path cwd, Path home) {
        String named = env.get("ANSIBLE_CONFIG");
        if (named != null && !named.isBlank()) {
            Path p = Path.of(HomePaths.expand(named, home));
            if (Files.isDirectory(p)) {
                p = p.resolve("ansible.cfg");
            }
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        Path local = cwd.resolve("ansible.cfg");
        if (Files.isRegularFile(local) && !worldWritable(cwd)) {
            return Optional.of(local);
        }
        for (Path p : List.of(home.resolve(".ansible.cfg"), Path.of("/etc/ansible/ansible.cfg"))) {
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static boolean worldWritable(Path dir) {
        try {
            return Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Python configparser: {@code [section]}, {@code key = value} or {@code key: value}, {@code #}/{@code ;} comments. */
    private static void parse(Path file, Map<String, String> values, Map<String, Integer> lines) {
        List<String> text;
        try {
            text = Files.readAllLines(file);
        } catch (IOException e) {
            throw new InputException(file, 0, 0, "cannot read Ansible configuration: " + e.getMessage());
        }
        String section = null;
        String lastKey = null;
        for (int i = 0; i < text.size(); i++) {
            String raw = text.get(i);
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (Character.isWhitespace(raw.charAt(0)) && lastKey != null) {
                // configparser continues a value on indented lines
                values.put(lastKey, values.get(lastKey) + "\n" + stripInlineComment(line));
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                section = line.substring(1, line.length() - 1).strip();
                lastKey = null;
                continue;
            }
            int eq = separator(line);
            if (section == null || eq < 0) {
                throw new InputException(
                        file,
                        i + 1,
                        0,
                        section == null
                                ? "Ansible configuration: a setting before any [section]"
                                : "Ansible configuration: expected key = value, got \"" + line + "\"");
            }
            String key = section + "." + line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            values.put(key, stripInlineComment(line.substring(eq + 1).strip()));
            lines.put(key, i + 1);
            lastKey = key;
        }
    }

    private static int separator(String line) {
        int eq = line.indexOf('=');
        int colon = line.indexOf(':');
        if (eq < 0) {
            return colon;
        }
        return colon < 0 ? eq : Math.min(eq, colon);
    }

    /** Ansible's parser takes {@code ;} after whitespace as an inline comment. */
    private static String stripInlineComment(String value) {
        for (int i = 1; i < value.length(); i++) {
            if (value.charAt(i) == ';' && Character.isWhitespace(value.charAt(i - 1))) {
                return value.substring(0, i).strip();
            }
        }
        return value;
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key)).map(String::strip).filter(v -> !v.isEmpty());
    }

    /** Where a setting came from, for messages: "ansible.cfg:12 host_key_checking" or "ANSIBLE_HOST_KEY_CHECKING". */
    String origin(String key) {
        Integer line = lines.get(key);
        if (line != null && file.isPresent()) {
            return file.get() + ":" + line + " " + key.substring(key.indexOf('.') + 1);
        }
        return ENV.getOrDefault(key, key);
    }

    Optional<Boolean> bool(String key) {
        return get(key).map(v -> {
            String lower = v.toLowerCase(Locale.ROOT);
            if (TRUE.contains(lower)) {
                return true;
            }
            if (FALSE.contains(lower)) {
                return false;
            }
            throw error(key, "must be true or false, was \"" + v + "\"");
        });
    }

    public Optional<Integer> positiveInt(String key) {
        return get(key).map(v -> {
            try {
                int n = Integer.parseInt(v);
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error(key, "must be a whole number of at least 1, was \"" + v + "\"");
        });
    }

    /**
     * {@code inventory}: Ansible takes a comma-separated list of sources, read in order as several {@code -i}; a
     * value whose parts are not all files ({@code a,b,}) is a host list, as for {@code -i}.
     */
    List<String> inventory() {
        return get("defaults.inventory")
                .map(v -> {
                    List<String> parts = new ArrayList<>();
                    for (String p : v.split(",")) {
                        if (!p.isBlank()) {
                            parts.add(p.strip());
                        }
                    }
                    boolean paths = !parts.isEmpty()
                            && parts.stream().allMatch(p -> Files.exists(expand("defaults.inventory", p)));
                    if (paths || (parts.size() == 1 && !v.contains(","))) {
                        return parts.stream()
                                .map(p -> expand("defaults.inventory", p).toString())
                                .toList();
                    }
                    return List.of(v);
                })
                .orElse(List.of());
    }

    private Path expand(String key, String p) {
        Path path = Path.of(HomePaths.expand(p));
        // Ansible resolves a relative path in ansible.cfg against the file's directory.
        if (!path.isAbsolute() && lines.containsKey(key) && file.isPresent()) {
            Path dir = file.get().toAbsolutePath().getParent();
            return dir.resolve(path).normalize();
        }
        return path;
    }

    /** A key path from the configuration, {@code ~} expanded. */
    Optional<Path> path(String key) {
        return get(key).map(v -> expand(key, v));
    }

    InputException error(String key, String message) {
        Integer line = lines.get(key);
        String name = key.substring(key.indexOf('.') + 1);
        if (line != null && file.isPresent()) {
            return new InputException(file.get(), line, 0, name + " " + message);
        }
        return new InputException(ENV.getOrDefault(key, key) + " " + message);
    }

    /**
     * Fills what the inventory left unset with {@code remote_user}, {@code private_key_file} and
     * {@code become}: Ansible's configuration is below every inventory variable.
     */
    Inventory applyTo(Inventory inventory) {
        Optional<String> user = get("defaults.remote_user");
        Optional<Path> key = path("defaults.private_key_file");
        Optional<Boolean> become = bool("privilege_escalation.become");
        Optional<BecomeMethod> method = Optional.empty();
        if (become.orElse(false)) {
            method = get("privilege_escalation.become_method").map(m -> BecomeMethod.named(m)
                    .orElseThrow(() -> error(
                            "privilege_escalation.become_method",
                            "is " + m + "; fleetfix becomes root with sudo or su only")));
            get("privilege_escalation.become_user")
                    .filter(u -> !u.equals("root"))
                    .ifPresent(u -> {
                        throw error("privilege_escalation.become_user", "is " + u + "; fleetfix becomes only root");
                    });
        }
        if (user.isEmpty() && key.isEmpty() && become.isEmpty()) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            boolean becomeSet =
                    h.vars().containsKey("ansible_become") || h.vars().containsKey("become");
            boolean methodSet =
                    h.vars().containsKey("ansible_become_method") || h.vars().containsKey("become_method");
            hosts.add(h.toBuilder()
                    .user(h.user().or(() -> user))
                    .keyFile(h.keyFile().or(() -> key))
                    .become(becomeSet ? h.become() : become.orElse(h.become()))
                    .becomeMethod(methodSet ? h.becomeMethod() : method.orElse(h.becomeMethod()))
                    .build());
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }
}
