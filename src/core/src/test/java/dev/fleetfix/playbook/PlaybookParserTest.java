package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.ShellFacts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlaybookParserTest {
    private static final Path FILE = Path.of("thp.yaml");
    private final PlaybookParser parser = new PlaybookParser(StepRegistry.standard(new ShellFacts()));

    private Playbook parse(String yaml) {
        return parser.parse(FILE, yaml);
    }

    private InputException error(String yaml) {
        return (InputException) org.assertj.core.api.Assertions.catchThrowable(() -> parse(yaml));
    }

    @Test
    void readsThePlaybookOfTheIssue() {
        Playbook pb = parse(
                """
                - name: THP off, persisted, rolling restart
                  hosts: redis
                  serial: [1, "50%"]
                  max_fail_percentage: 0
                  window: "Sat 01:00-05:00 Europe/Berlin"
                  vars: {unit: redis-server}
                  steps:
                    - audit: {}
                    - thp: {enabled: never, defrag: never}
                    - persist_thp: {method: auto}
                    - restart_redis: {unit: "{{ redis_service }}"}
                    - name: gates
                      wait_healthy: {timeout: 60s, gates: [ping, role_unchanged, {ping_latency_below: 50ms}]}
                """);
        Play play = pb.plays().get(0);
        assertThat(play.name()).isEqualTo("THP off, persisted, rolling restart");
        assertThat(play.hosts()).isEqualTo("redis");
        assertThat(play.serial()).containsExactly(new BatchSize.Count(1), new BatchSize.Percent(50));
        assertThat(play.window()).hasValue("Sat 01:00-05:00 Europe/Berlin");
        assertThat(play.vars()).containsEntry("unit", "redis-server");
        assertThat(play.steps())
                .extracting(Step::type)
                .containsExactly("audit", "thp", "persist_thp", "restart_redis", "wait_healthy");
        Step gates = play.steps().get(4);
        assertThat(gates.name()).isEqualTo("gates");
        assertThat(gates.args().get("gates"))
                .isEqualTo(List.of("ping", "role_unchanged", Map.of("ping_latency_below", "50ms")));
        assertThat(gates.location().line()).isEqualTo(12);
    }

    @Test
    void unknownPlayKeyNamesFileLineColumn() {
        InputException e = error("- hosts: all\n  steps: []\n  tasks: []\n");
        assertThat(e.getMessage()).isEqualTo("thp.yaml:3:3: unknown play key 'tasks' (did you mean 'steps'?)");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.column()).isEqualTo(3);
    }

    @Test
    void unknownStepTypeNamesFileLineColumnAndTheKnownOnes() {
        InputException e = error("- hosts: all\n  steps:\n    - audit: {}\n    - thp_off: {}\n");
        assertThat(e.getMessage())
                .startsWith("thp.yaml:4:7: unknown step type 'thp_off' (known: assert, audit, benchmark, command,");
    }

    @Test
    void unknownArgumentNamesFileLineColumn() {
        assertThat(error("- hosts: all\n  steps:\n    - thp: {enabled: never, defrg: never}\n")
                        .getMessage())
                .isEqualTo("thp.yaml:3:29: thp: unknown argument 'defrg' (known: defrag, enabled)");
    }

    @Test
    void serialForms() {
        assertThat(parse("- hosts: all\n  serial: 2\n  steps: []\n")
                        .plays()
                        .get(0)
                        .serial())
                .containsExactly(new BatchSize.Count(2));
        assertThat(parse("- hosts: all\n  serial: \"25%\"\n  steps: []\n")
                        .plays()
                        .get(0)
                        .serial())
                .containsExactly(new BatchSize.Percent(25));
        assertThat(error("- hosts: all\n  serial: [1, \"150%\"]\n  steps: []\n").getMessage())
                .isEqualTo("thp.yaml:2:15: serial: a percentage must be 1..100, was 150%");
        assertThat(error("- hosts: all\n  serial: lots\n  steps: []\n").getMessage())
                .contains("thp.yaml:2:11: serial: expected a number or a percentage");
    }

    @Test
    void badYamlIsAnInputErrorWithItsPosition() {
        InputException e = error("- hosts: all\n  steps: [\n");
        assertThat(e.getMessage()).startsWith("thp.yaml:").contains("YAML syntax error");
        assertThat(e.line()).isPositive();
    }

    @Test
    void playWithoutHostsOrSteps() {
        assertThat(error("- name: x\n  steps: []\n").getMessage()).isEqualTo("thp.yaml:1:3: play: missing key 'hosts'");
        assertThat(error("- hosts: all\n").getMessage()).isEqualTo("thp.yaml:1:3: play 'all': missing key 'steps'");
    }

    @Test
    void stepWithTwoTypes() {
        assertThatThrownBy(() -> parse("- hosts: all\n  steps:\n    - {thp: {}, audit: {}}\n"))
                .hasMessageContaining("a step has one type, found 'thp' and 'audit'");
    }
}
