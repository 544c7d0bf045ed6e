package dev.fleetfix.steps.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tiny condition language of {@code assert: {that: ...}} and {@code when:}. A condition is
 * {@code FACT == VALUE} or {@code FACT != VALUE}, or an order between whole numbers: {@code FACT >=
 * NUMBER} (also {@code >}, {@code <=}, {@code <}) or {@code FACT >= FACT}, where the second fact is
 * compared by its value; several joined with {@code and} must all hold. FACT is a fact key as
 * {@code audit} and the steps report it ({@code thp.enabled}, {@code init}, {@code redis.role},
 * {@code net.core.somaxconn}); VALUE is a bare word or a quoted string. Nothing else: no or, no
 * arithmetic, no templates, so that a condition reads the same to everyone.
 *
 * <pre>
 * thp.enabled == never
 * init == systemd and os.id != centos
 * redis.role == "master"
 * net.core.somaxconn >= redis.tcp_backlog
 * </pre>
 */
public final class FactCondition {
    private static final Pattern CLAUSE = Pattern.compile(
            "\\s*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*(==|!=|>=|<=|>|<)\\s*(\"[^\"]*\"|'[^']*'|[^\\s\"']+)\\s*");
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern FACT = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]*");

    /**
     * @param operator one of {@code == != >= <= > <}
     * @param value the text to compare with; for an order, a number or the key of another fact
     */
    private record Clause(String fact, String operator, String value) {
        boolean ordered() {
            return !operator.equals("==") && !operator.equals("!=");
        }

        @Override
        public String toString() {
            return fact + " " + operator + " " + value;
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
                        + "': expected FACT == VALUE, FACT != VALUE or an order (>=, >, <=, <) with a number or"
                        + " a fact (joined with 'and')");
            }
            String value = m.group(3);
            Clause clause;
            if (value.length() >= 2 && (value.startsWith("\"") || value.startsWith("'"))) {
                clause = new Clause(m.group(1), m.group(2), value.substring(1, value.length() - 1));
                if (clause.ordered()) {
                    throw new IllegalArgumentException("cannot read condition '" + part.strip() + "': " + m.group(2)
                            + " compares whole numbers: give a number or a fact, not a quoted string");
                }
            } else {
                clause = new Clause(m.group(1), m.group(2), value);
                if (clause.ordered()
                        && !NUMBER.matcher(value).matches()
                        && !FACT.matcher(value).matches()) {
                    throw new IllegalArgumentException("cannot read condition '" + part.strip() + "': " + m.group(2)
                            + " compares whole numbers: '" + value + "' is neither a number nor a fact");
                }
            }
            clauses.add(clause);
        }
        return new FactCondition(text.strip(), clauses);
    }

    /** Evaluates against facts; an unknown fact makes the condition fail, saying which fact. */
    public Outcome evaluate(Map<String, String> facts) {
        for (Clause c : clauses) {
            Optional<String> actual = Optional.ofNullable(facts.get(c.fact()));
            if (actual.isEmpty()) {
                return unknown(c.fact());
            }
            if (c.ordered()) {
                Optional<Outcome> failed = order(c, actual.get(), facts);
                if (failed.isPresent()) {
                    return failed.get();
                }
                continue;
            }
            boolean same = actual.get().equals(c.value());
            if (same != c.operator().equals("==")) {
                return new Outcome(false, c + " is false: " + c.fact() + " is " + actual.get());
            }
        }
        return new Outcome(true, text + " holds");
    }

    /** Empty when the order holds; else why not, naming both values. */
    private static Optional<Outcome> order(Clause c, String actual, Map<String, String> facts) {
        boolean literal = NUMBER.matcher(c.value()).matches();
        String other = literal ? c.value() : facts.get(c.value());
        if (other == null) {
            return Optional.of(unknown(c.value()));
        }
        if (!NUMBER.matcher(actual.strip()).matches()) {
            return Optional.of(new Outcome(
                    false, c + " cannot be judged: " + c.fact() + " is " + actual + ", not a whole number"));
        }
        if (!NUMBER.matcher(other.strip()).matches()) {
            return Optional.of(new Outcome(
                    false, c + " cannot be judged: " + c.value() + " is " + other + ", not a whole number"));
        }
        long a = Long.parseLong(actual.strip());
        long b = Long.parseLong(other.strip());
        boolean holds =
                switch (c.operator()) {
                    case ">=" -> a >= b;
                    case ">" -> a > b;
                    case "<=" -> a <= b;
                    default -> a < b;
                };
        if (holds) {
            return Optional.empty();
        }
        return Optional.of(new Outcome(
                false,
                c + " is false: " + c.fact() + " is " + actual + (literal ? "" : ", " + c.value() + " is " + other)));
    }

    private static Outcome unknown(String fact) {
        return new Outcome(false, "fact '" + fact + "' is unknown (is there an audit step before?)");
    }

    @Override
    public String toString() {
        return text;
    }
}
