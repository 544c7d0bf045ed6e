package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ansible's answers (lib/ansible/playbook/taggable.py, {@code evaluate_tags}) for a step with these tags (its own
 * and its play's) under {@code --tags} and {@code --skip-tags}.
 */
class TagSelectionTest {
    private static final Location AT = new Location(Path.of("p.yaml"), 1, 1);

    @ParameterizedTest(name = "--tags {0} --skip-tags {1}: step [{2}] runs: {3}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // the default, --tags all: every step but the never ones
                "-            | -            | -            | true",
                "-            | -            | thp          | true",
                "-            | -            | always       | true",
                "-            | -            | never        | false",
                "-            | -            | never,debug  | false",
                "all          | -            | never        | false",
                // a tag by name: its steps and the always ones
                "thp          | -            | thp          | true",
                "thp          | -            | thp,restart  | true",
                "thp          | -            | restart      | false",
                "thp          | -            | -            | false",
                "thp          | -            | always       | true",
                "thp,restart  | -            | restart      | true",
                // never runs only when one of its tags is named
                "never        | -            | never        | true",
                "debug        | -            | never,debug  | true",
                "thp          | -            | never,debug  | false",
                "never        | -            | -            | false",
                "all,never    | -            | never        | true",
                // tagged: every step with a tag but the never ones; untagged: those without
                "tagged       | -            | thp          | true",
                "tagged       | -            | -            | false",
                "tagged       | -            | never        | false",
                "tagged       | -            | never,thp    | false",
                "tagged       | -            | always       | true",
                "untagged     | -            | -            | true",
                "untagged     | -            | thp          | false",
                "untagged     | -            | always       | true",
                // skip by name, after --tags; always is skipped only by name (or by its other tag)
                "-            | benchmark    | benchmark    | false",
                "-            | benchmark    | thp          | true",
                "-            | benchmark    | -            | true",
                "-            | thp          | always,thp   | false",
                "-            | thp          | always       | true",
                "-            | always       | always       | false",
                "never        | never        | never        | false",
                // skip all: every step but the always ones, unless always is skipped too
                "-            | all          | -            | false",
                "-            | all          | thp          | false",
                "-            | all          | always       | true",
                "-            | all,always   | always       | false",
                // skip tagged / untagged
                "-            | tagged       | thp          | false",
                "-            | tagged       | always       | false",
                "-            | tagged       | -            | true",
                "-            | untagged     | -            | false",
                "-            | untagged     | thp          | true",
            })
    void selectsAsAnsibleDoes(String tags, String skip, String stepTags, boolean runs) {
        TagSelection selection = TagSelection.of(list(tags), list(skip));
        assertThat(selection.selects(list(stepTags))).isEqualTo(runs);
    }

    private static List<String> list(String csv) {
        return csv == null ? List.of() : Arrays.asList(csv.split(","));
    }

    @Test
    void optionValuesAreCommaSeparatedRepeatableAndTrimmed() {
        TagSelection selection = TagSelection.of(List.of("thp, restart", "persist"), List.of("benchmark"));
        assertThat(selection.only()).containsExactly("persist", "restart", "thp");
        assertThat(selection.skip()).containsExactly("benchmark");
        assertThat(selection.describe()).isEqualTo("persist, restart, thp; skip: benchmark");
        assertThat(selection.isDefault()).isFalse();
        assertThat(TagSelection.of(List.of(), List.of())).isEqualTo(TagSelection.all());
        assertThat(TagSelection.of(List.of("all"), List.of()).isDefault()).isTrue();
    }

    @Test
    void anEmptyTagIsRefusedNamingTheOption() {
        assertThatThrownBy(() -> TagSelection.of(List.of("thp,,restart"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--tags: an empty tag in 'thp,,restart' (tags are separated by single commas)");
        assertThatThrownBy(() -> TagSelection.of(List.of(), List.of("")))
                .hasMessageStartingWith("--skip-tags: an empty tag in ''");
    }

    @Test
    void aStepHasItsPlaysTagsAndTheSelectionKeepsThePlaysOrder() {
        Step audit = step("audit", "always");
        Step before = step("benchmark before", "benchmark");
        Step thp = step("thp", "thp");
        Step debug = step("debug", "never", "debug");
        Step plain = step("plain");
        Play play = new Play(
                "p",
                "all",
                List.of(),
                0,
                Map.of(),
                Optional.empty(),
                List.of(audit, before, thp, debug, plain),
                AT,
                List.of("rollout"));

        assertThat(play.tagsOf(before)).containsExactly("benchmark", "rollout");
        assertThat(play.tagsOf(plain)).containsExactly("rollout");
        // the play's tag, named, selects every step of it: the never one too, whose tag it is as well (Ansible)
        assertThat(TagSelection.of(List.of("rollout"), List.of()).steps(play))
                .containsExactly(audit, before, thp, debug, plain);
        assertThat(TagSelection.all().steps(play)).containsExactly(audit, before, thp, plain);
        // a play's tag makes its steps tagged: none is untagged
        assertThat(TagSelection.of(List.of("untagged"), List.of()).steps(play)).containsExactly(audit);
        assertThat(TagSelection.of(List.of("thp", "debug"), List.of()).steps(play))
                .containsExactly(audit, thp, debug);
        assertThat(TagSelection.of(List.of(), List.of("benchmark,always")).steps(play))
                .containsExactly(thp, plain);
        // skipping the play's tag leaves out every step
        assertThat(TagSelection.of(List.of(), List.of("rollout")).steps(play)).isEmpty();
    }

    private static Step step(String name, String... tags) {
        return new Step("command", name, Map.of(), Optional.empty(), AT, List.of(tags));
    }
}
