package dev.fleetfix.transport.held;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where the holder of one user lives: a directory only that user can open ({@code $XDG_RUNTIME_DIR/fleetfix}, else
 * {@code /tmp/fleetfix-USER}), holding its socket, the lock that keeps two runs from starting two holders, and
 * its log. A directory that another user owns, or that others may open, is refused, and the run connects
 * directly: a socket there could be someone else's.
 */
public record HoldPlace(Path directory, String user) {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    public HoldPlace {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(user, "user");
    }

    /**
     * The place for this user, from the environment ({@code XDG_RUNTIME_DIR}, when it is the user's: {@code su}
     * without {@code -} keeps the caller's) and the temporary directory.
     */
    public static HoldPlace of(Map<String, String> env, String user, Path tmp) {
        Optional<Path> runtime = Optional.ofNullable(env.get("XDG_RUNTIME_DIR"))
                .filter(d -> !d.isBlank())
                .map(Path::of)
                .filter(Files::isDirectory)
                .filter(d -> ownedBy(d, user));
        return new HoldPlace(runtime.map(d -> d.resolve("fleetfix")).orElse(tmp.resolve("fleetfix-" + user)), user);
    }

    /** This process's place. */
    public static HoldPlace ofProcess() {
        return of(System.getenv(), System.getProperty("user.name"), Path.of(System.getProperty("java.io.tmpdir")));
    }

    public Path socket() {
        return directory.resolve("hold.sock");
    }

    public Path lock() {
        return directory.resolve("hold.lock");
    }

    public Path log() {
        return directory.resolve("hold.log");
    }

    /**
     * Makes the directory (mode 0700) if it is missing, and checks that it is this user's alone: not a link, owned by
     * the user, no rights for group or others.
     *
     * @throws IOException naming the directory and what is wrong with it
     */
    public void prepare() throws IOException {
        checkParent();
        try {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            // checked below, whoever made it
        }
        if (Files.isSymbolicLink(directory)) {
            throw new IOException(directory + " is a symbolic link; remove it");
        }
        PosixFileAttributes attributes = Files.getFileAttributeView(
                        directory, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
        if (!attributes.isDirectory()) {
            throw new IOException(directory + " is not a directory; remove it");
        }
        if (!attributes.owner().getName().equals(user)) {
            throw new IOException(directory + " belongs to "
                    + attributes.owner().getName() + ", not " + user + "; remove it or set XDG_RUNTIME_DIR");
        }
        if (!attributes.permissions().equals(OWNER_ONLY)) {
            throw new IOException(directory + " has mode " + PosixFilePermissions.toString(attributes.permissions())
                    + ", not rwx------; chmod 700 it");
        }
    }

    /**
     * No other user may rename or replace our directory, nor any directory above it: each, up to /, as written and
     * as its links resolve, is the user's or root's and writable by no one else, unless it is root's and sticky (as
     * /tmp is: no one may rename what is not theirs there). Otherwise a check of our directory could pass and a
     * connect or an open a moment later find another user's in its place.
     */
    private void checkParent() throws IOException {
        Path parent = directory.toAbsolutePath().getParent();
        if (parent == null) {
            return;
        }
        checkChain(parent);
        checkChain(parent.toRealPath());
    }

    private void checkChain(Path from) throws IOException {
        for (Path p = from; p != null; p = p.getParent()) {
            String owner = Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName();
            int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if (Files.isSymbolicLink(p)) {
                if (!owner.equals(user) && !owner.equals("root")) {
                    throw new IOException(p + " (above " + directory + ") is a link of " + owner + "'s: another user"
                            + " could replace " + directory.getFileName() + "; set XDG_RUNTIME_DIR to a directory of"
                            + " your own");
                }
                continue;
            }
            boolean othersWrite = (mode & 0022) != 0;
            boolean rootSticky = owner.equals("root") && (mode & 01000) != 0;
            if ((!owner.equals(user) && !owner.equals("root")) || (othersWrite && !rootSticky)) {
                throw new IOException(p + " (above " + directory + ") belongs to " + owner + " with mode "
                        + Integer.toOctalString(mode & 07777) + ": another user could replace "
                        + directory.getFileName() + " there; set XDG_RUNTIME_DIR to a directory of your own");
            }
        }
    }

    private static boolean ownedBy(Path directory, String user) {
        try {
            return Files.getOwner(directory).getName().equals(user);
        } catch (IOException e) {
            return false;
        }
    }
}
