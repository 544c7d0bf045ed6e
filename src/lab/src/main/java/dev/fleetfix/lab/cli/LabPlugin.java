package dev.fleetfix.lab.cli;

import dev.fleetfix.cli.CommandPlugin;

/** Adds {@code fleetfix lab} to the fleetfix command when fleetfix-lab.jar is on its class path. */
public final class LabPlugin implements CommandPlugin {
    @Override
    public Class<?> command() {
        return LabCommand.class;
    }
}
