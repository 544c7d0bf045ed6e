package dev.fleetfix.report.manual;

import dev.fleetfix.playbook.StepDoc;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What {@code fleetfix doc} prints: the steps with their summaries, or one step with every argument. */
public final class StepDocs {
    private static final int WIDTH = 100;

    private StepDocs() {}

    /** One line a step: its name and summary. */
    public static String list(Map<String, StepDoc> steps) {
        int width = steps.keySet().stream().mapToInt(String::length).max().orElse(0);
        StringBuilder out = new StringBuilder("Steps a playbook can use (fleetfix doc STEP: its arguments):\n");
        steps.forEach((name, doc) -> out.append("  ")
                .append(name)
                .append(" ".repeat(width - name.length() + 2))
                .append(doc.summary())
                .append('\n'));
        return out.toString();
    }

    /** The step's summary, its example and each argument with its type, default and example. */
    public static String detail(String name, StepDoc doc) {
        StringBuilder out = new StringBuilder();
        out.append(name).append(": ").append(doc.summary()).append("\n\n");
        out.append("Example:\n  ").append(doc.example()).append("\n\n");
        if (doc.args().isEmpty()) {
            return out.append("Arguments: none.\n").toString();
        }
        out.append("Arguments:\n");
        for (StepDoc.Arg arg : doc.args()) {
            out.append("  ").append(arg.name()).append("  (").append(arg.type()).append(")\n");
            for (String line : wrap(arg.description(), WIDTH - 6)) {
                out.append("      ").append(line).append('\n');
            }
            out.append("      default: ").append(arg.defaultValue()).append('\n');
            out.append("      example: ").append(arg.example()).append('\n');
        }
        return out.toString();
    }

    /** {@code text} in lines of at most {@code width} characters, broken at spaces. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }
}
