package dev.fleetfix.yaml;

import dev.fleetfix.InputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML syntax error as a person can act on it, as {@code ansible-playbook} shows one: the place, what is wrong in
 * plain words, the offending line quoted with a caret under the column, and a hint for the common mistakes (a tab,
 * an indentation that matches no level, a missing {@code '- '}, a {@code ': '} inside a plain value, an unclosed
 * quote or bracket). The parser's own words follow, for searching.
 */
final class YamlSyntaxError {
    private static final int MAX_QUOTED = 160;
    /**
     * A line whose key names a secret: its value is not quoted back. A file that does not parse has told no secret
     * yet, so the run's scrubbing cannot know it; Ansible quotes such a line whole.
     */
    private static final Pattern SECRET_LINE = Pattern.compile(
            "^(\\s*(?:-\\s+)?[\"']?[\\w.-]*(?i:pass|secret|token|vault|credential|private)[\\w.-]*[\"']?\\s*[:=]\\s*)(\\S.*)$");

    private final String text;
    private final MarkedYAMLException e;
    private final String problem;
    private final String context;
    /** Where to point, 1-based; 0 when the parser said nowhere. */
    private final int line;

    private final int column;

    private YamlSyntaxError(String text, MarkedYAMLException e) {
        this.text = text;
        this.e = e;
        this.problem = e.getProblem() == null ? "unreadable" : e.getProblem();
        this.context = e.getContext() == null ? "" : e.getContext();
        Mark at = place();
        this.line = at == null ? 0 : at.getLine() + 1;
        this.column = at == null ? 0 : at.getColumn() + 1;
    }

    /** The error for {@code e}, thrown while parsing {@code text} read from {@code file}. */
    static InputException of(Path file, String text, MarkedYAMLException e) {
        return new YamlSyntaxError(text, e).toException(file);
    }

    private InputException toException(Path file) {
        Diagnosis d = diagnose();
        List<String> detail = new ArrayList<>(quote(line, column));
        if (d.hint() != null) {
            detail.add("hint: " + d.hint());
        }
        String words = (context.isEmpty() ? "" : context + ": ") + problem;
        detail.add("(the YAML parser: " + words.replace("\t", "\\t") + ")");
        return new InputException(file, line, column, "YAML syntax error: " + d.summary(), detail);
    }

    /** At the end of the stream, the place worth naming is where the unclosed construct started. */
    private Mark place() {
        boolean atEnd = problem.contains("end of stream") && e.getContextMark() != null;
        return e.getProblemMark() != null && !atEnd ? e.getProblemMark() : e.getContextMark();
    }

    private record Diagnosis(String summary, String hint) {}

    /** One kind of error, known by the parser's problem and context, and how to read it. */
    private record Case(BiPredicate<String, String> problemAndContext, Function<YamlSyntaxError, Diagnosis> reading) {}

    /** The common mistakes, the first that matches wins; anything else is shown in the parser's words. */
    private static final List<Case> CASES = List.of(
            new Case(
                    (problem, context) -> problem.contains("\\t(TAB)") || problem.contains("'\t'"),
                    error -> new Diagnosis(
                            "a tab in the indentation of line " + error.line,
                            "YAML indents with spaces only: replace the tab with spaces")),
            new Case(
                    (problem, context) -> context.contains("quoted scalar") && problem.contains("end of stream"),
                    error -> new Diagnosis(
                            "a quote opened here is never closed",
                            "close the quote, or remove it if the value needs none")),
            new Case(
                    (problem, context) -> context.contains("flow sequence") || context.contains("flow mapping"),
                    YamlSyntaxError::unclosedFlow),
            new Case(
                    (problem, context) -> problem.startsWith("found undefined alias"), YamlSyntaxError::undefinedAlias),
            new Case(
                    (problem, context) -> problem.startsWith("mapping values are not allowed here"),
                    YamlSyntaxError::valueWhereNoneFits),
            new Case((problem, context) -> problem.startsWith("could not find expected ':'"), YamlSyntaxError::noColon),
            new Case((problem, context) -> problem.startsWith("expected <block end>"), YamlSyntaxError::blockNotEnded));

    private Diagnosis diagnose() {
        return CASES.stream()
                .filter(c -> c.problemAndContext().test(problem, context))
                .findFirst()
                .map(c -> c.reading().apply(this))
                .orElseGet(() ->
                        new Diagnosis((context.isEmpty() ? "" : context + ": ") + problem.replace("\t", "\\t"), null));
    }

    private Diagnosis unclosedFlow() {
        Mark open = e.getContextMark();
        String where = open == null ? "" : " at line " + (open.getLine() + 1) + " column " + (open.getColumn() + 1);
        return new Diagnosis(
                "a '" + (context.contains("sequence") ? "[" : "{") + "' opened" + where + " is not closed",
                "close it on its line; a value that starts with '[' or '{' (such as a Jinja '{{ ... }}') must be"
                        + " quoted");
    }

    private Diagnosis undefinedAlias() {
        String name = problem.substring("found undefined alias".length()).trim();
        return new Diagnosis(
                "the alias *" + name + " names no anchor",
                "define '&" + name + "' on a value before this line, or quote the value if '*' is meant as text");
    }

    private Diagnosis noColon() {
        Mark key = e.getContextMark();
        return new Diagnosis(
                "line " + (key == null ? line : key.getLine() + 1) + " has no ':' after its key",
                "write 'key: value' (or 'key:' before a nested block); a list item starts with '- '");
    }

    /** "mapping values are not allowed here": a ': ' inside a plain value, or a line indented too deep. */
    private Diagnosis valueWhereNoneFits() {
        String offending = line(line);
        int firstColon = offending.indexOf(": ");
        if (firstColon >= 0 && firstColon + 1 < column - 1) {
            return new Diagnosis(
                    "a ': ' inside a plain value",
                    "quote the value: "
                            + offending.substring(0, firstColon + 2).strip() + " \""
                            + offending.substring(firstColon + 2).strip() + "\"");
        }
        return new Diagnosis(
                "line " + line + " is indented " + indent(offending) + " spaces, deeper than the key above it",
                indentationHint(line));
    }

    /** "expected <block end>": a missing '- ', or an indentation that matches no level above. */
    private Diagnosis blockNotEnded() {
        if (problem.endsWith("'?'") && context.contains("block collection")) {
            return new Diagnosis(
                    "a key at the indentation of a list's items",
                    "each item of a list starts with '- ': is one missing on line " + line
                            + "? Or is the key indented as deep as the list instead of its parent key?");
        }
        return new Diagnosis(
                "line " + line + " is indented " + indent(line(line))
                        + " spaces, which matches no level of the lines above it",
                indentationHint(line));
    }

    private String indentationHint(int line) {
        List<Integer> above = new ArrayList<>();
        for (int n = line - 1; n >= 1 && above.size() < 3; n--) {
            String l = line(n);
            if (!l.isBlank() && !l.stripLeading().startsWith("#")) {
                int i = indent(l);
                if (!above.contains(i)) {
                    above.add(i);
                }
            }
        }
        return "keys of one mapping, and the '- ' items of one list, start in the same column"
                + (above.isEmpty() ? "" : " (the lines above start at " + columns(above) + ")");
    }

    private static String columns(List<Integer> indents) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < indents.size(); i++) {
            s.append(i == 0 ? "" : i == indents.size() - 1 ? " or " : ", ")
                    .append("column ")
                    .append(indents.get(i) + 1);
        }
        return s.toString();
    }

    private static int indent(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    /** The line before (for context) and the offending line, numbered, with a caret under the column. */
    private List<String> quote(int line, int column) {
        List<String> out = new ArrayList<>();
        if (line <= 0) {
            return out;
        }
        int width = String.valueOf(line).length();
        for (int n = Math.max(1, line - 1); n <= line; n++) {
            out.add(String.format("%" + width + "d | %s", n, visible(line(n))));
        }
        if (column > 0 && column <= MAX_QUOTED + 1) {
            out.add(" ".repeat(width) + " | " + " ".repeat(column - 1) + "^");
        }
        return out;
    }

    private static String visible(String line) {
        Matcher secret = SECRET_LINE.matcher(line);
        if (secret.matches()) {
            line = secret.group(1) + "******";
        }
        String shown = line.replace("\t", "→");
        return shown.length() > MAX_QUOTED ? shown.substring(0, MAX_QUOTED) + "…" : shown;
    }

    /** Line {@code n} (1-based) of the text, without its end; empty past the end. */
    private String line(int n) {
        int start = 0;
        for (int i = 1; i < n; i++) {
            int next = text.indexOf('\n', start);
            if (next < 0) {
                return "";
            }
            start = next + 1;
        }
        int end = text.indexOf('\n', start);
        String l = text.substring(start, end < 0 ? text.length() : end);
        return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
    }
}
