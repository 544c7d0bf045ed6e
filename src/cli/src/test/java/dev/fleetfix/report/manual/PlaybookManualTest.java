package dev.fleetfix.report.manual;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.playbook.StepDoc;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code fleetfix-playbook(5)} source and the sections added to the commands' pages. */
class PlaybookManualTest {

    @Test
    void thePageHasTheFormatAndEveryStepArgumentWithItsDoc() {
        Map<String, StepDoc> steps = new LinkedHashMap<>();
        steps.put("audit", StepDoc.of("Reads facts.", "- audit: {}"));
        steps.put(
                "restart_redis",
                StepDoc.of(
                        "Restarts Redis.",
                        "- restart_redis: {failover: auto, timeout: 120s}",
                        new StepDoc.Arg("timeout", "duration", "90s", "- restart_redis: {timeout: 120s}", "Each wait."),
                        new StepDoc.Arg(
                                "gates",
                                "list",
                                "[ping, loading_done]",
                                "- wait_healthy: {gates: [ping]}",
                                "Which {{ gates }}.")));

        String page = PlaybookManual.render(steps, "0.1.0");

        assertThat(page)
                .startsWith("= fleetfix-playbook(5)\n:doctype: manpage\n")
                .contains(":mansource: fleetfix 0.1.0")
                .contains("== Plays", "*serial*::", "*max_fail_percentage*::", "*window*::", "*vars*::", "*tags*::")
                .contains("== Steps", "*when*::", "== Templates", "== Step types", "== See also")
                .contains("=== audit\n", "No arguments.", "=== restart_redis\n")
                .contains("....\n- restart_redis: {failover: auto, timeout: 120s}\n....")
                .contains("*pass:c[timeout]*::\npass:c[duration]; default: pass:c[90s] +\npass:c[Each wait.] +\n")
                .contains("Example: `pass:c[- restart_redis: {timeout: 120s}]`")
                // a ] inside a passthrough is escaped, or it would end it
                .contains("default: pass:c[[ping, loading_done\\]]");
        assertThat(page.indexOf("=== audit")).isLessThan(page.indexOf("=== restart_redis"));
    }

    @Test
    void aCommandPageGainsExamplesEnvironmentFilesAndSeeAlsoBeforeItsEnd() {
        String generated = "= fleetfix-apply(1)\n== Name\n\nfleetfix-apply - Runs a playbook\n\n"
                + "// end::picocli-generated-full-manpage[]\n";

        String page = ManSections.addTo("fleetfix-apply", generated);

        assertThat(page)
                .contains("== Examples\n\n....\nfleetfix apply playbooks/thp-off.yaml")
                .contains("*FLEETFIX_JAVA_OPTS*::", "*ANSIBLE_CONFIG*::", "*ANSIBLE_INVENTORY*::", "*NO_COLOR*::")
                .contains("== Files", "*~/.ssh/config*::", "*~/.ssh/known_hosts*::", "*fleetfix-runs/*::")
                .contains("*fleetfix-playbook*(5)")
                .endsWith("// end::picocli-generated-full-manpage[]\n");
        assertThat(page.indexOf("== Name")).isLessThan(page.indexOf("== Examples"));
        assertThat(page.indexOf("== Examples"))
                .isLessThan(page.indexOf("== Environment"))
                .isLessThan(page.indexOf("== Files"))
                .isLessThan(page.indexOf("== See also"));
    }
}
