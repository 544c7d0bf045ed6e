package dev.fleetfix.cli;

import java.util.Optional;
import java.util.ServiceLoader;
import picocli.CommandLine;

/**
 * A command that another artifact adds to {@code fleetfix} when its jar is on the class path, found with {@link
 * ServiceLoader}. The lab ({@code fleetfix lab}, in fleetfix-lab.jar) is one: the operator's package does without
 * it and without the Docker client it needs.
 */
public interface CommandPlugin {

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
