package dev.fleetfix.checks;

import java.util.Objects;
import java.util.Optional;

/**
 * THP as the host runs it now.
 *
 * @param sysfsDir the directory read ({@code /sys/kernel/mm/transparent_hugepage}, or RHEL 6's
 *     {@code /sys/kernel/mm/redhat_transparent_hugepage}); empty when neither exists
 * @param enabled the selected mode of {@code enabled}; {@link ThpMode#UNSUPPORTED} without THP;
 *     empty when the file could not be read or parsed
 * @param defrag the selected mode of {@code defrag}, same rules
 */
public record ThpFacts(Optional<String> sysfsDir, Optional<ThpMode> enabled, Optional<ThpMode> defrag) {

    public static final String STANDARD_DIR = "/sys/kernel/mm/transparent_hugepage";
    public static final String RHEL6_DIR = "/sys/kernel/mm/redhat_transparent_hugepage";

    public ThpFacts {
        Objects.requireNonNull(sysfsDir, "sysfsDir");
        Objects.requireNonNull(enabled, "enabled");
        Objects.requireNonNull(defrag, "defrag");
        if (sysfsDir.isEmpty()
                && (!enabled.equals(Optional.of(ThpMode.UNSUPPORTED))
                        || !defrag.equals(Optional.of(ThpMode.UNSUPPORTED)))) {
            throw new IllegalArgumentException("THP without a sysfs directory must be unsupported, was " + enabled);
        }
    }

    public static ThpFacts unsupported() {
        return new ThpFacts(Optional.empty(), Optional.of(ThpMode.UNSUPPORTED), Optional.of(ThpMode.UNSUPPORTED));
    }

    public boolean supported() {
        return sysfsDir.isPresent();
    }

    /** Whether THP is {@code always}: every anonymous mapping may get huge pages, Redis's included. */
    public boolean isAlways() {
        return enabled.equals(Optional.of(ThpMode.ALWAYS));
    }
}
