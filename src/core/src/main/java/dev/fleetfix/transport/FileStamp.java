package dev.fleetfix.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Optional;

/**
 * What tells that a file of the control node is as it was when last seen: its size and modification time, which a
 * user can set back after editing the file in place ({@code touch -r}), and its change time and identity (a file
 * replaced is another), which no user can.
 */
public record FileStamp(long size, FileTime modified, Object changed, Object key) {
    /** The file's stamp; empty when it cannot be read, or when its file system keeps no change time. */
    public static Optional<FileStamp> of(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            Object changed = Files.getAttribute(file, "unix:ctime");
            return Optional.of(new FileStamp(a.size(), a.lastModifiedTime(), changed, a.fileKey()));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
