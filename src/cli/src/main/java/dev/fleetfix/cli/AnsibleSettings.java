package dev.fleetfix.cli;

import dev.fleetfix.Forks;
import dev.fleetfix.InputException;
import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The command line's view of the Ansible user's machine ({@link AnsibleEnvironment}, read once per run): the
 * environment as {@code -F} leaves it, and ansible.cfg's defaults of fleetfix's options.
 */
final class AnsibleSettings {
    private final AnsibleEnvironment environment;
    private AnsibleEnvironment withSshConfig;

    AnsibleSettings(Map<String, String> env, Path cwd, Path home, boolean enabled) {
        this.environment = new AnsibleEnvironment(env, cwd, home, enabled);
    }

    static AnsibleSettings ofProcess() {
        return new AnsibleSettings(
                System.getenv(), Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")), true);
    }

    /** Nothing read: for commands run outside fleetfix's root command (unit tests of one mixin). */
    static AnsibleSettings none() {
        return new AnsibleSettings(Map.of(), Path.of(""), Path.of(""), false);
    }

    /** The environment, the OpenSSH client configuration of {@code -F} (when given) read once. */
    AnsibleEnvironment environment(Optional<Path> sshConfigFile) {
        if (withSshConfig == null || !withSshConfig.sshConfigFile().equals(sshConfigFile)) {
            withSshConfig = environment.withSshConfigFile(sshConfigFile);
        }
        return withSshConfig;
    }

    /**
     * ansible.cfg's {@code forks} as the default of {@code --forks}, and its {@code stdout_callback = json} as
     * {@code apply --format json}'s (Ansible's json callback prints the run as one JSON document too). A value the
     * forks rule ({@link Forks#checked}) refuses gives no default here: {@link ForksOption#forks()} refuses it where a
     * command uses it.
     */
    CommandLine.IDefaultValueProvider defaultValues() {
        return arg -> {
            if (arg instanceof CommandLine.Model.OptionSpec option
                    && option.longestName().equals("--format")
                    && option.command() != null
                    && option.command().name().equals("apply")) {
                return environment
                        .config()
                        .get("defaults.stdout_callback")
                        .map(String::strip)
                        .filter(callback -> callback.equals("json") || callback.equals("ansible.posix.json"))
                        .map(callback -> "json")
                        .orElse(null);
            }
            if (arg instanceof CommandLine.Model.OptionSpec option
                    && option.longestName().equals("--forks")) {
                // the forks rule's one check: a value it refuses (or a configuration that cannot be read) gives no
                // default, and the option's own stands
                try {
                    return environment
                            .config()
                            .get("defaults.forks")
                            .map(forks -> String.valueOf(Forks.checked(forks)))
                            .orElse(null);
                } catch (InputException | IllegalArgumentException e) {
                    return null;
                }
            }
            return null;
        };
    }
}
