package dev.fleetfix.report.files;

import dev.fleetfix.InputException;
import dev.fleetfix.KnownSecrets;
import dev.fleetfix.rollout.event.RunListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** The three files {@code --report DIR} writes, and how they are written. */
public final class ReportFiles {
    public static final String JUNIT = "junit.xml";
    public static final String HTML = "report.html";

    private ReportFiles() {}

    /** The files written into {@code dir}, in the order they are mentioned to the user. */
    public static List<Path> paths(Path dir) {
        return Arrays.stream(ReportFormat.values())
                .map(format -> dir.resolve(format.fileName()))
                .toList();
    }

    /**
     * Checks, before any host is touched, that the reports can be written into {@code dir} when
     * the run ends: the directory exists (it is made) and takes new files, and no report path is a
     * directory. A symbolic link at a report path is fine: it is replaced, never written through. The directory
     * itself must not be a symbolic link: the reports would be written wherever it points (another user's link in a
     * shared place), so it is refused, naming where it points.
     *
     * @throws InputException naming the path and why
     */
    public static void prepare(Path dir) {
        prepare(dir, "--report");
    }

    /** As {@link #prepare(Path)}, the directory named in messages as given to {@code option}. */
    public static void prepare(Path dir, String option) {
        if (Files.isSymbolicLink(dir)) {
            String target;
            try {
                target = String.valueOf(Files.readSymbolicLink(dir));
            } catch (IOException e) {
                target = "?";
            }
            throw new InputException(option + " " + dir + ": is a symbolic link (to " + target + "); reports are not"
                    + " written through a link: give the directory itself");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new InputException(option + " " + dir + ": cannot create the directory: " + reason(e));
        }
        for (Path file : paths(dir)) {
            if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new InputException(
                        option + " " + dir + ": " + file + " is a directory; the report file cannot replace it");
            }
        }
        try {
            Path probe = Files.createTempFile(dir.toAbsolutePath(), ".fleetfix-probe", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            throw new InputException(option + " " + dir + ": cannot write there: " + reason(e));
        }
    }

    private static String reason(IOException e) {
        if (e instanceof FileSystemException fs) {
            return fs.getFile() + (fs.getReason() == null ? "" : ": " + fs.getReason());
        }
        return String.valueOf(e.getMessage());
    }

    /** The one reporter writing JSON, JUnit XML and HTML into {@code dir} when the run ends. */
    public static List<RunListener> reporters(Path dir) {
        return List.of(new FileReporter(outputs(dir)));
    }

    /** The JSON, JUnit XML and HTML files in {@code dir}, in {@link #paths} order. */
    public static List<FileReporter.Output> outputs(Path dir) {
        return Arrays.stream(ReportFormat.values())
                .map(format -> FileReporter.Output.file(format, dir.resolve(format.fileName())))
                .toList();
    }

    /**
     * Checks, before any host is touched, that {@code file} can be written where {@link #writeWorldReadable} will
     * write it: not a directory, and its directory exists and is writable. A missing directory is refused, not made:
     * it is most often a mistyped path (another distribution's textfile directory), and a file written where no
     * reader looks would be a silent failure.
     *
     * @throws InputException naming the file and what is wrong with it
     */
    public static void checkWritable(Path file, String what) {
        Path absolute = file.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            throw new InputException(what + " " + file + ": is a directory");
        }
        Path parent = absolute.getParent();
        if (!Files.isDirectory(parent)) {
            throw new InputException(what + " " + file + ": directory " + parent
                    + " does not exist; create it, or check the path (node_exporter's textfile directory on Debian is"
                    + " /var/lib/prometheus/node-exporter)");
        }
        if (!Files.isWritable(parent)) {
            throw new InputException(what + " " + file + ": directory " + parent + " is not writable");
        }
    }

    /** Writes through a temporary file and a rename, so a reader never sees half a report. */
    static void write(Path file, String text) {
        write(file, text, Optional.empty(), true);
    }

    /**
     * Writes like {@link #write(Path, String)}, readable by every user: for files another service reads, such as
     * node_exporter's textfile collector reading the audit's metrics.
     */
    public static void writeWorldReadable(Path file, String text) {
        write(file, text, Optional.of(PosixFilePermissions.fromString("rw-r--r--")), false);
    }

    private static void write(
            Path file, String text, Optional<Set<PosixFilePermission>> permissions, boolean makeDirectory) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (makeDirectory) {
                Files.createDirectories(parent);
            }
            // Not Files.createTempFile: it makes the file 0600 whatever the umask, and a report is read by others (CI
            // archiving it as another user, a web server). CREATE_NEW opens with O_EXCL and mode 0666 less the umask,
            // so the file is as readable as the user's other files (0644 by default) and never an existing one.
            // Reports carry no secrets (journals, which may, are written elsewhere and stay 0600).
            Path tmp = parent.resolve("." + file.getFileName() + "." + UUID.randomUUID() + ".tmp");
            // a peer's words in a report may carry a password it was sent: every report is scrubbed here
            Files.writeString(tmp, KnownSecrets.scrub(text), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            if (permissions.isPresent()) {
                Files.setPosixFilePermissions(tmp, permissions.get());
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write report " + file + ": " + e.getMessage(), e);
        }
    }
}
