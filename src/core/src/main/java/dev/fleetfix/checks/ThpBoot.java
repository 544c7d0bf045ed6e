package dev.fleetfix.checks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What sets THP when the host boots, and so what it will be after a reboot.
 *
 * @param settings every THP line found, in the order the script read them (cmdline, grub, systemd,
 *     tmpfiles, rc.local, sysfs.conf, tuned)
 * @param kernelDefault the kernel's built-in default ({@code CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS/MADVISE}
 *     in {@code /boot/config-*}), empty when the config could not be read
 */
public record ThpBoot(List<BootSetting> settings, Optional<ThpMode> kernelDefault) {

    public ThpBoot {
        settings = List.copyOf(settings);
        Objects.requireNonNull(kernelDefault, "kernelDefault");
    }

    /**
     * The {@code enabled} mode the host will have after a reboot, when it can be told: the last active
     * userspace source (they run after the kernel started and override it), else the grub config (the
     * next kernel command line), else the running command line, else the kernel's default.
     */
    public Optional<ThpMode> enabledAfterReboot() {
        Optional<ThpMode> userspace = lastUserspaceEnabled();
        if (userspace.isPresent()) {
            return userspace;
        }
        Optional<ThpMode> grub = lastEnabledFrom(BootSource.GRUB);
        if (grub.isPresent()) {
            return grub;
        }
        Optional<ThpMode> cmdline = lastEnabledFrom(BootSource.KERNEL_CMDLINE);
        return cmdline.isPresent() ? cmdline : kernelDefault;
    }

    /** Whether anything active sets {@code enabled} at boot. */
    public boolean persisted() {
        return settings.stream().anyMatch(BootSetting::setsEnabledAtBoot);
    }

    /** The sources that set THP at boot, in order, each once ("grub", "systemd"). */
    public List<BootSource> activeSources() {
        Set<BootSource> sources = new LinkedHashSet<>();
        settings.stream().filter(BootSetting::active).forEach(s -> sources.add(s.source()));
        return List.copyOf(sources);
    }

    private Optional<ThpMode> lastUserspaceEnabled() {
        Optional<ThpMode> last = Optional.empty();
        for (BootSetting s : settings) {
            if (s.setsEnabledAtBoot() && s.source().isUserspace()) {
                last = s.mode();
            }
        }
        return last;
    }

    private Optional<ThpMode> lastEnabledFrom(BootSource source) {
        Optional<ThpMode> last = Optional.empty();
        for (BootSetting s : settings) {
            if (s.setsEnabledAtBoot() && s.source() == source) {
                last = s.mode();
            }
        }
        return last;
    }
}
