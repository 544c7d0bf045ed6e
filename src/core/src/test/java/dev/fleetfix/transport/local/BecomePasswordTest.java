package dev.fleetfix.transport.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.Secret;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.Become;
import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.TransportException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The become password's path, with stand-ins for sudo and su that behave as Debian's do on a pipe: they print their
 * prompt on stderr, read one line from stdin, then run the command with the rest of stdin. Each records its
 * arguments, its environment and every line it read as a password, so that the tests see what reached them.
 */
class BecomePasswordTest {
    private static final String PASSWORD = "S3cret-become-pw;$(touch /tmp/x)";

    @TempDir
    Path dir;

    /** sudo -S -p PROMPT CMD...: asks up to three times, as sudo does, unless {@code nopasswd}. */
    private Path fakeSudo(boolean nopasswd) throws IOException {
        return fakeSudo(nopasswd, false);
    }

    /** With {@code pam}, a lecture first, and PAM's own prompt instead of the one given with -p. */
    private Path fakeSudo(boolean nopasswd, boolean pam) throws IOException {
        return script(
                "sudo",
                """
                #!/bin/sh
                printf '%s\\n' "$@" > DIR/argv; env > DIR/env
                if [ "$1" = -n ]; then shift; exec "$@"; fi
                [ "$1" = -S ] && [ "$2" = -p ] || { echo "fake sudo: bad options $*" >&2; exit 9; }
                prompt=$3; shift 3
                PAM
                NOPASSWD
                tries=0
                while [ "$tries" -lt 3 ]; do
                  printf '%s' "$prompt" >&2
                  IFS= read -r pw || { echo "sudo: no password was provided" >&2; echo "sudo: $tries incorrect password attempt" >&2; exit 1; }
                  printf '%s\\n' "$pw" >> DIR/answers
                  [ "$pw" = 'PASSWORD' ] && exec "$@"
                  echo "Sorry, try again." >&2
                  tries=$((tries + 1))
                done
                exit 1
                """
                        .replace("NOPASSWD", nopasswd ? "exec \"$@\"" : "")
                        .replace(
                                "PAM",
                                pam
                                        ? "printf 'We trust you have received the usual lecture.\\n\\n' >&2; prompt='Verification code: '"
                                        : ""));
    }

    /** su root -c CMD: asks once, as Linux-PAM's su does on a pipe. */
    private Path fakeSu() throws IOException {
        return script(
                "su",
                """
                #!/bin/sh
                printf '%s\\n' "$@" > DIR/argv; env > DIR/env
                [ "$1" = root ] && [ "$2" = -c ] || exit 9
                printf 'Password: ' >&2
                IFS= read -r pw || exit 1
                printf '%s\\n' "$pw" >> DIR/answers
                [ "$pw" = 'PASSWORD' ] || { echo "su: Authentication failure" >&2; exit 1; }
                exec sh -c "$3"
                """);
    }

    private Path script(String name, String text) throws IOException {
        Path file = dir.resolve("fake-" + name);
        Files.writeString(file, text.replace("DIR", dir.toString()).replace("PASSWORD", PASSWORD.replace("'", "")));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    private LocalShell shell(BecomeMethod method, Optional<String> password, Path fake) {
        Host host = TestHosts.local("localhost", true).toBuilder()
                .becomeMethod(method)
                .becomePassword(password.map(Secret::of))
                .build();
        return new LocalShell(host, false, Become.of(host, fake.toString(), fake.toString()));
    }

    private String recorded(String name) throws IOException {
        Path file = dir.resolve(name);
        return Files.exists(file) ? Files.readString(file) : "";
    }

    @Test
    void sudoGetsThePasswordOnItsInputOnlyAndTheCommandItsOwnInputAfterIt() throws IOException {
        LocalShell shell = shell(BecomeMethod.SUDO, Optional.of(PASSWORD), fakeSudo(false));
        Path target = dir.resolve("written");
        byte[] content = "first line\nsecond line without newline".getBytes(StandardCharsets.UTF_8);

        ExecResult ran = shell.exec(Command.of("echo ran; echo own-error >&2").asRoot());
        shell.put(target.toString(), content, 0640, true);

        assertThat(ran.ok()).isTrue();
        assertThat(ran.stdout()).isEqualTo("ran\n");
        // sudo's prompt and the marker are the conversation's, not the command's
        assertThat(ran.stderr()).isEqualTo("own-error\n");
        assertThat(Files.readAllBytes(target)).isEqualTo(content);
        assertThat(recorded("answers")).isEqualTo(PASSWORD + "\n" + PASSWORD + "\n");
        assertThat(recorded("argv")).contains("-S").doesNotContain(PASSWORD);
        assertThat(recorded("env")).doesNotContain(PASSWORD);
        assertThat(shell.argv("id -u", true, Command.DEFAULT_TIMEOUT)).noneMatch(word -> word.contains(PASSWORD));
    }

    @Test
    void aPamPromptSudoShowsInsteadOfOursIsAnsweredAndItsLectureIsNotTheCommands() throws IOException {
        LocalShell shell = shell(BecomeMethod.SUDO, Optional.of(PASSWORD), fakeSudo(false, true));
        Path target = dir.resolve("written");

        ExecResult ran = shell.exec(Command.of("echo ran; echo own-error >&2").asRoot());
        shell.put(target.toString(), "content".getBytes(StandardCharsets.UTF_8), 0600, true);

        assertThat(ran.stdout()).isEqualTo("ran\n");
        assertThat(ran.stderr()).isEqualTo("own-error\n");
        assertThat(Files.readString(target)).isEqualTo("content");
        assertThat(recorded("answers")).isEqualTo(PASSWORD + "\n" + PASSWORD + "\n");
    }

    @Test
    void aSudoThatDoesNotAskIsNeverSentThePasswordAndTheCommandsInputStaysWhole() throws IOException {
        LocalShell shell = shell(BecomeMethod.SUDO, Optional.of(PASSWORD), fakeSudo(true));
        Path target = dir.resolve("written");

        shell.put(target.toString(), "only this".getBytes(StandardCharsets.UTF_8), 0600, true);

        assertThat(Files.readString(target)).isEqualTo("only this");
        assertThat(recorded("answers")).isEmpty();
    }

    @Test
    void aRefusedSudoPasswordIsSentOnceAndFailsTheHostInOneLineWithoutRunningTheCommand() throws IOException {
        LocalShell shell = shell(BecomeMethod.SUDO, Optional.of("not-the-password"), fakeSudo(false));
        Path ran = dir.resolve("ran");

        assertThatThrownBy(() -> shell.exec(Command.of("touch " + ran).asRoot()))
                .isInstanceOfSatisfying(TransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(TransportException.Kind.BECOME);
                    assertThat(e.sent()).isFalse();
                    assertThat(e.getMessage()).isEqualTo("host localhost (local): become password refused by sudo");
                });
        assertThat(ran).doesNotExist();
        // asked again, it got no second try: its input was closed
        assertThat(recorded("answers")).isEqualTo("not-the-password\n");
    }

    @Test
    void withoutAPasswordSudoRunsNonInteractiveAsBefore() throws IOException {
        LocalShell shell = shell(BecomeMethod.SUDO, Optional.empty(), fakeSudo(false));

        ExecResult result = shell.exec(Command.of("echo ran").asRoot());

        assertThat(result.stdout()).isEqualTo("ran\n");
        assertThat(recorded("argv")).startsWith("-n\ntimeout\n");
        assertThat(recorded("answers")).isEmpty();
    }

    @Test
    void suGetsThePasswordOnItsInputAndRunsTheCommandThroughRootsShell() throws IOException {
        LocalShell shell = shell(BecomeMethod.SU, Optional.of(PASSWORD), fakeSu());
        Path target = dir.resolve("written");

        ExecResult ran = shell.exec(Command.of("echo 'ran as' \"root\"").asRoot());
        shell.put(target.toString(), "su's content\n".getBytes(StandardCharsets.UTF_8), 0644, true);

        assertThat(ran.stdout()).isEqualTo("ran as root\n");
        assertThat(ran.stderr()).isEmpty();
        assertThat(Files.readString(target)).isEqualTo("su's content\n");
        assertThat(recorded("answers")).isEqualTo(PASSWORD + "\n" + PASSWORD + "\n");
        assertThat(recorded("argv")).startsWith("root\n-c\n").doesNotContain(PASSWORD);
        assertThat(recorded("env")).doesNotContain(PASSWORD);
    }

    @Test
    void aRefusedSuPasswordFailsTheHostInOneLine() throws IOException {
        LocalShell shell = shell(BecomeMethod.SU, Optional.of("wrong-su-pw-4a0d"), fakeSu());

        assertThatThrownBy(() -> shell.exec(Command.of("true").asRoot()))
                .isInstanceOfSatisfying(TransportException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("host localhost (local): become password refused by su"));
    }

    @Test
    void commandsThatDoNotAskForRootNeverMeetSudo() throws IOException {
        LocalShell shell = shell(BecomeMethod.SUDO, Optional.of(PASSWORD), fakeSudo(false));

        ExecResult result = shell.exec(Command.of("echo plain"));

        assertThat(result.stdout()).isEqualTo("plain\n");
        assertThat(recorded("argv")).isEmpty();
        assertThat(shell.argv("echo plain", false, Command.DEFAULT_TIMEOUT))
                .isEqualTo(List.of("sh", "-c", "echo plain"));
    }
}
