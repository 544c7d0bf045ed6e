package dev.fleetfix.steps.restart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.Container;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * container-state.sh run under sh, as a login user that is not root, with fake {@code id}, {@code sudo} and runtimes
 * that log how they were called.
 */
class ContainerStateScriptTest {
    private static final String ID = "2b609bb5b36f659ca377dd11d4b60683004a435406d819a4b30f912b40a0ca29";

    @TempDir
    Path dir;

    /**
     * As another user than root, {@code podman} is rootless Podman: asking it would make its storage in the login user's
     * home (and may start a pause process) on every Podman host, and it does not know root's containers anyway.
     */
    @Test
    void podmanIsAskedAsRootOnlyNeverAsTheLoginUser() throws Exception {
        String out = state("podman");

        assertThat(out).isEqualTo("active\n");
        assertThat(calls()).containsExactly("root: podman inspect --type container --format {{.State.Status}} redis");
    }

    @Test
    void dockerIsAskedAsTheLoginUserFirst() throws Exception {
        String out = state("docker");

        assertThat(out).isEqualTo("active\n");
        assertThat(calls()).containsExactly("user: docker inspect --type container --format {{.State.Status}} redis");
    }

    private String state(String runtime) throws IOException, InterruptedException {
        String log = dir.resolve("calls.log").toString();
        fake("id", "echo 1000\n");
        fake("sudo", "shift\nAS_ROOT=1 exec \"$@\"\n");
        fake(
                runtime,
                "who=user; [ -n \"${AS_ROOT:-}\" ] && who=root\necho \"$who: " + runtime + " $*\" >> " + log
                        + "\necho running\n");
        Container c = new Container(
                runtime,
                ID,
                Optional.of("redis"),
                Optional.of("always"),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                Optional.empty());
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", ContainerRoute.of(c).state())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PATH", dir + ":" + System.getenv("PATH"));
        pb.environment().remove("AS_ROOT");
        Process sh = pb.start();
        String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private List<String> calls() throws IOException {
        Path log = dir.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private void fake(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }
}
