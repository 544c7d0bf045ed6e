package dev.fleetfix.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One host's directory in the lab directory: what is mounted into its container.
 *
 * <pre>
 * hosts/NAME/etc/            read-only at /etc/fleetfix-lab: host.env, host key, authorized_keys, redis.conf
 * hosts/NAME/sys-kernel-mm/  its THP files: transparent_hugepage/ bound over the kernel's, or for a RHEL 6
 *                            host the whole directory over /sys/kernel/mm, holding only redhat_transparent_hugepage/
 * hosts/NAME/thp-boot/       the same files as at boot, copied back before each (re)start
 * hosts/NAME/redis-password  the Redis password, when the host has one (inventory: redis_password_file)
 * </pre>
 */
final class LabHostFiles {
    static final String THP = "transparent_hugepage";
    static final String RHEL6_THP = "redhat_transparent_hugepage";

    private final Path dir;

    LabHostFiles(Path labDir, String host) {
        this.dir = labDir.resolve("hosts").resolve(host);
    }

    Path etc() {
        return dir.resolve("etc");
    }

    Path passwordFile() {
        return dir.resolve("redis-password");
    }

    private Path sysKernelMm() {
        return dir.resolve("sys-kernel-mm");
    }

    private Path bootCopy() {
        return dir.resolve("thp-boot");
    }

    boolean rhel6() {
        return Files.isDirectory(sysKernelMm().resolve(RHEL6_THP));
    }

    /** The host's THP directory as the host sees it at {@code /sys/kernel/mm/<name>}. */
    Path thpDir() {
        return sysKernelMm().resolve(rhel6() ? RHEL6_THP : THP);
    }

    LabDocker.Mount thpMount() {
        if (rhel6()) {
            return new LabDocker.Mount(sysKernelMm(), "/sys/kernel/mm", false);
        }
        return new LabDocker.Mount(sysKernelMm().resolve(THP), "/sys/kernel/mm/" + THP, false);
    }

    LabDocker.Mount etcMount() {
        return new LabDocker.Mount(etc(), "/etc/fleetfix-lab", true);
    }

    void writeThp(LabHostSpec spec) {
        boolean rhel6 = spec.rhel6Thp();
        String name = rhel6 ? RHEL6_THP : THP;
        for (Path root : List.of(sysKernelMm(), bootCopy())) {
            Path thp = root.resolve(name);
            write(thp.resolve("enabled"), spec.thpEnabled().enabledFile(rhel6));
            write(thp.resolve("defrag"), spec.thpDefrag().defragFile(rhel6));
            // RHEL 6 spelled khugepaged's defrag as yes/no, later kernels as 0/1.
            write(thp.resolve("khugepaged").resolve("defrag"), rhel6 ? "yes\n" : "1\n");
            if (!rhel6) {
                write(thp.resolve("hpage_pmd_size"), "2097152\n");
            }
        }
    }

    /** Puts the boot-time THP files back, as a real boot resets sysfs. */
    void resetThp() {
        Path boot = bootCopy();
        try (Stream<Path> files = Files.walk(boot)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = sysKernelMm().resolve(boot.relativize(file));
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reset THP files of " + dir, e);
        }
    }

    /** The host's Redis password, when it has one. */
    Optional<String> password() {
        Path file = passwordFile();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
