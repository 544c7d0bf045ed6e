package dev.fleetfix.cli;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import picocli.CommandLine;

/**
 * A command that another artifact adds to {@code fleetfix} when its jar is on the class path, found with {@link
 * ServiceLoader}. The lab ({@code fleetfix lab}, in fleetfix-lab.jar) is one: the operator's package does without
 * it and without the Docker client it needs.
 */
public interface CommandPlugin {

    /**
     * A plug-in fleetfix knows of, to name when its word is typed and it is not installed: what it is and where it
     * comes from.
     *
     * @param word the command's name, as typed
     * @param what what the plug-in is, in a few words
     * @param debianPackage the Debian package that installs it
     * @param archive the release archive that carries it, unpacked over fleetfix's install
     * @param jar the jar it adds, relative to the install
     */
    record Known(String word, String what, String debianPackage, String archive, String jar) {
        /** The one line that says what to install. */
        public String notInstalled() {
            return "'" + word + "' is " + what + ", which is not installed: install the " + debianPackage
                    + " package, or unpack " + archive + " over this fleetfix (it adds " + jar + ")";
        }
    }

    /** The plug-ins of fleetfix's own release. */
    List<Known> KNOWN = List.of(new Known(
            "lab", "the lab plug-in", "fleetfix-lab", "fleetfix-lab-VERSION.tar.gz", "lib/plugins/fleetfix-lab.jar"));

    /** The known plug-in called {@code word}, if fleetfix's release has one. */
    static Optional<Known> known(String word) {
        return KNOWN.stream().filter(k -> k.word().equals(word)).findFirst();
    }

    /** The picocli command (a class annotated with {@code @Command}), made through the command line's factory. */
    Class<?> command();

    /** Adds every plug-in on the class path to {@code root} as a subcommand. */
    static void addAll(CommandLine root) {
        for (CommandPlugin plugin : plugins()) {
            add(root, plugin);
        }
    }

    /** Adds {@code plugin} to {@code root} as a subcommand. */
    static void add(CommandLine root, CommandPlugin plugin) {
        root.addSubcommand(new CommandLine(plugin.command(), root.getFactory()));
    }

    /** The plug-in on the class path whose command is called {@code word} (its name or an alias), if any. */
    static Optional<CommandPlugin> named(String word) {
        for (CommandPlugin plugin : plugins()) {
            if (CommandTree.named(plugin.command(), word)) {
                return Optional.of(plugin);
            }
        }
        return Optional.empty();
    }

    private static ServiceLoader<CommandPlugin> plugins() {
        return ServiceLoader.load(CommandPlugin.class, CommandPlugin.class.getClassLoader());
    }
}
