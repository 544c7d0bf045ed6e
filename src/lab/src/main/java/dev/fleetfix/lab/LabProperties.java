package dev.fleetfix.lab;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/** {@code lab.properties} in a lab directory: how {@code lab status}/{@code down} find the lab's containers. */
record LabProperties(String id, String user) {
    static final String FILE = "lab.properties";

    static void write(Path dir, String id, String user) {
        Properties properties = new Properties();
        properties.setProperty("id", id);
        properties.setProperty("user", user);
        try {
            Files.createDirectories(dir);
            try (Writer out = Files.newBufferedWriter(dir.resolve(FILE))) {
                properties.store(out, "fleetfix lab");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE), e);
        }
    }

    /** Lab directories under {@code home}: those with a {@value #FILE}, oldest first. */
    static List<Path> find(Path home) {
        if (!Files.isDirectory(home)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(home)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve(FILE)))
                    .sorted(Comparator.comparing(LabProperties::modified))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + home, e);
        }
    }

    private static FileTime modified(Path dir) {
        try {
            return Files.getLastModifiedTime(dir.resolve(FILE));
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    static LabProperties read(Path dir) {
        Path file = dir.resolve(FILE);
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            properties.load(in);
        } catch (IOException e) {
            throw new LabException("not a lab directory (cannot read " + file + "): " + e.getMessage(), e);
        }
        String id = properties.getProperty("id");
        if (id == null || id.isBlank()) {
            throw new LabException(file + ": no id");
        }
        return new LabProperties(id, properties.getProperty("user", LabBuilder.USER));
    }
}
