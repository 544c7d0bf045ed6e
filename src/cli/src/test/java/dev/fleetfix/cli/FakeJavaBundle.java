package dev.fleetfix.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The release bundle's layout around the installed launcher ({@code src/cli/src/dist/bin/fleetfix}), with a fake Java
 * for the launcher's tests: {@code bin/fleetfix}, an empty {@code lib/fleetfix.jar}, and {@code java/} (a Java 17
 * {@code release} file and a {@code bin/java} shell script of the test's own).
 */
final class FakeJavaBundle {
    private FakeJavaBundle() {}

    /** The bundle's directory, {@code DIR/fleetfix}; point {@code JAVA_HOME} at its {@code java/}. */
    static Path create(Path dir, String javaScriptBody) throws IOException {
        Path bundle = dir.resolve("fleetfix");
        Path launcher = Files.createDirectories(bundle.resolve("bin")).resolve("fleetfix");
        Files.copy(Path.of("src/cli/src/dist/bin/fleetfix"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        Files.writeString(Files.createDirectories(bundle.resolve("lib")).resolve("fleetfix.jar"), "");
        Path java = bundle.resolve("java");
        Files.writeString(Files.createDirectories(java).resolve("release"), "JAVA_VERSION=\"17.0.9\"\n");
        Path bin = Files.createDirectories(java.resolve("bin")).resolve("java");
        Files.writeString(bin, "#!/bin/sh\n" + javaScriptBody);
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwx------"));
        return bundle;
    }
}
