package dev.fleetfix;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** This build's version, as Maven wrote it into {@code version.properties}: what reports and {@code --version} say. */
public final class FleetfixVersion {
    private FleetfixVersion() {}

    /** {@code 0.1.0}, or {@code unknown} outside a Maven build. */
    public static String get() {
        Properties props = new Properties();
        try (InputStream in = FleetfixVersion.class.getResourceAsStream("/dev/fleetfix/version.properties")) {
            if (in != null) {
                props.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return props.getProperty("version", "unknown");
    }
}
