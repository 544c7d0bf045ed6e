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
 * @param filesystem the type of the filesystem that holds {@code enabled} ({@code sysfs} when it is the
 *     kernel's; a container may bind-mount a plain file over it); empty when it could not be read
 */
public record ThpFacts(
        Optional<String> sysfsDir, Optional<ThpMode> enabled, Optional<ThpMode> defrag, Optional<String> filesystem) {

    public static final String STANDARD_DIR = "/sys/kernel/mm/transparent_hugepage";
    public static final String RHEL6_DIR = "/sys/kernel/mm/redhat_transparent_hugepage";
    public static final String SYSFS = "sysfs";

    public ThpFacts {
        Objects.requireNonNull(sysfsDir, "sysfsDir");
        Objects.requireNonNull(enabled, "enabled");
        Objects.requireNonNull(defrag, "defrag");
        Objects.requireNonNull(filesystem, "filesystem");
        if (sysfsDir.isEmpty()
                && (!enabled.equals(Optional.of(ThpMode.UNSUPPORTED))
                        || !defrag.equals(Optional.of(ThpMode.UNSUPPORTED)))) {
            throw new IllegalArgumentException("THP without a sysfs directory must be unsupported, was " + enabled);
        }
    }

    public static ThpFacts unsupported() {
        return new ThpFacts(
                Optional.empty(), Optional.of(ThpMode.UNSUPPORTED), Optional.of(ThpMode.UNSUPPORTED), Optional.empty());
    }

    public boolean supported() {
        return sysfsDir.isPresent();
    }

    /** Whether THP is {@code always}: every anonymous mapping may get huge pages, Redis's included. */
    public boolean isAlways() {
        return enabled.equals(Optional.of(ThpMode.ALWAYS));
    }

    /**
     * Whether the THP files are the kernel's: {@code enabled} is on sysfs. False when another filesystem
     * holds it (writing it then does not reach the kernel); empty when that could not be read.
     */
    public Optional<Boolean> kernels() {
        return filesystem.map(SYSFS::equals);
    }
}
