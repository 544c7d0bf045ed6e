package dev.fleetfix.cli;

import dev.fleetfix.FleetfixVersion;
import picocli.CommandLine.IVersionProvider;

/** Reads the version Maven wrote into {@code version.properties}. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            "fleetfix " + version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
        };
    }

    /** This build's version ({@code 0.1.0}), or {@code unknown} outside a Maven build. */
    static String version() {
        return FleetfixVersion.get();
    }
}
