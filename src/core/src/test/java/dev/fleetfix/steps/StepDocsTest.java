package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.PlaybookParser;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.playbook.StepSignature;
import dev.fleetfix.steps.facts.ShellFacts;
import dev.fleetfix.steps.model.StepArgs;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The step docs ({@code fleetfix doc}, {@code fleetfix-playbook(5)}) against the catalogue that validates playbooks:
 * every argument has a doc, and every example is a step the real parser reads and its type prepares.
 */
class StepDocsTest {
    private static final StepRegistry REGISTRY = StepRegistry.standard(new ShellFacts());
    private static final PlaybookParser PARSER = new PlaybookParser(REGISTRY);
    private static final Host HOST = TestHosts.local("r1", true);

    @Test
    void everyArgumentOfEveryStepHasADoc() {
        assertThat(REGISTRY.typeNames()).isNotEmpty();
        for (String type : REGISTRY.typeNames()) {
            StepSignature signature = REGISTRY.signature(type).orElseThrow();
            StepDoc doc = REGISTRY.doc(type).orElseThrow();

            assertThat(doc.summary()).as(type + " summary").isNotBlank().doesNotContain("\n");
            Set<String> named = doc.args().stream()
                    .filter(a -> !a.placeholder())
                    .map(StepDoc.Arg::name)
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> keys = new TreeSet<>(signature.args());
            boolean any = keys.remove(StepSignature.ANY_ARG);
            assertThat(named).as(type + ": the documented arguments").isEqualTo(keys);
            assertThat(doc.args().stream().filter(StepDoc.Arg::placeholder))
                    .as(type + ": a placeholder for any key")
                    .hasSize(any ? 1 : 0);
            assertThat(doc.args()).allSatisfy(arg -> {
                assertThat(arg.type()).as(type + "." + arg.name() + " type").isNotBlank();
                assertThat(arg.defaultValue())
                        .as(type + "." + arg.name() + " default")
                        .isNotBlank();
                assertThat(arg.description())
                        .as(type + "." + arg.name() + " description")
                        .isNotBlank();
            });
        }
    }

    @Test
    void everyExampleIsAStepTheParserReadsAndItsTypePrepares() {
        for (String type : REGISTRY.typeNames()) {
            StepDoc doc = REGISTRY.doc(type).orElseThrow();
            Step whole = parsedAndPrepared(type, doc.example());
            assertThat(whole.type()).as(doc.example()).isEqualTo(type);
            for (StepDoc.Arg arg : doc.args()) {
                Step step = parsedAndPrepared(type, arg.example());
                assertThat(step.type()).as(arg.example()).isEqualTo(type);
                if (arg.placeholder()) {
                    assertThat(step.args()).as(arg.example()).isNotEmpty();
                } else {
                    assertThat(step.args())
                            .as(arg.example() + " uses " + arg.name())
                            .containsKey(arg.name());
                }
            }
        }
    }

    private static Step parsedAndPrepared(String type, String example) {
        assertThat(example).as(type + " example").startsWith("- " + type + ":");
        String yaml = "- hosts: redis\n  steps:\n    " + example + "\n";
        Step step = PARSER.parse(Path.of("example.yaml"), yaml)
                .plays()
                .get(0)
                .steps()
                .get(0);
        assertThatCode(() -> REGISTRY.prepare(new StepArgs(step, HOST)))
                .as("prepare " + example)
                .doesNotThrowAnyException();
        return step;
    }
}
