package dev.fleetfix.checks;

import java.util.Objects;
import java.util.Optional;

/**
 * One line found on a host that sets THP at boot.
 *
 * @param source what kind of mechanism it is
 * @param file the file it was found in ({@code /proc/cmdline} for the running kernel's command line)
 * @param line the line as found, trimmed
 * @param mode the mode it sets, when the line names one
 * @param target {@code enabled} or {@code defrag}: which sysfs file the line sets
 * @param active whether it takes effect at boot: a systemd unit that is enabled, an executable
 *     rc.local, an enabled tuned; always true for the other sources
 */
public record BootSetting(
        BootSource source, String file, String line, Optional<ThpMode> mode, String target, boolean active) {

    public static final String ENABLED = "enabled";
    public static final String DEFRAG = "defrag";

    public BootSetting {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(mode, "mode");
        if (!ENABLED.equals(target) && !DEFRAG.equals(target)) {
            throw new IllegalArgumentException("boot setting target must be enabled or defrag, was " + target);
        }
    }

    /** Whether it sets {@code enabled} at boot, to a known mode. */
    public boolean setsEnabledAtBoot() {
        return active && target.equals(ENABLED) && mode.isPresent();
    }
}
