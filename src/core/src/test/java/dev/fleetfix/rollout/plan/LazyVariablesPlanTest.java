package dev.fleetfix.rollout.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.PlaybookParser;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.ShellFacts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host's variables are evaluated where a run uses them: a run refuses a host whose settings or step arguments use
 * a value that cannot be evaluated, before it touches any host; a listing plans the same play without needing them.
 */
class LazyVariablesPlanTest {
    private static final Path INVENTORY = Path.of("inventory.yml");

    @TempDir
    Path dir;

    private final StepRegistry registry = StepRegistry.standard(new ShellFacts());

    private Playbook playbook(String yaml) {
        return new PlaybookParser(registry).parse(dir.resolve("play.yaml"), yaml);
    }

    private RunPlan plan(Playbook playbook, boolean forRun, Host... hosts) {
        return new RunPlanner(registry, HostOrdering.inventoryOrder(), forRun)
                .plan(playbook, pattern -> List.of(hosts), RunOptions.defaults());
    }

    private static Unevaluated unevaluated(String written, int line, int column, String message) {
        return new Unevaluated(written, new InputException(INVENTORY, line, column, message));
    }

    @Test
    void aStepArgumentThatUsesAValueThatCannotBeEvaluatedRefusesTheRunNamingBothPlaces() {
        Host r1 = TestHosts.lab("r1", "10.0.0.1").toBuilder()
                .vars(Map.of(
                        "mode",
                        unevaluated(
                                "{{ wanted | lower }}",
                                3,
                                13,
                                "host r1: mode: only plain variable names are supported in '{{ wanted | lower }}'"),
                        "ansible_python_interpreter",
                        unevaluated(
                                "{{ ansible_playbook_python }}",
                                2,
                                5,
                                "host r1: ansible_python_interpreter: undefined variable 'ansible_playbook_python'")))
                .build();
        Playbook playbook = playbook("- hosts: all\n  steps:\n    - thp: {enabled: \"{{ mode }}\"}\n");

        assertThatThrownBy(() -> plan(playbook, true, r1))
                .isInstanceOf(InputException.class)
                .hasMessage(dir.resolve("play.yaml") + ":3:7: thp.enabled (host r1): 'mode' cannot be evaluated: "
                        + "inventory.yml:3:13: host r1: mode: only plain variable names are supported in"
                        + " '{{ wanted | lower }}'");
        // --list-hosts and --syntax-check plan the play without the value
        assertThat(plan(playbook, false, r1).plays().get(0).hosts()).containsExactly(r1);
        // nor through a play variable
        Playbook viaPlayVars =
                playbook("- hosts: all\n  vars: {wanted: \"{{ mode }}\"}\n  steps:\n    - thp: {enabled: never}\n");
        assertThatThrownBy(() -> plan(viaPlayVars, true, r1)).hasMessageContaining("'mode' cannot be evaluated");
        assertThat(plan(viaPlayVars, false, r1).plays().get(0).hosts()).containsExactly(r1);
        // a value no step uses is no reason to refuse
        Playbook other = playbook("- hosts: all\n  steps:\n    - thp: {enabled: never}\n");
        assertThat(plan(other, true, r1).plays().get(0).hosts()).containsExactly(r1);
    }

    @Test
    void aHostWhoseConnectionCannotBeEvaluatedIsRefusedByARunOnlyWhenAPlayRunsOnIt() {
        Host good = TestHosts.lab("r1", "10.0.0.1");
        Host bad = TestHosts.lab("r2", "r2").toBuilder()
                .unusable(Optional.of(new InputException(
                        INVENTORY,
                        7,
                        21,
                        "host r2: ansible_host: only plain variable names are supported in '{{ x | upper }}'")))
                .build();
        Playbook playbook = playbook("- hosts: all\n  steps:\n    - thp: {enabled: never}\n");

        assertThatThrownBy(() -> plan(playbook, true, good, bad))
                .hasMessage("inventory.yml:7:21: host r2: ansible_host: only plain variable names are supported in"
                        + " '{{ x | upper }}'");
        assertThat(plan(playbook, false, good, bad).plays().get(0).hosts()).containsExactly(good, bad);
        assertThat(plan(playbook, true, good).plays().get(0).hosts()).containsExactly(good);
    }

    @Test
    void playbookDirIsTheDirectoryOfThePlaybook() {
        Host r1 = TestHosts.lab("r1", "10.0.0.1");
        Playbook playbook = playbook(
                "- hosts: all\n  steps:\n    - assert: {that: \"thp.enabled == never\", msg: \"see {{ playbook_dir }}/README\"}\n");

        RunPlan plan = plan(playbook, true, r1);

        assertThat(plan.plays()
                        .get(0)
                        .stepsByHost()
                        .get("r1")
                        .get(0)
                        .step()
                        .args()
                        .get("msg"))
                .isEqualTo("see " + dir.toAbsolutePath().normalize() + "/README");
    }
}
