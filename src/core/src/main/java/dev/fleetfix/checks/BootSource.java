package dev.fleetfix.checks;

/** A place that can set THP when the host boots. */
public enum BootSource {
    /** {@code transparent_hugepage=} on the running kernel's {@code /proc/cmdline}. */
    KERNEL_CMDLINE("cmdline"),
    /** {@code transparent_hugepage=} in {@code /etc/default/grub} or {@code /etc/default/grub.d/*.cfg}. */
    GRUB("grub"),
    /** A systemd unit that writes the sysfs file. */
    SYSTEMD("systemd"),
    /** A tmpfiles.d line that writes the sysfs file. */
    TMPFILES("tmpfiles"),
    /** A line in {@code /etc/rc.local}. */
    RC_LOCAL("rc.local"),
    /** {@code /etc/sysfs.conf} or {@code /etc/sysfs.d} (sysfsutils). */
    SYSFS_CONF("sysfs.conf"),
    /** The active tuned profile's {@code transparent_hugepages=}. */
    TUNED("tuned");

    private final String word;

    BootSource(String word) {
        this.word = word;
    }

    /** How reports name it: "systemd", "rc.local". */
    public String word() {
        return word;
    }

    /** Whether the source acts after the kernel has started (and so overrides the command line). */
    public boolean isUserspace() {
        return this != KERNEL_CMDLINE && this != GRUB;
    }

    @Override
    public String toString() {
        return word;
    }
}
