package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.AnsibleConfig;
import dev.fleetfix.transport.ssh.SshConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * What an Ansible user's machine says about connections, read once per run: ansible.cfg and the
 * {@code ANSIBLE_*} environment, the OpenSSH client configuration ({@code -F}, or
 * {@code ssh_args -F}, or {@code ~/.ssh/config}), and the parts of {@code ssh_args} fleetfix can
 * honour ({@code -J}/{@code ProxyJump}).
 */
final class AnsibleSettings {
    /** ssh_args Ansible sets by default, which concern only OpenSSH's own connection sharing. */
    private static final List<String> HARMLESS_OPTIONS =
            List.of("controlmaster", "controlpersist", "controlpath", "compression", "serveraliveinterval");

    private final Map<String, String> env;
    private final Path cwd;
    private final Path home;
    private final boolean enabled;
    private Path sshConfigFile;
    private AnsibleConfig config;
    private SshConfig sshConfig;
    private SshArgs sshArgs;

    AnsibleSettings(Map<String, String> env, Path cwd, Path home, boolean enabled) {
        this.env = Map.copyOf(env);
        this.cwd = cwd;
        this.home = home;
        this.enabled = enabled;
    }

    static AnsibleSettings ofProcess() {
        return new AnsibleSettings(
                System.getenv(), Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")), true);
    }

    /** Nothing read: for commands run outside fleetfix's root command (unit tests of one mixin). */
    static AnsibleSettings none() {
        return new AnsibleSettings(Map.of(), Path.of(""), Path.of(""), false);
    }

    void sshConfigFile(Path file) {
        if (file != null) {
            this.sshConfigFile = file;
        }
    }

    AnsibleConfig config() {
        if (config == null) {
            config = enabled ? AnsibleConfig.find(env, cwd, home) : AnsibleConfig.none();
        }
        return config;
    }

    SshConfig sshConfig() {
        if (sshConfig == null) {
            if (!enabled && sshConfigFile == null) {
                sshConfig = SshConfig.empty();
            } else if (sshConfigFile != null) {
                sshConfig = sshConfigFile.toString().equals("none")
                        ? SshConfig.empty()
                        : SshConfig.read(sshConfigFile, true);
            } else if (sshArgs().configFile().isPresent()) {
                sshConfig = SshConfig.read(sshArgs().configFile().get(), true);
            } else {
                sshConfig = SshConfig.read(home.resolve(".ssh/config"), false);
            }
        }
        return sshConfig;
    }

    /** {@code ssh_args}: which parts apply, and what fleetfix leaves out. */
    record SshArgs(Optional<String> jump, Optional<Path> configFile, List<String> ignored) {}

    SshArgs sshArgs() {
        if (sshArgs == null) {
            sshArgs = parseSshArgs(config().get("ssh_connection.ssh_args").orElse(""));
        }
        return sshArgs;
    }

    private SshArgs parseSshArgs(String args) {
        String[] words = args.isBlank() ? new String[0] : args.strip().split("\\s+");
        Optional<String> jump = Optional.empty();
        Optional<Path> file = Optional.empty();
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
                file = Optional.of(Path.of(next.startsWith("~/") ? home + next.substring(1) : next));
                i++;
            } else if (w.equals("-o") && next != null) {
                String option = next;
                i++;
                int eq = option.indexOf('=');
                String name = (eq < 0 ? option : option.substring(0, eq)).toLowerCase(java.util.Locale.ROOT);
                if (name.equals("proxyjump") && eq > 0) {
                    jump = Optional.of(option.substring(eq + 1));
                } else if (!HARMLESS_OPTIONS.contains(name)) {
                    ignored.add("-o " + option);
                }
            } else if (!w.equals("-C")) {
                ignored.add(w);
            }
        }
        return new SshArgs(jump, file, List.copyOf(ignored));
    }

    /** Lines for stderr: settings read but not applied. */
    List<String> notices() {
        List<String> out = new ArrayList<>(sshConfig().notices());
        if (!sshArgs().ignored().isEmpty()) {
            out.add(config().origin("ssh_connection.ssh_args") + ": fleetfix does not apply "
                    + String.join(" ", sshArgs().ignored()) + " (only ProxyJump/-J and -F)");
        }
        return out;
    }

    /** host_key_checking = False: Ansible's "trust anything", which fleetfix narrows to accept-new. */
    Optional<String> acceptNewFromConfig() {
        return config().bool("defaults.host_key_checking")
                .filter(check -> !check)
                .map(check -> config().origin("defaults.host_key_checking"));
    }

    /**
     * ansible.cfg's {@code forks} as the default of {@code --forks}, and its {@code stdout_callback = json} as
     * {@code apply --format json}'s (Ansible's json callback prints the run as one JSON document too). A broken
     * configuration gives no default here: the inventory reports it, with its file and line.
     */
    CommandLine.IDefaultValueProvider defaultValues() {
        return arg -> {
            if (arg instanceof CommandLine.Model.OptionSpec option
                    && option.longestName().equals("--format")
                    && option.command() != null
                    && option.command().name().equals("apply")) {
                return config().get("defaults.stdout_callback")
                        .map(String::strip)
                        .filter(callback -> callback.equals("json") || callback.equals("ansible.posix.json"))
                        .map(callback -> "json")
                        .orElse(null);
            }
            if (arg instanceof CommandLine.Model.OptionSpec option
                    && option.longestName().equals("--forks")) {
                try {
                    return config().positiveInt("defaults.forks")
                            .map(String::valueOf)
                            .orElse(null);
                } catch (InputException e) {
                    return null;
                }
            }
            return null;
        };
    }
}
