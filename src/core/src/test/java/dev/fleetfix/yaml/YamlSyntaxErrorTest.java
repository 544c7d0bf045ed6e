package dev.fleetfix.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fleetfix.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Eleven broken playbooks, each a mistake people make (resources/yaml-errors): the error names the place, says what
 * is wrong in plain words, quotes the line with a caret under the column, and gives the hint for that mistake.
 */
class YamlSyntaxErrorTest {
    private static final Path DIR = Path.of("src/core/src/test/resources/yaml-errors");

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of("01-tab.yaml", "4:1", "a tab in the indentation of line 4", "spaces only"),
                Arguments.of(
                        "02-indent-less.yaml",
                        "5:4",
                        "line 5 is indented 3 spaces, which matches no level of the lines above it",
                        "the lines above start at column 5, column 3 or column 1"),
                Arguments.of(
                        "03-indent-more.yaml",
                        "5:7",
                        "line 5 is indented 6 spaces, which matches no level of the lines above it",
                        "start in the same column"),
                Arguments.of(
                        "04-missing-dash.yaml",
                        "5:5",
                        "a key at the indentation of a list's items",
                        "is one missing on line 5?"),
                Arguments.of(
                        "05-colon-plain.yaml",
                        "1:12",
                        "a ': ' inside a plain value",
                        "quote the value: - name: \"thp: off\""),
                Arguments.of("06-unclosed-quote.yaml", "1:9", "a quote opened here is never closed", "close the quote"),
                Arguments.of(
                        "07-key-indent.yaml",
                        "3:9",
                        "line 3 is indented 3 spaces, deeper than the key above it",
                        "start in the same column"),
                Arguments.of(
                        "08-unclosed-bracket.yaml",
                        "3:8",
                        "a '[' opened at line 2 column 10 is not closed",
                        "'{{ ... }}') must be quoted"),
                Arguments.of(
                        "09-undefined-alias.yaml", "5:9", "the alias *missing names no anchor", "define '&missing'"),
                Arguments.of("10-missing-colon.yaml", "4:12", "line 3 has no ':' after its key", "write 'key: value'"),
                Arguments.of(
                        "11-top-key.yaml",
                        "3:1",
                        "a key at the indentation of a list's items",
                        "is one missing on line 3?"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void namesThePlaceQuotesTheLineAndHints(String name, String place, String summary, String hint) throws IOException {
        Path file = DIR.resolve(name);
        String text = Files.readString(file);

        InputException e = catchThrowableOfType(InputException.class, () -> LocatedYaml.parse(file, text, w -> {}));

        assertThat(e.getMessage()).isEqualTo(file + ":" + place + ": YAML syntax error: " + summary);
        int line = Integer.parseInt(place.split(":")[0]);
        int column = Integer.parseInt(place.split(":")[1]);
        String offending = text.lines().skip(line - 1).findFirst().orElse("").replace("\t", "→");
        String gutter = " ".repeat(String.valueOf(line).length());
        assertThat(e.detail())
                .as("the offending line quoted, then the caret under its column")
                .containsSubsequence(line + " | " + offending, gutter + " | " + " ".repeat(column - 1) + "^");
        assertThat(e.detail())
                .anySatisfy(l -> assertThat(l).startsWith("hint: ").contains(hint));
        assertThat(e.detail().get(e.detail().size() - 1)).startsWith("(the YAML parser: ");
    }

    @org.junit.jupiter.api.Test
    void aLineWhoseKeyNamesASecretIsQuotedWithoutItsValue() {
        Path file = Path.of("inventory.yaml");
        String text = "all:\n  vars:\n    redis_password: s3cr3t-Hunter2\n   ansible_become_pass: \"other s3cr3t\n";

        InputException e = catchThrowableOfType(InputException.class, () -> LocatedYaml.parse(file, text, w -> {}));

        assertThat(String.join("\n", e.detail()) + e.getMessage())
                .doesNotContain("s3cr3t")
                .contains("redis_password: ******");
    }
}
