package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.playbook.ShellLexer.Place;
import org.junit.jupiter.api.Test;

/** The place the lexer is in after a piece of shell text, without any template. */
class ShellLexerTest {

    private static ShellLexer lexed(String text) {
        ShellLexer lexer = new ShellLexer(text);
        int i = 0;
        while (i < text.length()) {
            i = lexer.step(i);
        }
        assertThat(lexer.output()).isEqualTo(text);
        return lexer;
    }

    @Test
    void quotesAndSubstitutionsOpenAndClose() {
        assertThat(lexed("echo a").place()).isEqualTo(Place.TOP);
        assertThat(lexed("echo 'a \"b").place()).isEqualTo(Place.SQ);
        assertThat(lexed("echo 'a' \"b $(x").place()).isEqualTo(Place.SUBST);
        assertThat(lexed("echo \"$(printf '%s' \"a)\")").place()).isEqualTo(Place.DQ);
        assertThat(lexed("echo \"$(f (x)").place()).isEqualTo(Place.SUBST);
        assertThat(lexed("echo \"$(f (x))\"").place()).isEqualTo(Place.TOP);
        assertThat(lexed("echo \\' ").place()).isEqualTo(Place.TOP);
        assertThat(lexed("echo $'a\\'").place()).isEqualTo(Place.ANSIC);
        assertThat(lexed("echo \"$'").place()).isEqualTo(Place.DQ);
    }

    @Test
    void placesWhereNoQuotingHelpsAreKnown() {
        assertThat(lexed("echo $((1 + (2").place()).isEqualTo(Place.ARITH);
        assertThat(lexed("echo $((1 + (2)))").place()).isEqualTo(Place.TOP);
        assertThat(lexed("[[ -n x").place()).isEqualTo(Place.DBRACKET);
        assertThat(lexed("a=[[").place()).isEqualTo(Place.TOP);
        assertThat(lexed("echo ${x").place()).isEqualTo(Place.PARAM);
        assertThat(lexed("echo a # b").place()).isEqualTo(Place.COMMENT);
        assertThat(lexed("echo a#b").place()).isEqualTo(Place.TOP);
        assertThat(lexed("echo a # b\necho").place()).isEqualTo(Place.TOP);
    }

    @Test
    void backticksAreCountedAndTheirBackslashesNotFollowed() {
        ShellLexer inner = lexed("echo \"`printf x");
        assertThat(inner.place()).isEqualTo(Place.BACKTICK);
        assertThat(inner.backticks()).isEqualTo(1);
        assertThat(inner.uncertain()).isNull();
        assertThat(lexed("echo `a\\`").uncertain()).isEqualTo("a backslash inside backticks");
        assertThat(lexed("echo `a` b").backticks()).isZero();
    }

    @Test
    void hereDocumentsOpenAfterTheirLineAndCloseOnTheirDelimiter() {
        assertThat(lexed("cat <<EOF").place()).isEqualTo(Place.TOP);
        ShellLexer quoted = lexed("cat <<'EOF'\nbody $(x)");
        assertThat(quoted.place()).isEqualTo(Place.HEREDOC);
        assertThat(quoted.quotedHeredoc()).isTrue();
        assertThat(quoted.uncertain()).isNull();
        ShellLexer bare = lexed("cat <<EOF\nbody $(x)");
        assertThat(bare.quotedHeredoc()).isFalse();
        assertThat(bare.uncertain()).isEqualTo("a substitution in a here-document");
        assertThat(lexed("cat <<-EOF\n\tbody\n\tEOF\n").place()).isEqualTo(Place.TOP);
        assertThat(lexed("cat <<EOF\nEOFX\n").place()).isEqualTo(Place.HEREDOC);
        assertThat(lexed("cat <<A <<B\na\nA\nb").place()).isEqualTo(Place.HEREDOC);
        assertThat(lexed("cat <<A <<B\na\nA\nb\nB\necho").place()).isEqualTo(Place.TOP);
    }

    @Test
    void caseInsideASubstitutionIsNotFollowed() {
        assertThat(lexed("x=$(case a in a) echo;; esac)").uncertain()).isEqualTo("'case' inside $( )");
        assertThat(lexed("case a in a) echo;; esac").uncertain()).isNull();
    }

    @Test
    void aTemplateAsAHereDocumentDelimiterIsRefused() {
        assertThatThrownBy(() -> lexed("cat <<{{ x }}\n"))
                .isInstanceOf(ShellSplice.Refused.class)
                .hasMessageContaining("here-document's delimiter");
    }
}
