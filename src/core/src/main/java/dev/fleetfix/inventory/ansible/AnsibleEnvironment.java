package dev.fleetfix.inventory.ansible;

import dev.fleetfix.Durations;
import dev.fleetfix.HomePaths;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.inventory.ansible.vault.VaultPasswordSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What an Ansible user's machine says about connections, read once per run: ansible.cfg and the
 * {@code ANSIBLE_*} environment, the OpenSSH client configuration ({@code -F}, or {@code ssh_args -F}, or
 * {@code ~/.ssh/config}), the parts of {@code ssh_args} fleetfix can honour ({@code -J}/{@code ProxyJump}), and the
 * vault passwords ansible.cfg names. Each is read when first asked for, then kept.
 */
public final class AnsibleEnvironment {
    /** ssh_args Ansible sets by default, which concern only OpenSSH's own connection sharing. */
    private static final List<String> HARMLESS_OPTIONS =
            List.of("controlmaster", "controlpersist", "controlpath", "compression", "serveraliveinterval");

    private static final String IDENTITY_LIST = "defaults.vault_identity_list";
    private static final String PASSWORD_FILE = "defaults.vault_password_file";

    private final Path home;
    private final boolean enabled;
    private final Optional<Path> sshConfigFile;
    private final Supplier<AnsibleConfig> config;
    private final Supplier<SshArgs> sshArgs;
    private final Supplier<SshConfig> sshConfig;

    /**
     * @param env the environment variables ({@code ANSIBLE_CONFIG}, {@code ANSIBLE_INVENTORY}, ...)
     * @param cwd where {@code ./ansible.cfg} is looked for
     * @param home the user's home: {@code ~/.ansible.cfg}, {@code ~/.ssh/config}
     * @param enabled false to read nothing at all (a command run outside fleetfix's root command)
     */
    public AnsibleEnvironment(Map<String, String> env, Path cwd, Path home, boolean enabled) {
        this(
                home,
                enabled,
                Optional.empty(),
                once(() -> enabled ? AnsibleConfig.find(env, cwd, home) : AnsibleConfig.none()));
    }

    private AnsibleEnvironment(
            Path home, boolean enabled, Optional<Path> sshConfigFile, Supplier<AnsibleConfig> config) {
        this.home = home;
        this.enabled = enabled;
        this.sshConfigFile = sshConfigFile;
        this.config = config;
        this.sshArgs =
                once(() -> parseSshArgs(config().get("ssh_connection.ssh_args").orElse("")));
        this.sshConfig = once(this::readSshConfig);
    }

    /** This machine's: the process's environment, working directory and home. */
    public static AnsibleEnvironment ofProcess() {
        return new AnsibleEnvironment(
                System.getenv(), Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")), true);
    }

    /** Nothing read: for commands run outside fleetfix's root command (unit tests of one option group). */
    public static AnsibleEnvironment none() {
        return new AnsibleEnvironment(Map.of(), Path.of(""), Path.of(""), false);
    }

    /**
     * The same environment with the OpenSSH client configuration of {@code -F FILE} ({@code none}: no file); the
     * ansible.cfg already read is kept.
     */
    public AnsibleEnvironment withSshConfigFile(Optional<Path> file) {
        return file.isEmpty() ? this : new AnsibleEnvironment(home, enabled, file, config);
    }

    /** The file {@code -F} named, if any. */
    public Optional<Path> sshConfigFile() {
        return sshConfigFile;
    }

    /** ansible.cfg, as {@code ANSIBLE_CONFIG}, the working directory or the home directory give it. */
    public AnsibleConfig config() {
        return config.get();
    }

    /** The OpenSSH client configuration: {@code -F}, else ssh_args' {@code -F}, else {@code ~/.ssh/config}. */
    public SshConfig sshConfig() {
        return sshConfig.get();
    }

    private SshConfig readSshConfig() {
        if (sshConfigFile.isPresent()) {
            return sshConfigFile.get().toString().equals("none")
                    ? SshConfig.empty()
                    : SshConfig.read(sshConfigFile.get(), true);
        }
        if (!enabled) {
            return SshConfig.empty();
        }
        if (sshArgs().configFile().isPresent()) {
            return SshConfig.read(sshArgs().configFile().get(), true);
        }
        return SshConfig.read(home.resolve(".ssh/config"), false);
    }

    /**
     * {@code ssh_args}: which parts apply, and what fleetfix leaves out.
     *
     * @param jump {@code -J} or {@code -o ProxyJump=}
     * @param configFile {@code -F}
     * @param ignored what fleetfix does not apply (beyond the connection sharing options Ansible sets itself)
     * @param controlPersist {@code -o ControlPersist=}: how long fleetfix's holder keeps connections after a run
     *     ({@code yes} is {@link #PERSIST_UNTIL_STOPPED}, {@code no} zero); empty when ssh_args does not say
     */
    public record SshArgs(
            Optional<String> jump,
            Optional<Path> configFile,
            List<String> ignored,
            Optional<Duration> controlPersist) {}

    /** {@code ControlPersist yes}: held until {@code fleetfix connections --close} (a century). */
    public static final Duration PERSIST_UNTIL_STOPPED = Duration.ofDays(36_500);

    public SshArgs sshArgs() {
        return sshArgs.get();
    }

    private SshArgs parseSshArgs(String args) {
        String[] words = args.isBlank() ? new String[0] : args.strip().split("\\s+");
        Optional<String> jump = Optional.empty();
        Optional<Path> file = Optional.empty();
        Optional<Duration> persist = Optional.empty();
        List<String> ignored = new ArrayList<>();
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            String next = i + 1 < words.length ? words[i + 1] : null;
            if ((w.equals("-J") || w.equals("-F")) && next == null) {
                throw config().error("ssh_connection.ssh_args", w + " needs a value");
            }
            if (w.equals("-J")) {
                jump = Optional.of(next);
                i++;
            } else if (w.equals("-F")) {
                file = Optional.of(Path.of(HomePaths.expand(next, home)));
                i++;
            } else if (w.equals("-o") && next != null) {
                String option = next;
                i++;
                int eq = option.indexOf('=');
                String name = (eq < 0 ? option : option.substring(0, eq)).toLowerCase(Locale.ROOT);
                if (name.equals("proxyjump") && eq > 0) {
                    jump = Optional.of(option.substring(eq + 1));
                } else if (name.equals("controlpersist") && eq > 0) {
                    persist = Optional.of(controlPersist(option.substring(eq + 1)));
                } else if (!HARMLESS_OPTIONS.contains(name)) {
                    ignored.add("-o " + option);
                }
            } else if (!w.equals("-C")) {
                ignored.add(w);
            }
        }
        return new SshArgs(jump, file, List.copyOf(ignored), persist);
    }

    /** OpenSSH's ControlPersist values: yes, no, 0, seconds, or a time (60s, 10m). */
    private Duration controlPersist(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("yes")) {
            return PERSIST_UNTIL_STOPPED;
        }
        if (v.equals("no") || v.equals("0")) {
            return Duration.ZERO;
        }
        try {
            return Durations.parse(v, true);
        } catch (IllegalArgumentException e) {
            throw config().error("ssh_connection.ssh_args", "ControlPersist=" + value + ": " + e.getMessage());
        }
    }

    /** Settings read but not applied, one line each. */
    List<String> notices() {
        List<String> out = new ArrayList<>(sshConfig().notices());
        if (!sshArgs().ignored().isEmpty()) {
            out.add(config().origin("ssh_connection.ssh_args") + ": fleetfix does not apply "
                    + String.join(" ", sshArgs().ignored()) + " (only ProxyJump/-J and -F)");
        }
        return out;
    }

    /** host_key_checking = False: Ansible's "trust anything", which fleetfix narrows to accept-new. */
    public Optional<String> acceptNewFromConfig() {
        return config().bool("defaults.host_key_checking")
                .filter(check -> !check)
                .map(check -> config().origin("defaults.host_key_checking"));
    }

    /**
     * The run's vault passwords, read lazily: a file is read (a script run) only when a vault needs it. As in
     * Ansible, the vault ids of {@code vault_identity_list} / {@code ANSIBLE_VAULT_IDENTITY_LIST} and {@code
     * --vault-id} come first, then the password files of {@code --vault-password-file}, the password {@code -J}
     * asked for, and {@code vault_password_file} / {@code ANSIBLE_VAULT_PASSWORD_FILE}.
     */
    VaultKeyring keyring(List<String> vaultIds, List<Path> passwordFiles, Optional<Secret> asked) {
        AnsibleConfig cfg = config();
        List<VaultPasswordSource> out = new ArrayList<>();
        cfg.get(IDENTITY_LIST).ifPresent(list -> {
            for (String id : list.split(",")) {
                if (!id.isBlank()) {
                    out.add(VaultPasswordSource.ofVaultId(id.strip(), cfg.origin(IDENTITY_LIST)));
                }
            }
        });
        vaultIds.forEach(id -> out.add(VaultPasswordSource.ofVaultId(id, "--vault-id")));
        passwordFiles.forEach(file ->
                out.add(new VaultPasswordSource(VaultPasswordSource.DEFAULT_LABEL, file, "--vault-password-file")));
        asked.ifPresent(password -> out.add(VaultPasswordSource.asked(password)));
        cfg.path(PASSWORD_FILE)
                .ifPresent(file -> out.add(
                        new VaultPasswordSource(VaultPasswordSource.DEFAULT_LABEL, file, cfg.origin(PASSWORD_FILE))));
        return new VaultKeyring(out);
    }

    /** {@code supplier}'s value, computed on the first call only (an error is thrown again on the next). */
    private static <T> Supplier<T> once(Supplier<T> supplier) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = supplier.get();
                }
                return value;
            }
        };
    }
}
