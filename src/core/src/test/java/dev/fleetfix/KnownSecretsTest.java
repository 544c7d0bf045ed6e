package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import org.junit.jupiter.api.Test;

/** The scrubber every output applies: each secret, in the forms peers and our own encoders give it, whole or cut. */
class KnownSecretsTest {
    private static final String MASK = KnownSecrets.MASK;

    @Test
    void aSecretIsKnownOnceMadeAndScrubbedFromAnyText() {
        Secret.of("made-a9f1c3");

        assertThat(KnownSecrets.scrub("ERR unknown command 'AUTH', with args beginning with: 'made-a9f1c3' "))
                .isEqualTo("ERR unknown command 'AUTH', with args beginning with: '" + MASK + "' ");
    }

    @Test
    void itsQuotedAndEscapedFormsAreScrubbed() {
        String secret = "q'u\"o\\te<&>-5d2e";
        KnownSecrets.register(secret);

        for (String form : new String[] {
            "q'u\"o\\te<&>-5d2e", // as it is
            "q'u\\\"o\\\\te<&>-5d2e", // Redis's "..." representation, a JSON string
            "q\\'u\\\"o\\\\te<&>-5d2e", // backslash before every quote
            "q'\\''u\"o\\te<&>-5d2e", // inside a shell's single quotes
            "q&#39;u&quot;o\\te&lt;&amp;&gt;-5d2e", // HTML
            "q'u&quot;o\\te&lt;&amp;&gt;-5d2e", // an XML attribute
            "q'u\"o\\te&lt;&amp;&gt;-5d2e", // XML text
        }) {
            assertThat(KnownSecrets.scrub("said [" + form + "]"))
                    .as(form)
                    .doesNotContain("5d2e")
                    .doesNotContain("o\\te")
                    .contains(MASK);
        }
    }

    @Test
    void controlCharactersAsTheConsoleShowsThemAreScrubbed() {
        KnownSecrets.register("bell\u0007pw-e81b");

        assertThat(KnownSecrets.scrub("echo bell\\x07pw-e81b")).isEqualTo("echo " + MASK);
        assertThat(KnownSecrets.scrub("repr \"bell\\apw-e81b\"")).isEqualTo("repr \"" + MASK + "\"");
    }

    @Test
    void aSecretCutShortIsScrubbedWhereverTheCutFalls() {
        String secret = "cut-short-password-0f4b2c9e";
        KnownSecrets.register(secret);

        for (int cut = KnownSecrets.MIN_PART; cut < secret.length(); cut++) {
            String begins = secret.substring(0, cut);
            assertThat(KnownSecrets.scrub("args beginning with: '" + begins + "' "))
                    .as(begins)
                    .isEqualTo("args beginning with: '" + MASK + "' ");
            assertThat(KnownSecrets.scrub("the end: " + begins)).as(begins).isEqualTo("the end: " + MASK);
            String ends = secret.substring(secret.length() - cut);
            assertThat(KnownSecrets.scrub("tail '" + ends + "'")).as(ends).isEqualTo("tail '" + MASK + "'");
        }
    }

    @Test
    void aSecretWithAQuoteEarlyIsScrubbedWholeWhenCutLate() {
        // found by probing: "Probe" ended at the quote as a piece of another form, and the rest was left
        String secret = "Probe'pw\"with\\quotes<&>-" + "z".repeat(140) + "-tail77";
        KnownSecrets.register(secret);
        // a shorter secret inside its echo must not hide the rest either
        KnownSecrets.register("pw");
        String echoed = secret.substring(0, 120);

        for (String said : new String[] {
            "with args beginning with: '" + echoed + "' ",
            "with args beginning with: \"" + echoed.replace("\\", "\\\\").replace("\"", "\\\"") + "\"",
            "with args beginning with: &#39;"
                    + echoed.replace("&", "&amp;")
                            .replace("'", "&#39;")
                            .replace("\"", "&quot;")
                            .replace("<", "&lt;")
                            .replace(">", "&gt;")
                    + "&#39; "
        }) {
            assertThat(KnownSecrets.scrub(said)).as(said).doesNotContain("zzzz").doesNotContain("pw");
        }
    }

    @Test
    void aHostNameThatBeginsItsPasswordStays() {
        // AuditIT: the password audit-2.pw masked the host audit-2 in the OpenMetrics labels
        KnownSecrets.register("audit-2.pw");

        assertThat(KnownSecrets.scrub("fleetfix_thp_enabled{host=\"audit-2\",mode=\"always\"} 1"))
                .isEqualTo("fleetfix_thp_enabled{host=\"audit-2\",mode=\"always\"} 1");
        assertThat(KnownSecrets.scrub("auth 'audit-2.pw'")).isEqualTo("auth '" + MASK + "'");
    }

    @Test
    void ordinaryWordsThatBeginASecretStay() {
        KnownSecrets.register("how-long-4c8e-redis-secret");
        KnownSecrets.register("redis is here 77d1");

        assertThat(KnownSecrets.scrub("How long the audit took; redis is down: host redis-1"))
                .isEqualTo("How long the audit took; redis is down: host redis-1");
    }

    @Test
    void blankValuesAreNoSecrets() {
        KnownSecrets.register("");
        KnownSecrets.register("   ");

        assertThat(KnownSecrets.scrub("a b  c")).isEqualTo("a b  c");
    }

    @Test
    void theWriterScrubsASecretWrittenInPieces() {
        KnownSecrets.register("pieces-7a3e91");
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(KnownSecrets.scrubbing(text), true);

        out.print("error: 'piec");
        out.print("es-7a3e");
        out.println("91' ");

        assertThat(text.toString()).isEqualTo("error: '" + MASK + "' " + System.lineSeparator());
    }

    @Test
    void theStreamScrubsWhatALibraryLogs() {
        KnownSecrets.register("logged-2b9c7d");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = KnownSecrets.scrubbing(new PrintStream(bytes, true, Charset.defaultCharset()));

        err.println("DEBUG reply: logged-2b9c7d");

        assertThat(bytes.toString(Charset.defaultCharset())).isEqualTo("DEBUG reply: " + MASK + System.lineSeparator());
    }
}
