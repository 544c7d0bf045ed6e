package dev.fleetfix.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Prints a bash/zsh completion script: {@code source <(fleetfix completion)}. */
@Command(
        name = "completion",
        mixinStandardHelpOptions = true,
        description = {
            "Prints a bash/zsh completion script for fleetfix.",
            "Use it with: source <(fleetfix completion)   (zsh: autoload -U +X bashcompinit && bashcompinit first)"
        })
final class CompletionCommand implements Runnable, CommandTree.ReadsWholeTree {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        CommandSpec root = spec.root();
        String script = AutoComplete.bash(root.name(), root.commandLine());
        spec.commandLine().getOut().print(script);
        spec.commandLine().getOut().flush();
    }
}
