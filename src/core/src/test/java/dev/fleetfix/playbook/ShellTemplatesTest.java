package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Template values spliced into shell text stay one inert string in every quoting context. Each
 * rendered command is run for real by {@code sh} and {@code bash} on this machine: the command must
 * print the value exactly, and the file the value tries to create must not appear.
 */
class ShellTemplatesTest {
    private static final Location AT = new Location(Path.of("p.yaml"), 9, 7);

    @TempDir
    Path dir;

    /** The contexts fleetfix quotes, each printing the spliced value once. */
    private static final List<String> CONTEXTS = List.of(
            "printf '%s' {{ evil }}",
            "printf '%s' '{{ evil }}'",
            "printf '%s' \"{{ evil }}\"",
            "printf '%s' x'{{ evil }}'y\"{{ evil }}\"z{{ evil }}",
            "printf '%s' \"$(printf '%s' {{ evil }})\"",
            "printf '%s' \"$(printf '%s' '{{ evil }}')\"",
            "printf '%s' \"$(printf '%s' \"{{ evil }}\")\"",
            "printf '%s' \"`printf '%s' {{ evil }}`\"",
            "printf '%s' \"`printf '%s' '{{ evil }}'`\"",
            "cat <<EOF\n{{ evil }}\nEOF",
            "cat <<'EOF'\n{{ evil }}\nEOF",
            "cat <<-\"EOF\"\n\t{{ evil }}\n\tEOF",
            "cat <<A; cat <<'B'\n{{ evil }}\nA\n{{ evil }}\nB");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "$(touch PWNED)",
                "`touch PWNED`",
                "'; touch PWNED; '",
                "\"; touch PWNED; \"",
                "\\\"$(touch PWNED)\\\"",
                "'\"`$(touch PWNED)`\"'",
                "a\\",
                "$HOME ${HOME} \\$ \\\\ ! * ?"
            })
    void aValueStaysOneInertStringInEveryContext(String template) throws Exception {
        String evil = template.replace("PWNED", dir.resolve("pwned").toString());
        for (String shell : shells()) {
            for (String context : CONTEXTS) {
                String command = render(context, evil);
                String expected = expected(context, evil);

                String out = run(shell, command);

                assertThat(out).as("%s -c %s", shell, command).isEqualTo(expected);
                assertThat(dir.resolve("pwned")).as("%s -c %s", shell, command).doesNotExist();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "echo $(( {{ evil }} + 1 ))",
                "(( {{ evil }} > 1 )) && echo big",
                "[[ {{ evil }} -eq 1 ]]",
                "echo ${UNSET:-{{ evil }}}",
                "echo $'{{ evil }}'",
                "echo hi # {{ evil }}",
                "echo \\{{ evil }}",
                "echo \"\\{{ evil }}\"",
                "echo $(case a in a) echo {{ evil }};; esac)",
                "echo `echo \\`echo {{ evil }}\\``",
                "printf '%s' \"`printf '%s' \\\"{{ evil }}\\\"`\"",
                "cat <<EOF\n$(echo {{ evil }})\nEOF",
                "echo '{{ evil }}"
            })
    void aTemplateWhereNoQuotingIsSafeIsRefusedNamingThePlace(String context) {
        assertThatThrownBy(() -> render(context, "$(touch x)"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("p.yaml:9:7: command.cmd: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cat <<EOF\n{{ evil }}\nEOF", "cat <<'EOF'\n{{ evil }}\nEOF"})
    void aHereDocumentRefusesALineBreakThatCouldEndIt(String context) {
        assertThatThrownBy(() -> render(context, "x\nEOF\ntouch /tmp/x"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("here-document")
                .hasMessageContaining("line break");
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis-cli -a {{ redis_password }} ping", "echo 'pw={{ redis_password }}'"})
    void aSecretInACommandIsRefusedWithTheReason(String context) {
        Map<String, Object> vars = Map.of("redis_password", Secret.of("hunter2"));

        assertThatThrownBy(() -> Templates.render(context, vars, AT, "command.cmd", true))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("'{{ redis_password }}' is a secret")
                .hasMessageNotContaining("hunter2");
    }

    private static String render(String context, String evil) {
        return (String) Templates.render(context, Map.of("evil", evil), AT, "command.cmd", true);
    }

    /** What the context prints when the value stays a string. */
    private static String expected(String context, String evil) {
        if (context.startsWith("cat <<A")) {
            return evil + "\n" + evil + "\n";
        }
        if (context.startsWith("cat")) {
            return evil + "\n";
        }
        if (context.contains("x'")) {
            return "x" + evil + "y" + evil + "z" + evil;
        }
        return evil;
    }

    private static List<String> shells() {
        List<String> shells = new ArrayList<>(List.of("sh"));
        if (Files.isExecutable(Path.of("/bin/bash"))) {
            shells.add("bash");
        }
        return shells;
    }

    private String run(String shell, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(shell, "-c", command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }
}
