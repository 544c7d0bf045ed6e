package dev.fleetfix.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Reads the version Maven wrote into {@code version.properties}. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties props = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/fleetfix/version.properties")) {
            if (in != null) {
                props.load(in);
            }
        }
        return new String[] {
            "fleetfix " + props.getProperty("version", "unknown"),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
        };
    }
}
