package dev.fleetfix.cli;

import dev.fleetfix.Forks;
import dev.fleetfix.InputException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code -f/--forks N} ({@code @Mixin} of every command that connects to hosts): one option, one default ({@link
 * Forks#DEFAULT_FORKS}, or ansible.cfg's {@code forks}), one rule ({@link Forks#checked}) and so one message, checked
 * while the command line is parsed, before anything is read.
 */
final class ForksOption {
    @Option(
            names = {"-f", "--forks"},
            paramLabel = "N",
            defaultValue = "" + Forks.DEFAULT_FORKS,
            converter = Count.class,
            description = "Hosts worked on at once, as Ansible's --forks (default: ${DEFAULT-VALUE}, else ansible.cfg's"
                    + " forks or ANSIBLE_FORKS): apply's hosts of a batch, audit's hosts, and the hosts asked for"
                    + " their replication group by --shard; bench measures one host after another whatever N is.")
    int forks;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * The forks count, read when a command uses it: a value of ansible.cfg's {@code forks} (or {@code ANSIBLE_FORKS})
     * that {@link Forks#checked}'s rule refuses is refused here, naming the file and line, when no {@code --forks}
     * overrides it (as Ansible refuses it); a command that never uses the count carries the setting untouched.
     *
     * @throws InputException naming the setting's file and line, or its environment variable
     */
    int forks() {
        if (command != null && !command.commandLine().getParseResult().hasMatchedOption("--forks")) {
            FleetfixCommand.environment(command.commandLine()).config().positiveInt("defaults.forks");
        }
        return forks;
    }

    /** A whole number of at least 1, by {@link Forks#checked}'s rule and words. */
    static final class Count implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return Forks.checked(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
