package dev.fleetfix.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A real Linux x86-64 Redis build that Debian does not package, as it ships inside a Maven Central jar.
 * {@code src/lab/src/lab/prepare.sh} fetches the jars with Maven into the local repository; the lab reads them from there.
 */
public enum LabRedisBuild {
    REDIS_2_8_19("it.ozimov", "embedded-redis", "0.7.3", "redis-server-2.8.19"),
    /** Redis 6.0.5, statically linked (malloc=libc): the last era without FAILOVER, with CLIENT PAUSE and REPLICAOF. */
    REDIS_6_0_5("org.signal", "embedded-redis", "0.8.1", "redis-server-6.0.5"),
    /** Named 6.2.6 in the jar; the binary reports 6.2.11. */
    REDIS_6_2("com.github.codemonstur", "embedded-redis", "1.4.3", "redis-server-6.2.6-v5-linux-amd64");

    /** Overrides the local Maven repository (default {@code ~/.m2/repository}). */
    static final String REPOSITORY_ENV = "FLEETFIX_LAB_MAVEN_REPO";

    private final String groupId;
    private final String artifactId;
    private final String version;
    private final String entry;

    LabRedisBuild(String groupId, String artifactId, String version, String entry) {
        this.groupId = groupId;
        this.artifactId = artifactId;
        this.version = version;
        this.entry = entry;
    }

    /** {@code it.ozimov:embedded-redis:0.7.3}. */
    String coordinates() {
        return groupId + ":" + artifactId + ":" + version;
    }

    /** The jar in a Maven repository laid out as Maven lays it out. */
    Path jar(Path repository) {
        return repository
                .resolve(groupId.replace('.', '/'))
                .resolve(artifactId)
                .resolve(version)
                .resolve(artifactId + "-" + version + ".jar");
    }

    /** Writes the build's redis-server binary to {@code target}, executable. */
    public void extract(Path target) {
        Path jar = jar(repository());
        if (!Files.isRegularFile(jar)) {
            throw new LabException("the Redis build " + entry + " comes from " + coordinates() + ", which is not in "
                    + jar.getParent()
                    + "; fetch it with 'bash src/lab/src/lab/prepare.sh' or 'mvn dependency:get -Dartifact="
                    + coordinates() + " -Dtransitive=false'");
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry binary = zip.getEntry(entry);
            if (binary == null) {
                throw new LabException(jar + " has no entry " + entry);
            }
            Files.createDirectories(target.getParent());
            try (InputStream in = zip.getInputStream(binary)) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + entry + " from " + jar + " to " + target, e);
        }
    }

    static Path repository() {
        String env = System.getenv(REPOSITORY_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        String local = System.getProperty("maven.repo.local");
        if (local != null && !local.isBlank()) {
            return Path.of(local);
        }
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }
}
