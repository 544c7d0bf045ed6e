package dev.fleetfix.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.transport.local.LocalShell;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Quoted values go through a real /bin/sh and must come back byte for byte, never executed. */
class ShellQuoteTest {

    private static final LocalShell SH = new LocalShell(TestHosts.local("localhost", false));

    static Stream<String> hostile() {
        return Stream.of(
                "; rm -rf /",
                "$(id)",
                "`id`",
                "it's",
                "'",
                "''",
                "say \"hi\"",
                "\"",
                "a\nb",
                "line one\nline two\n",
                "",
                " ",
                "  leading and trailing  ",
                "tab\there",
                "*",
                "~",
                "$HOME",
                "${IFS}",
                "a && b || c | d > e < f",
                "#comment",
                "!history",
                "ünïcødé 東京 🚀",
                "'\"'\"'",
                "x'; touch fleetfix-pwned; echo '");
    }

    @ParameterizedTest
    @MethodSource("hostile")
    void echoPrintsTheValueBackExactly(String value) {
        ExecResult result = SH.exec(Command.of("echo " + ShellQuote.quote(value)));

        assertThat(result.exitCode()).isZero();
        assertThat(result.stderr()).isEmpty();
        assertThat(result.stdout()).isEqualTo(value + "\n");
    }

    /** printf rather than echo: dash's echo would itself interpret backslashes and a leading -n. */
    @ParameterizedTest
    @MethodSource("withBackslashesAndDashes")
    void printfPrintsTheValueBackExactly(String value) {
        ExecResult result = SH.exec(Command.of("printf '%s' " + ShellQuote.quote(value)));

        assertThat(result.stdout()).isEqualTo(value);
    }

    static Stream<String> withBackslashesAndDashes() {
        return Stream.concat(hostile(), Stream.of("\\", "a\\nb", "-n", "--help", "\\'", "C:\\temp\\x"));
    }

    @ParameterizedTest
    @MethodSource("hostile")
    void quotedValueIsOneWord(String value) {
        ExecResult result = SH.exec(Command.of("set -- " + ShellQuote.quote(value) + "; echo $#"));

        assertThat(result.stdout()).isEqualTo("1\n");
    }

    @Test
    void safeWordsStayReadable() {
        assertThat(ShellQuote.quote("/etc/redis/redis.conf")).isEqualTo("/etc/redis/redis.conf");
        assertThat(ShellQuote.quote("redis-server")).isEqualTo("redis-server");
        assertThat(ShellQuote.quote("a b")).isEqualTo("'a b'");
    }

    @AfterAll
    static void close() {
        SH.close();
    }
}
