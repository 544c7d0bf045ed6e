package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.fleetfix.InputException;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.ShellFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code tags:} on plays and steps, in Ansible's three forms, and what the parser refuses, with file:line. */
class PlaybookTagsTest {
    private static final Path FILE = Path.of("thp.yaml");
    private final PlaybookParser parser = new PlaybookParser(StepRegistry.standard(new ShellFacts()));

    private Playbook parse(String yaml) {
        return parser.parse(FILE, yaml);
    }

    private String error(String yaml) {
        return catchThrowableOfType(InputException.class, () -> parse(yaml)).getMessage();
    }

    @Test
    void aTagACommaStringOrAListAndThePlaysTagsInherited() {
        Play play = parse(
                        """
                        - hosts: all
                          tags: rollout
                          steps:
                            - audit: {}
                              tags: always
                            - thp: {}
                              tags: "thp, kernel"
                            - persist_thp: {}
                              tags: [thp, persist, thp]
                            - wait_healthy: {}
                            - command: "true"
                              tags: 42
                        """)
                .plays()
                .get(0);
        assertThat(play.tags()).containsExactly("rollout");
        assertThat(play.steps())
                .extracting(Step::tags)
                .containsExactly(
                        java.util.List.of("always"),
                        java.util.List.of("thp", "kernel"),
                        java.util.List.of("thp", "persist"),
                        java.util.List.of(),
                        java.util.List.of("42"));
        assertThat(play.tagsOf(play.steps().get(1))).containsExactly("kernel", "rollout", "thp");
        assertThat(play.tagsOf(play.steps().get(3))).containsExactly("rollout");
    }

    @Test
    void badTagsNameFileLineAndColumn() {
        String head = "- hosts: all\n  steps:\n    - thp: {}\n";
        assertThat(error(head + "      tags: {thp: yes}\n"))
                .isEqualTo("thp.yaml:4:13: tags: expected a tag, tags separated by commas, or a list of tags,"
                        + " found a mapping");
        assertThat(error(head + "      tags:\n")).startsWith("thp.yaml:4:");
        assertThat(error(head + "      tags: \"thp,,restart\"\n")).isEqualTo("thp.yaml:4:13: tags: an empty tag");
        assertThat(error(head + "      tags: [thp, [restart]]\n"))
                .isEqualTo("thp.yaml:4:19: tags: expected a tag (text), found a list");
        assertThat(error(head + "      tags: [thp, \"a,b\"]\n"))
                .isEqualTo("thp.yaml:4:19: tags: 'a,b' holds a comma; in a list, give each tag as an item");
        assertThat(error(head + "      tags: [thp, all]\n"))
                .isEqualTo("thp.yaml:4:19: tags: 'all' selects steps on the command line (--tags all, tagged,"
                        + " untagged); it cannot be a step's tag");
        assertThat(error("- hosts: all\n  tags: untagged\n  steps: []\n"))
                .startsWith("thp.yaml:2:9: tags: 'untagged' selects steps");
        assertThat(error(head + "      tags: \"{{ phase }}\"\n"))
                .startsWith("thp.yaml:4:13: tags: '{{ phase }}': tags are not templated");
    }

    @Test
    void theShippedPlaybooksAreTagged() throws Exception {
        Playbook thpOff = parser.parse(Path.of("playbooks/thp-off.yaml"));
        Play play = thpOff.plays().get(0);
        assertThat(play.steps())
                .extracting(s -> s.name() + " " + play.tagsOf(s))
                .containsExactly(
                        "audit [always]",
                        "benchmark before [benchmark]",
                        "thp [thp]",
                        "persist_thp [persist, thp]",
                        "restart_redis [restart]",
                        "wait_healthy [restart]",
                        "assert [thp]",
                        "benchmark after [benchmark]");
        try (var files = Files.list(Path.of("playbooks"))) {
            files.filter(f -> f.toString().endsWith(".yaml")).forEach(file -> {
                Playbook book = parser.parse(file);
                for (Play p : book.plays()) {
                    // the audit runs whatever the tags: later steps' when: read its facts
                    assertThat(p.steps())
                            .as(file.toString())
                            .filteredOn(s -> s.type().equals("audit"))
                            .allSatisfy(s -> assertThat(s.tags()).contains("always"));
                    assertThat(p.steps()).as(file.toString()).allSatisfy(s -> assertThat(p.tagsOf(s))
                            .isNotEmpty());
                }
            });
        }
    }
}
