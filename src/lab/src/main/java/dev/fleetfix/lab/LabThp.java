package dev.fleetfix.lab;

import java.util.List;
import java.util.Locale;

/**
 * A Transparent Huge Pages mode as a lab host boots with it. Named apart from the checks' own mode type:
 * this one only knows how to lay out the sysfs files of a lab host.
 */
public enum LabThp {
    ALWAYS,
    MADVISE,
    NEVER;

    private static final List<String> ENABLED_CHOICES = List.of("always", "madvise", "never");
    private static final List<String> DEFRAG_CHOICES = List.of("always", "defer", "defer+madvise", "madvise", "never");
    private static final List<String> RHEL6_CHOICES = List.of("always", "madvise", "never");

    /** The bare word a write leaves in the file: {@code never}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The {@code enabled} file as a kernel shows it: {@code always [madvise] never}. */
    public String enabledFile(boolean rhel6) {
        return kernelFormat(rhel6 ? RHEL6_CHOICES : ENABLED_CHOICES);
    }

    /** The {@code defrag} file as a kernel shows it; RHEL 6 kernels offer fewer choices. */
    public String defragFile(boolean rhel6) {
        return kernelFormat(rhel6 ? RHEL6_CHOICES : DEFRAG_CHOICES);
    }

    private String kernelFormat(List<String> choices) {
        StringBuilder line = new StringBuilder();
        for (String choice : choices) {
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(choice.equals(word()) ? "[" + choice + "]" : choice);
        }
        return line.append('\n').toString();
    }
}
