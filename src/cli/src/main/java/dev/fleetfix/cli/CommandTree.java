package dev.fleetfix.cli;

import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * fleetfix's built-in commands, in the order the help lists them. As a class annotated with its subcommands it is
 * also the whole tree for the build's completion script and man pages; {@link Main} reads the list and builds only
 * the subcommands a command line needs (picocli builds a command's model by reflection, and all of them together
 * cost a short command most of its start-up).
 */
@Command(
        subcommands = {
            AuditCommand.class,
            ApplyCommand.class,
            BenchCommand.class,
            ReportCommand.class,
            InventoryCommand.class,
            ConnectionsCommand.class,
            CompletionCommand.class,
            DocCommand.class,
            ThpDemo.class
        })
public final class CommandTree extends FleetfixCommand {

    /** The built-in subcommands' classes, as annotated above. */
    static List<Class<?>> builtins() {
        return List.of(CommandTree.class.getAnnotation(Command.class).subcommands());
    }

    /** The built-in subcommand called {@code word} (its name or an alias), if any. */
    static Optional<Class<?>> builtin(String word) {
        return builtins().stream().filter(type -> named(type, word)).findFirst();
    }

    /** Whether the {@code @Command} class {@code type} is called {@code word}, by its name or an alias. */
    static boolean named(Class<?> type, String word) {
        Command command = type.getAnnotation(Command.class);
        return command != null
                && (command.name().equals(word) || List.of(command.aliases()).contains(word));
    }

    /**
     * A command that reads the whole command tree (the completion script): a command line naming it gets every
     * subcommand, plug-ins included.
     */
    interface ReadsWholeTree {}
}
