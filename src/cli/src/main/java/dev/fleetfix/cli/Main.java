package dev.fleetfix.cli;

import dev.fleetfix.KnownSecrets;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;

/** Entry point: builds the command line a command needs and exits with its code. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        // libraries log here (-vv); a peer's words they log are scrubbed as the console's are
        System.setErr(KnownSecrets.scrubbing(System.err));
        Verbosity.configureLogging(args);
        System.exit(commandLine(args).execute(args));
    }

    /** The whole command tree, fully wired; tests call this and {@code execute}. */
    public static CommandLine commandLine() {
        return commandLine(AnsibleSettings.ofProcess());
    }

    /**
     * The command line that runs {@code args}: the root with only the subcommand they invoke, or the whole tree when
     * they ask for it (the help, the completion script, a word that is no command). It behaves as the whole tree
     * would for these arguments, and costs a short command a fraction of its start-up.
     */
    public static CommandLine commandLine(String[] args) {
        return commandLine(AnsibleSettings.ofProcess(), Adapters::system, Invocation.of(args));
    }

    /** The command line working through {@code adapters} (tests: fakes of the ports). */
    static CommandLine commandLine(Adapters adapters) {
        return commandLine(AnsibleSettings.ofProcess(), adapters);
    }

    /** The command line reading Ansible's configuration from {@code settings} (tests: a temporary HOME). */
    static CommandLine commandLine(AnsibleSettings settings) {
        return commandLine(settings, Adapters::system, Invocation.WHOLE_TREE);
    }

    /** The whole tree working through {@code adapters}, reading Ansible's configuration from {@code settings}. */
    static CommandLine commandLine(AnsibleSettings settings, Adapters adapters) {
        return commandLine(settings, () -> adapters, Invocation.WHOLE_TREE);
    }

    /**
     * The one place commands get their adapters: picocli makes each through {@link Adapters.Factory}, which builds
     * them when the first command that takes them is made ({@code --version} never does).
     */
    static CommandLine commandLine(AnsibleSettings settings, Supplier<Adapters> adapters, Invocation invocation) {
        Optional<CommandPlugin> plugin = invocation.plugin().flatMap(CommandPlugin::named);
        boolean wholeTree = invocation.wholeTree() || (invocation.plugin().isPresent() && plugin.isEmpty());
        FleetfixCommand app = new FleetfixCommand();
        app.ansibleSettings = settings;
        CommandLine cmd = new CommandLine(app, Adapters.Factory.lazy(adapters));
        for (Class<?> type : wholeTree ? CommandTree.builtins() : invocation.builtins()) {
            cmd.addSubcommand(new CommandLine(type, cmd.getFactory()));
        }
        cmd.setDefaultValueProvider(settings.defaultValues());
        // the console is one of the outputs every known secret is scrubbed from (KnownSecrets): whatever writers a
        // caller set, a command and the error handler write through scrubbing ones. Ansible's prompts are refused
        // before any command runs (PromptOptions), as a bad option is; -k asks on the terminal then.
        cmd.setExecutionStrategy(parseResult -> {
            scrubbing(cmd);
            try {
                PromptOptions.refuseAsked(parseResult);
                return new CommandLine.RunLast().execute(parseResult);
            } finally {
                PromptOptions.forget();
                flush(cmd);
            }
        });
        ErrorHandler errors = new ErrorHandler();
        cmd.setExecutionExceptionHandler((e, failed, parseResult) -> {
            try {
                return errors.handleExecutionException(e, failed, parseResult);
            } finally {
                flush(cmd);
            }
        });
        cmd.setParameterExceptionHandler(new ErrorHandler.UsageHandler());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        // "@FILE" is -e's, as in ansible-playbook: picocli would otherwise read the file as more arguments.
        cmd.setExpandAtFiles(false);
        if (wholeTree) {
            CommandPlugin.addAll(cmd);
        } else {
            plugin.ifPresent(found -> CommandPlugin.add(cmd, found));
        }
        return cmd;
    }

    /** Makes {@code cmd}'s writers, and so its subcommands', scrub every known secret from what they pass on. */
    private static void scrubbing(CommandLine cmd) {
        if (!(cmd.getOut() instanceof ScrubbedWriter)) {
            cmd.setOut(new ScrubbedWriter(cmd.getOut()));
        }
        if (!(cmd.getErr() instanceof ScrubbedWriter)) {
            cmd.setErr(new ScrubbedWriter(cmd.getErr()));
        }
    }

    private static void flush(CommandLine cmd) {
        cmd.getOut().flush();
        cmd.getErr().flush();
    }

    /** A console writer through {@link KnownSecrets#scrubbing}; flushed at each line, as picocli's are. */
    private static final class ScrubbedWriter extends PrintWriter {
        ScrubbedWriter(PrintWriter out) {
            super(KnownSecrets.scrubbing(out), true);
        }
    }

    /**
     * What a command line needs built, read from its arguments before picocli parses them: the root's own options
     * (-v, -F FILE, -h, -V) are skipped to the first word.
     *
     * @param builtins the built-in subcommands to build
     * @param plugin the plug-in command to add, by name; every subcommand when no plug-in has that name (picocli's
     *     "did you mean" needs them all)
     * @param wholeTree whether every subcommand is built, plug-ins included
     */
    record Invocation(List<Class<?>> builtins, Optional<String> plugin, boolean wholeTree) {
        static final Invocation WHOLE_TREE = new Invocation(CommandTree.builtins(), Optional.empty(), true);
        /** {@code --version} alone (with -v): the root answers it without any subcommand. */
        static final Invocation ROOT_ALONE = new Invocation(List.of(), Optional.empty(), false);

        Invocation {
            builtins = List.copyOf(builtins);
            Objects.requireNonNull(plugin, "plugin");
        }

        static Invocation of(String[] args) {
            boolean version = false;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("-F") || arg.equals("--ssh-config")) {
                    i++; // its FILE
                } else if (arg.equals("-V") || arg.equals("--version")) {
                    version = true;
                } else if (arg.equals("--verbose")
                        || arg.matches("-v+")
                        || arg.startsWith("--ssh-config=")
                        || arg.startsWith("-F")) {
                    continue;
                } else if (arg.startsWith("-")) {
                    // help, "--", a cluster such as -vF, an unknown option: the whole tree answers as it always did
                    return WHOLE_TREE;
                } else {
                    return ofWord(arg);
                }
            }
            return version ? ROOT_ALONE : WHOLE_TREE;
        }

        private static Invocation ofWord(String word) {
            Optional<Class<?>> builtin = CommandTree.builtin(word);
            if (builtin.isEmpty()) {
                return new Invocation(List.of(), Optional.of(word), false);
            }
            if (CommandTree.ReadsWholeTree.class.isAssignableFrom(builtin.get())) {
                return WHOLE_TREE;
            }
            return new Invocation(List.of(builtin.get()), Optional.empty(), false);
        }
    }
}
