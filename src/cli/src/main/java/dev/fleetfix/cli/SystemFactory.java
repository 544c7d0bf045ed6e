package dev.fleetfix.cli;

import picocli.CommandLine;

/**
 * The composition root's factory with the system's adapters, by class name: for the build's
 * completion script and man pages ({@code --factory}), which make the command tree outside
 * {@link Main}.
 */
public final class SystemFactory implements CommandLine.IFactory {
    private final CommandLine.IFactory factory = Adapters.Factory.lazy(Adapters::system);

    @Override
    public <K> K create(Class<K> type) throws Exception {
        return factory.create(type);
    }
}
