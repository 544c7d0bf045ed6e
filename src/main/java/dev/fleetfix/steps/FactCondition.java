package dev.fleetfix.steps;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tiny condition language of {@code assert: {that: ...}} and {@code when:}. A condition is
 * {@code FACT == VALUE} or {@code FACT != VALUE}; several joined with {@code and} must all hold.
 * FACT is a fact key as {@code audit} reports it ({@code thp.enabled}, {@code init},
 * {@code redis.role}); VALUE is a bare word or a quoted string. Nothing else: no or, no
 * arithmetic, no templates, so that a condition reads the same to everyone.
 *
 * <pre>
 * thp.enabled == never
 * init == systemd and os.id != centos
 * redis.role == "master"
 * </pre>
 */
public final class FactCondition {
    private static final Pattern CLAUSE =
            Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*(==|!=)\\s*(\"[^\"]*\"|'[^']*'|[^\\s\"']+)\\s*");

    private record Clause(String fact, boolean equals, String value) {
        @Override
        public String toString() {
            return fact + (equals ? " == " : " != ") + value;
        }
    }

    /** Why a condition did not hold, or that it held. */
    public record Outcome(boolean holds, String detail) {}

    private final String text;
    private final List<Clause> clauses;

    private FactCondition(String text, List<Clause> clauses) {
        this.text = text;
        this.clauses = List.copyOf(clauses);
    }

    /** @throws IllegalArgumentException with a message saying what is wrong */
    public static FactCondition parse(String text) {
        List<Clause> clauses = new ArrayList<>();
        for (String part : text.split("\\s+and\\s+")) {
            Matcher m = CLAUSE.matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("cannot read condition '" + part.strip()
                        + "': expected FACT == VALUE or FACT != VALUE (joined with 'and')");
            }
            String value = m.group(3);
            if (value.length() >= 2 && (value.startsWith("\"") || value.startsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            clauses.add(new Clause(m.group(1), m.group(2).equals("=="), value));
        }
        return new FactCondition(text.strip(), clauses);
    }

    /** Evaluates against facts; an unknown fact makes the condition fail, saying which fact. */
    public Outcome evaluate(Map<String, String> facts) {
        for (Clause c : clauses) {
            Optional<String> actual = Optional.ofNullable(facts.get(c.fact()));
            if (actual.isEmpty()) {
                return new Outcome(false, "fact '" + c.fact() + "' is unknown (is there an audit step before?)");
            }
            boolean same = actual.get().equals(c.value());
            if (same != c.equals()) {
                return new Outcome(false, c + " is false: " + c.fact() + " is " + actual.get());
            }
        }
        return new Outcome(true, text + " holds");
    }

    @Override
    public String toString() {
        return text;
    }
}
