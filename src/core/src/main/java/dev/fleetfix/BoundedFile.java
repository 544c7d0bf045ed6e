package dev.fleetfix;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * An input file read whole, but only a regular file of at most a given size: a symlink to {@code /dev/zero}, a
 * FIFO or a 3 GB file is refused by name before it is opened (a FIFO's open would wait for a writer forever), and
 * a file that grows past the bound while it is read is refused too. Every refusal is an {@link InputException}
 * naming the file: bad input, exit 2.
 */
public final class BoundedFile {
    private BoundedFile() {}

    /**
     * The file's text, as UTF-8.
     *
     * @param what what the file is, for messages ("limit file", "report")
     * @param maxBytes the most it may hold
     * @throws InputException when it is missing, not a regular file (after links), larger than {@code maxBytes}, not
     *     UTF-8 or unreadable
     */
    public static String read(Path file, String what, long maxBytes) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new InputException(what + " " + file + ": no such file");
        } catch (IOException e) {
            throw new InputException(what + " " + file + ": cannot read: " + e.getMessage());
        }
        if (!attributes.isRegularFile()) {
            throw new InputException(what + " " + file + ": not a regular file ("
                    + (attributes.isDirectory() ? "a directory" : "a device, FIFO or socket") + "); fleetfix reads"
                    + " only regular files");
        }
        if (attributes.size() > maxBytes) {
            throw new InputException(tooLarge(file, what, maxBytes));
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(Math.toIntExact(maxBytes + 1));
        } catch (IOException e) {
            throw new InputException(what + " " + file + ": cannot read: " + e.getMessage());
        }
        if (bytes.length > maxBytes) {
            throw new InputException(tooLarge(file, what, maxBytes));
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InputException(what + " " + file + ": not UTF-8 text");
        }
    }

    private static String tooLarge(Path file, String what, long maxBytes) {
        return what + " " + file + ": larger than the limit of " + size(maxBytes) + "; fleetfix reads no more of it";
    }

    private static String size(long bytes) {
        return bytes % (1024 * 1024) == 0 ? bytes / (1024 * 1024) + " MiB" : bytes + " bytes";
    }
}
