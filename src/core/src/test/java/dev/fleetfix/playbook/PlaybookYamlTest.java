package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.fleetfix.InputException;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.ShellFacts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Anchors, aliases, merge keys and documents in a playbook, read as YAML defines them. */
class PlaybookYamlTest {
    private static final Path FILE = Path.of("thp.yaml");
    private final PlaybookParser parser = new PlaybookParser(StepRegistry.standard(new ShellFacts()));

    @Test
    void anAliasedCommandRunsTheAnchoredTextNotTheAnchorsName() {
        Playbook playbook = parser.parse(
                FILE,
                """
                - hosts: all
                  vars: {probe: &c "uptime"}
                  steps:
                    - command: {cmd: *c}
                """);

        assertThat(playbook.plays().get(0).steps().get(0).args()).containsEntry("cmd", "uptime");
    }

    @Test
    void aMergeKeyIsMergedNotAVariableNamedLessLess() {
        Playbook playbook = parser.parse(
                FILE,
                """
                - hosts: all
                  vars:
                    <<: {unit: redis-server, port: 6379}
                    port: 6380
                  steps:
                    - audit: {}
                """);

        assertThat(playbook.plays().get(0).vars())
                .containsEntry("unit", "redis-server")
                .containsEntry("port", 6380)
                .doesNotContainKey("<<");
    }

    @Test
    void aSecondDocumentIsRefused() {
        InputException e = (InputException) catchThrowable(() ->
                parser.parse(FILE, "- hosts: all\n  steps: []\n---\n- hosts: all\n  steps:\n    - command: reboot\n"));

        assertThat(e).hasMessageStartingWith("thp.yaml:3:1: a second YAML document");
    }

    @Test
    void aKeyWrittenTwiceInAPlaybookIsAWarningAndTheLastValueWinsAsInAnsible() {
        Playbook playbook = parser.parse(FILE, "- hosts: all\n  hosts: redis\n  steps:\n    - audit: {}\n");

        assertThat(playbook.plays().get(0).hosts()).isEqualTo("redis");
        assertThat(playbook.warnings())
                .containsExactly("thp.yaml:2:3: duplicate key \"hosts\" (first at line 1); using the last value only");
    }

    @Test
    void aDuplicateInAnAliasedMappingIsOneWarningAndTheLastValueEverywhere() {
        Playbook playbook = parser.parse(
                FILE,
                """
                - hosts: all
                  vars:
                    base: &b {unit: redis-a, unit: redis-b}
                    copy: *b
                    <<: *b
                  steps:
                    - audit: {}
                """);

        assertThat(playbook.plays().get(0).vars())
                .containsEntry("unit", "redis-b")
                .containsEntry("base", java.util.Map.of("unit", "redis-b"))
                .containsEntry("copy", java.util.Map.of("unit", "redis-b"));
        assertThat(playbook.warnings())
                .containsExactly("thp.yaml:3:30: duplicate key \"unit\" (first at line 3); using the last value only");
    }

    @Test
    void anInlineVaultValueIsRefusedNotTakenAsItsCiphertext() {
        Throwable thrown = catchThrowable(
                () -> parser.parse(
                        FILE,
                        """
                - hosts: all
                  vars:
                    token: !vault |
                      $ANSIBLE_VAULT;1.1;AES256
                      6162
                  steps:
                    - audit: {}
                """));

        assertThat(thrown)
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("thp.yaml:3:12:")
                .hasMessageContaining("inline !vault value in a playbook is not decrypted; put it in group_vars/");
    }
}
