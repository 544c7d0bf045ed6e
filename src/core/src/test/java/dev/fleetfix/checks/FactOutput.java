package dev.fleetfix.checks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds fact script output as a host would print it, starting from a healthy Debian 12 host. */
public final class FactOutput {
    private final Map<String, List<String>> sections = new LinkedHashMap<>();

    public static FactOutput debian12() {
        return new FactOutput()
                .set("kernel", "6.1.0-18-amd64")
                .set("uid", "0")
                .set("thp.dir", ThpFacts.STANDARD_DIR)
                .set("thp.enabled", "always madvise [never]")
                .set("thp.defrag", "always defer defer+madvise [madvise] never")
                .set("thp.fs", "statfs sysfs", "mountinfo sysfs")
                .set("kconfig", "CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS=y")
                .set("cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=UUID=0b1c ro quiet")
                .set("grub")
                .set(
                        "systemd",
                        hit(
                                "/etc/systemd/system/disable-thp.service",
                                "enabled",
                                "ExecStart=/bin/sh -c 'echo never > /sys/kernel/mm/transparent_hugepage/enabled'"))
                .set("tmpfiles")
                .set("rc.local")
                .set("sysfs")
                .set("tuned")
                .set("overcommit", "1")
                .set("somaxconn", "4096")
                .set("redis.pid", "info 4242")
                .set("smaps", "kb 0");
    }

    public static String hit(String file, String state, String line) {
        return file + "\t" + state + "\t" + line;
    }

    public FactOutput set(String section, String... lines) {
        sections.put(section, List.of(lines));
        return this;
    }

    public FactOutput without(String section) {
        sections.remove(section);
        return this;
    }

    /** The output, ending with the {@code end} marker as a finished script does. */
    public String text() {
        return body() + "\n" + FactScript.MARKER + "end\n";
    }

    /** The output of a script that was cut short. */
    public String truncated() {
        return body();
    }

    private String body() {
        StringBuilder out = new StringBuilder();
        sections.forEach((name, lines) -> {
            out.append('\n').append(FactScript.MARKER).append(name).append('\n');
            lines.forEach(line -> out.append(line).append('\n'));
        });
        return out.toString();
    }
}
