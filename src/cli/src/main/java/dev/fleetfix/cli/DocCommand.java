package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.checks.HostAuditor;
import dev.fleetfix.playbook.StepDoc;
import dev.fleetfix.report.manual.StepDocs;
import dev.fleetfix.report.manual.VerdictManual;
import dev.fleetfix.steps.StepRegistry;
import dev.fleetfix.steps.facts.AuditorFacts;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleetfix doc [STEP]}: the playbook's step types, or one step's arguments, from the catalogue that validates
 * playbooks (so what it says is what the parser accepts); {@code fleetfix doc verdicts}: the benchmark verdicts' words.
 */
@Command(
        name = "doc",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the step types a playbook can use; with STEP, each of its arguments with its type, default and"
                    + " an example.",
            "The playbook format itself: man 5 fleetfix-playbook. The benchmark verdicts' words: fleetfix doc"
                    + " verdicts."
        },
        footerHeading = "%nExit codes:%n",
        footer = {"  0  printed", "  2  no such step (the nearest names are suggested)"})
final class DocCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(
            arity = "0..1",
            paramLabel = "STEP",
            completionCandidates = StepNames.class,
            description = "A step type: ${COMPLETION-CANDIDATES}; or " + VERDICTS
                    + ", the benchmark verdicts' words and what each means.")
    String step;

    @Override
    public Integer call() {
        Map<String, StepDoc> docs = docs();
        PrintWriter out = spec.commandLine().getOut();
        if (step == null) {
            out.print(StepDocs.list(docs));
        } else if (step.equals(VERDICTS)) {
            out.print(VerdictManual.text());
        } else if (docs.containsKey(step)) {
            out.print(StepDocs.detail(step, docs.get(step)));
        } else {
            throw new InputException("unknown step '" + step + "'"
                    + nearest(step, docs).map(n -> "; did you mean " + n + "?").orElse("")
                    + " (fleetfix doc lists the steps: " + String.join(", ", docs.keySet()) + ")");
        }
        out.flush();
        return ExitCode.OK;
    }

    /** The topic that is no step: {@code fleetfix doc verdicts}. */
    static final String VERDICTS = "verdicts";

    /** Every step type of this build and its doc, in the catalogue's order. */
    static Map<String, StepDoc> docs() {
        // the facts are never gathered here: only the types' signatures and docs are read
        StepRegistry registry = StepRegistry.standard(new AuditorFacts(new HostAuditor()));
        Map<String, StepDoc> docs = new LinkedHashMap<>();
        for (String type : registry.typeNames()) {
            docs.put(type, registry.doc(type).orElseThrow());
        }
        return docs;
    }

    /** The step name nearest to a mistyped one: within 3 edits, or one it begins. */
    static Optional<String> nearest(String typed, Map<String, StepDoc> docs) {
        return docs.keySet().stream()
                .filter(name -> distance(typed, name) <= 3 || (typed.length() >= 3 && name.startsWith(typed)))
                .min(Comparator.comparingInt(name -> distance(typed, name)));
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int above = row[j];
                int substitution = diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                row[j] = Math.min(substitution, Math.min(row[j - 1], above) + 1);
                diagonal = above;
            }
        }
        return row[b.length()];
    }

    /** The step names, for completion. */
    static final class StepNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return docs().keySet().iterator();
        }
    }
}
