package dev.fleetfix.inventory.ansible;

import static dev.fleetfix.inventory.ansible.SshConfigText.matches;
import static dev.fleetfix.inventory.ansible.SshConfigText.path;
import static dev.fleetfix.inventory.ansible.SshConfigText.tokens;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.RedisEndpoint;
import dev.fleetfix.inventory.ansible.SshConfigText.Block;
import dev.fleetfix.inventory.ansible.SshConfigText.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An OpenSSH client configuration ({@code ~/.ssh/config} or {@code -F FILE}), so that a host an
 * Ansible user reaches with {@code ssh} is reached by fleetfix for the same reason. SSHJ has no
 * parser for it, hence this one.
 *
 * <p>As in OpenSSH, the {@code Host} patterns ({@code *}, {@code ?}, {@code !negated}) are matched
 * against the name given to ssh, which for Ansible is {@code ansible_host} (else the inventory
 * name), and for each keyword the first value obtained wins. Read: {@code HostName} ({@code %h}),
 * {@code User}, {@code Port}, {@code IdentityFile}, {@code ProxyJump}, {@code UserKnownHostsFile},
 * {@code StrictHostKeyChecking}, {@code ConnectTimeout}, {@code CertificateFile}. What the inventory or ansible.cfg sets
 * wins over this file, as Ansible passes those to ssh as {@code -o} options. {@code Match} blocks
 * and {@code Include} are not read: they are reported and their settings left out. A host that OpenSSH would
 * reach through a {@code ProxyCommand} is refused ({@link #refusal}), never connected to directly around its
 * bastion; {@code KnownHostsCommand} and {@code LocalCommand} are reported with the hosts
 * they apply to. {@code CertificateFile} is offered with the key it certifies ({@link #certificateFiles}).
 */
public final class SshConfig {
    private static final Set<String> KEYWORDS = Set.of(
            "hostname",
            "user",
            "port",
            "identityfile",
            "proxyjump",
            "userknownhostsfile",
            "stricthostkeychecking",
            "connecttimeout",
            "proxycommand",
            "knownhostscommand",
            "localcommand",
            "certificatefile");

    /** Keywords fleetfix reads only to say that it does not do what they ask, and for which hosts. */
    private static final String HOSTS = "{hosts}";

    private static final Map<String, String> NOT_DONE = Map.of(
            "knownhostscommand",
            "KnownHostsCommand is not run by fleetfix; the host keys of " + HOSTS + " are checked against known_hosts"
                    + " files only",
            "localcommand",
            "LocalCommand is not run by fleetfix after connecting to " + HOSTS);

    private final Path file;
    private final List<Block> blocks;
    private final List<String> notices;

    /** Hosts that must not be connected to, by inventory name, and why: found by {@link #applyTo}. */
    private final Map<String, String> refused = new ConcurrentHashMap<>();

    /** What {@link #applyTo} found the file asks for and fleetfix does not do: each line, the hosts it names. */
    private final Map<String, List<String>> notDone = new ConcurrentHashMap<>();

    private SshConfig(Path file, List<Block> blocks, List<String> notices) {
        this.file = file;
        this.blocks = blocks;
        this.notices = notices;
    }

    /** What is in no file: no setting for any host. */
    static SshConfig empty() {
        return new SshConfig(Path.of("none"), List.of(), List.of());
    }

    /** Reads {@code file}; a missing {@code ~/.ssh/config} is fine, a missing {@code -F} file is not. */
    static SshConfig read(Path file, boolean mustExist) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            if (mustExist) {
                throw new InputException("ssh config " + file + ": no such file");
            }
            return empty();
        } catch (IOException e) {
            throw new InputException("ssh config " + file + ": cannot read: " + e.getMessage());
        }
        SshConfigText.Parsed parsed = SshConfigText.parse(lines, file, KEYWORDS);
        return new SshConfig(file, parsed.blocks(), parsed.notices());
    }

    /**
     * Things the file holds that fleetfix does not apply, one line each, to show on stderr; after
     * {@link #applyTo}, with the hosts each applies to.
     */
    List<String> notices() {
        List<String> all = new ArrayList<>(notices);
        new TreeMap<>(notDone)
                .forEach((line, hosts) ->
                        all.add(line.substring(line.indexOf(' ') + 1).replace(HOSTS, String.join(", ", hosts))));
        return all;
    }

    /**
     * Why this host must not be connected to, when the file routes it through what fleetfix does not support:
     * a {@code ProxyCommand} (a bastion) must never be bypassed by a direct connection.
     */
    public Optional<String> refusal(Host host) {
        return Optional.ofNullable(refused.get(host.name()));
    }

    /** Every keyword's first value for {@code target}, by OpenSSH's first-match rule. */
    Map<String, Setting> lookup(String target) {
        Map<String, Setting> found = new LinkedHashMap<>();
        for (Block block : blocks) {
            if (!block.never() && matches(block.patterns(), target)) {
                block.settings().forEach(found::putIfAbsent);
            }
        }
        return found;
    }

    /** Each host with the gaps its inventory left filled from this file. */
    Inventory applyTo(Inventory inventory) {
        if (blocks.stream().allMatch(b -> b.settings().isEmpty())) {
            return inventory;
        }
        List<Host> hosts = new ArrayList<>();
        for (Host h : inventory.hosts()) {
            if (h.connection() == Connection.LOCAL) {
                hosts.add(h); // reached without ssh: its configuration does not apply
                continue;
            }
            Host applied = apply(h);
            // a bad ConnectTimeout is bad input: found now, before any host is touched
            connectTimeoutSeconds(applied);
            hosts.add(applied);
        }
        return new Inventory(inventory.source(), hosts, inventory.groups());
    }

    /** Whether {@code StrictHostKeyChecking} for this host trusts unknown keys ({@code accept-new}, {@code no}). */
    public boolean acceptsNewKeys(Host host) {
        return Optional.ofNullable(lookup(host.address()).get("stricthostkeychecking"))
                .map(s -> Set.of("accept-new", "no", "off").contains(s.value().toLowerCase(Locale.ROOT)))
                .orElse(false);
    }

    /**
     * {@code CertificateFile} for this host ({@code %h}, {@code %d}, {@code ~} expanded), offered with the key it
     * certifies, as OpenSSH does; empty for none.
     */
    public List<Path> certificateFiles(Host host) {
        return value(lookup(host.address()), "certificatefile")
                .filter(v -> !v.equalsIgnoreCase("none"))
                .map(v -> List.of(path(tokens(v, host.address(), host))))
                .orElse(List.of());
    }

    /** {@code ConnectTimeout} for this host, in seconds. */
    public Optional<Integer> connectTimeoutSeconds(Host host) {
        return Optional.ofNullable(lookup(host.address()).get("connecttimeout")).map(s -> {
            try {
                int seconds = Integer.parseInt(s.value());
                if (seconds > 0) {
                    return seconds;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new InputException(file, s.line(), 0, "ssh config: ConnectTimeout must be a number of seconds");
        });
    }

    Host apply(Host host) {
        String target = host.address();
        Map<String, Setting> s = lookup(target);
        String address = Optional.ofNullable(s.get("hostname"))
                .map(v -> tokens(v.value(), target, host))
                .orElse(host.address());
        int port = host.port();
        if (!explicitPort(host) && s.containsKey("port")) {
            Setting p = s.get("port");
            try {
                port = Integer.parseInt(p.value());
            } catch (NumberFormatException e) {
                port = 0;
            }
            if (port < 1 || port > 65535) {
                throw new InputException(file, p.line(), 0, "ssh config: Port must be 1..65535, was " + p.value());
            }
        }
        Optional<String> user = host.user().or(() -> value(s, "user"));
        Optional<Path> key = host.keyFile().or(() -> value(s, "identityfile")
                .filter(v -> !v.equalsIgnoreCase("none"))
                .map(v -> path(tokens(v, target, host))));
        checkNotDone(host, s);
        Optional<String> jump = host.jump().or(() -> value(s, "proxyjump").filter(v -> !v.equalsIgnoreCase("none")));
        Optional<Path> knownHosts = host.knownHosts().or(() -> value(s, "userknownhostsfile")
                .map(v -> v.split("\\s+")[0])
                .filter(v -> !v.equalsIgnoreCase("none"))
                .map(v -> path(tokens(v, target, host))));
        // Redis is reached where ssh goes, unless the inventory names its own redis_host/sentinel_host.
        RedisEndpoint redis = host.vars().containsKey("redis_host") ? host.redis() : moved(host.redis(), address);
        Optional<RedisEndpoint> sentinel = host.vars().containsKey("sentinel_host")
                ? host.sentinel()
                : host.sentinel().map(e -> moved(e, address));
        return host.toBuilder()
                .address(address)
                .port(port)
                .user(user)
                .keyFile(key)
                .jump(jump)
                .knownHosts(knownHosts)
                .redis(redis)
                .sentinel(sentinel)
                .build();
    }

    /**
     * A ProxyCommand that OpenSSH would use for this host (no jump host set before it, and it comes before any
     * ProxyJump: OpenSSH keeps the first of the two) refuses the host; KnownHostsCommand and LocalCommand are noted.
     */
    private void checkNotDone(Host host, Map<String, Setting> s) {
        Setting proxy = s.get("proxycommand");
        Setting jump = s.get("proxyjump");
        if (host.jump().isEmpty()
                && proxy != null
                && !proxy.value().equalsIgnoreCase("none")
                && (jump == null || proxy.line() < jump.line())) {
            String where = file + ":" + proxy.line();
            refused.put(host.name(), "ProxyCommand in " + where + " is not supported; use ProxyJump");
            noteNotDone(
                    proxy,
                    "ProxyCommand is not supported by fleetfix; " + HOSTS
                            + " fail rather than be reached around it (use ProxyJump)",
                    host);
        }
        NOT_DONE.forEach((keyword, text) -> {
            Setting setting = s.get(keyword);
            if (setting != null && !setting.value().equalsIgnoreCase("none")) {
                noteNotDone(setting, text, host);
            }
        });
    }

    /** Notes, once per line of the file, a keyword fleetfix does not do, and each host it applies to. */
    private void noteNotDone(Setting setting, String text, Host host) {
        // zero-padded line first: the notices come out in file order
        String key = String.format("%08d %s:%d: %s", setting.line(), file, setting.line(), text);
        notDone.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(host.name());
    }

    private static RedisEndpoint moved(RedisEndpoint e, String address) {
        return new RedisEndpoint(address, e.port(), e.auth(), e.tls(), e.serviceUnit());
    }

    private static boolean explicitPort(Host host) {
        return host.vars().containsKey("ansible_port")
                || host.vars().containsKey("ansible_ssh_port")
                || host.vars().containsKey("port");
    }

    private static Optional<String> value(Map<String, Setting> s, String key) {
        return Optional.ofNullable(s.get(key)).map(Setting::value);
    }
}
