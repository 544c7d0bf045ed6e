package dev.fleetfix.inventory;

import dev.fleetfix.InputException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * An Ansible host pattern, as given to {@code --limit}: {@code all} or {@code *}, group and host
 * names, globs ({@code redis-*}), {@code ~regex}, subscripts ({@code redis[0]}, {@code redis[1:2]}),
 * joined by {@code :} or {@code ,}; a term starting with {@code &} intersects, one starting with
 * {@code !} excludes. As in Ansible, plain terms are applied first, then {@code &}, then {@code !},
 * whatever their order in the pattern.
 *
 * <p>A {@code !} or {@code &} term that matches nothing is Ansible's warning ("Could not match supplied host
 * pattern, ignoring: ..."), passed to the caller to print: so {@code all:!typo} selects every host, as in Ansible.
 * Unlike Ansible, a plain term that matches nothing is an error: a typo in a limit must not shrink a rollout
 * silently. A pattern without commas that is one IPv6 address ({@code fe80::1}) is one host, not {@code :}-joined
 * terms, as Ansible's split_host_pattern reads it.
 */
public final class HostPattern {
    /** What may be an IPv6 address (hex digits, colons, a dotted IPv4 tail, a zone); the JDK decides. */
    private static final Pattern IPV6_CHARS = Pattern.compile("^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(%\\w+)?$");

    private static final Pattern SUBSCRIPT = Pattern.compile("^(.+)\\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]+)?)\\]$");

    private final String text;
    private final List<Term> terms;

    private HostPattern(String text, List<Term> terms) {
        this.text = text;
        this.terms = terms;
    }

    /** Parses a pattern; throws {@link InputException} for an empty pattern or a bad regex. */
    public static HostPattern parse(String text) {
        if (text == null || text.isBlank()) {
            throw new InputException("host pattern is empty");
        }
        List<String> raw = split(text);
        if (raw.isEmpty()) {
            throw new InputException("host pattern \"" + text + "\" names no group or host");
        }
        return of(text, raw);
    }

    /** The most a {@code --limit @FILE} may hold: a retry file names one host a line. */
    public static final long MAX_LIMIT_FILE_BYTES = 16 * 1024 * 1024;

    /**
     * {@code --limit} as ansible-playbook reads it: the pattern is split as any pattern is, and each part written
     * {@code @FILE} stands for the lines of FILE, one pattern a line, as in Ansible's {@code .retry} files (a line is
     * not split again: {@code a:b} on one line is one name; blank lines are skipped). A limit that names nothing
     * ({@code ','}, an empty file) is no limit, as in Ansible: empty then.
     *
     * @param lines the lines of a limit file
     * @throws InputException for a bad pattern, or a limit file that cannot be read
     */
    public static Optional<HostPattern> limit(String text, Function<Path, List<String>> lines) {
        List<String> raw = new ArrayList<>();
        for (String part : split(text)) {
            if (part.equals("@")) {
                throw new InputException("host pattern \"" + text + "\": \"@\" names no limit file (write @FILE)");
            }
            if (part.startsWith("@")) {
                lines.apply(Path.of(part.substring(1))).stream()
                        .map(String::strip)
                        .filter(line -> !line.isEmpty())
                        .forEach(raw::add);
            } else {
                raw.add(part);
            }
        }
        return raw.isEmpty() ? Optional.empty() : Optional.of(of(text, raw));
    }

    private static HostPattern of(String text, List<String> raw) {
        List<Term> regular = new ArrayList<>();
        List<Term> intersect = new ArrayList<>();
        List<Term> exclude = new ArrayList<>();
        for (String part : raw) {
            char op = part.charAt(0);
            String body = (op == '&' || op == '!') ? part.substring(1).strip() : part;
            if (body.isEmpty()) {
                throw new InputException("host pattern \"" + text + "\": \"" + part + "\" names nothing");
            }
            Term term = Term.of(text, op == '&' || op == '!' ? op : ' ', body);
            (op == '&' ? intersect : op == '!' ? exclude : regular).add(term);
        }
        if (regular.isEmpty()) {
            regular.add(Term.of(text, ' ', Inventory.ALL));
        }
        List<Term> ordered = new ArrayList<>(regular);
        ordered.addAll(intersect);
        ordered.addAll(exclude);
        return new HostPattern(text, List.copyOf(ordered));
    }

    /**
     * Ansible's split_host_pattern: commas if there are any, else colons outside brackets. Brackets
     * must balance (empty parts are dropped; the list may be empty): an unclosed {@code [} or a stray {@code ]} is refused, never skipped, since a term
     * dropped from a pattern like {@code r1:[} (or a pattern left with no term at all) would select
     * more hosts than were meant.
     */
    private static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        if (!text.contains(",") && isIpv6(text.strip())) {
            return List.of(text.strip());
        }
        if (text.contains(",")) {
            for (String part : text.split(",", -1)) {
                checkBrackets(text, part);
                parts.add(part);
            }
        } else {
            checkBrackets(text, text);
            int depth = 0;
            int start = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '[') {
                    depth++;
                } else if (c == ']') {
                    depth--;
                } else if (c == ':' && depth == 0) {
                    parts.add(text.substring(start, i));
                    start = i + 1;
                }
            }
            parts.add(text.substring(start));
        }
        return parts.stream().map(String::strip).filter(p -> !p.isEmpty()).toList();
    }

    /**
     * Whether {@code text} is an IPv6 address literal. The JDK parses a name with a colon as a literal and never
     * asks DNS for it, and the character check keeps any other name from reaching it.
     */
    public static boolean isIpv6(String text) {
        if (!IPV6_CHARS.matcher(text).matches()) {
            return false;
        }
        try {
            // an IPv4-mapped address (::ffff:10.0.0.1) comes back as IPv4: parsing at all is what counts
            return InetAddress.getByName(text) != null;
        } catch (UnknownHostException | IllegalArgumentException e) {
            return false;
        }
    }

    private static void checkBrackets(String whole, String part) {
        int depth = 0;
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth < 0) {
                throw new InputException(
                        "host pattern \"" + whole + "\": \"]\" without \"[\" in \"" + part.strip() + "\"");
            }
        }
        if (depth > 0) {
            throw new InputException(
                    "host pattern \"" + whole + "\": \"[\" is never closed in \"" + part.strip() + "\"");
        }
    }

    /** {@link #select(Inventory, Consumer)} for callers that print no warning (tests). */
    public List<Host> select(Inventory inventory) {
        return select(inventory, warning -> {});
    }

    /**
     * The hosts the pattern selects, in inventory order (the order {@code --limit} keeps in Ansible:
     * the play's hosts, filtered).
     *
     * @param warnings told, in Ansible's words, of each {@code !} or {@code &} term that matches nothing
     * @throws InputException when a plain term matches nothing, or the whole pattern selects no host
     */
    public List<Host> select(Inventory inventory, Consumer<String> warnings) {
        Set<String> selected = new LinkedHashSet<>();
        for (Term term : terms) {
            List<String> matched = term.match(inventory);
            if (matched.isEmpty() && term.op() != ' ') {
                warnings.accept("Could not match supplied host pattern, ignoring: " + term.expr()
                        + (term.display().equals(text) ? "" : " (" + term.display() + " in \"" + text + "\")"));
            } else if (matched.isEmpty()) {
                throw new InputException("Could not match supplied host pattern: " + term.display()
                        + (term.display().equals(text) ? "" : " (in \"" + text + "\")"));
            }
            switch (term.op()) {
                case '&' -> selected.retainAll(Set.copyOf(matched));
                case '!' -> selected.removeAll(Set.copyOf(matched));
                default -> selected.addAll(matched);
            }
        }
        if (selected.isEmpty()) {
            throw new InputException("host pattern \"" + text + "\" selects no host");
        }
        return inventory.hosts().stream()
                .filter(h -> selected.contains(h.name()))
                .toList();
    }

    @Override
    public String toString() {
        return text;
    }

    /** One term: an operator (' ', '&' or '!'), a name, glob or regex, and an optional subscript. */
    private record Term(char op, String expr, Pattern matcher, boolean fuzzy, int[] subscript) {

        static Term of(String whole, char op, String body) {
            String expr = body;
            int[] subscript = null;
            if (!body.startsWith("~")) {
                Matcher m = SUBSCRIPT.matcher(body);
                if (m.matches()) {
                    expr = m.group(1);
                    subscript = m.group(2) != null
                            ? new int[] {index(whole, body, m.group(2))}
                            : new int[] {
                                index(whole, body, m.group(3)), m.group(5) == null ? -1 : index(whole, body, m.group(5))
                            };
                }
            }
            boolean regex = expr.startsWith("~");
            if (regex && expr.substring(1).isBlank()) {
                // Ansible reads "~" as the empty regex, which matches every name: a pattern cut short (an unset
                // shell variable after the "~") would widen the run to the whole inventory
                throw new InputException("host pattern \"" + whole + "\": \"" + body
                        + "\" is an empty regex, which would select every host; write \"all\" (or \"~.*\") to mean"
                        + " every host");
            }
            Pattern matcher;
            try {
                matcher = Pattern.compile(regex ? expr.substring(1) : glob(expr));
            } catch (PatternSyntaxException e) {
                throw new InputException("host pattern \"" + whole + "\": invalid " + (regex ? "regex" : "pattern")
                        + " \"" + expr + "\": " + e.getDescription());
            }
            boolean fuzzy = regex || expr.chars().anyMatch(c -> c == '.' || c == '?' || c == '*' || c == '[');
            return new Term(op, expr, matcher, fuzzy, subscript);
        }

        /** A subscript bound; one past an int cannot index any inventory, and is refused by name. */
        private static int index(String whole, String term, String digits) {
            try {
                return Integer.parseInt(digits);
            } catch (NumberFormatException e) {
                throw new InputException("host pattern \"" + whole + "\": subscript " + digits + " in \"" + term
                        + "\" is out of range (at most " + Integer.MAX_VALUE + ")");
            }
        }

        String display() {
            return (op == ' ' ? "" : String.valueOf(op)) + expr;
        }

        /** Ansible's _enumerate_matches: groups first; host names when no group matched or it is a glob. */
        List<String> match(Inventory inventory) {
            List<String> hosts = new ArrayList<>();
            if (inventory.host(expr).isPresent()) {
                hosts.add(expr);
                return hosts;
            }
            boolean groupMatched = false;
            for (Map.Entry<String, List<String>> group : inventory.groups().entrySet()) {
                if (matches(group.getKey())) {
                    groupMatched = true;
                    hosts.addAll(group.getValue());
                }
            }
            if (!groupMatched || fuzzy) {
                for (Host host : inventory.hosts()) {
                    // a host with redis_instances is named by its own name too: every instance
                    if (matches(host.name()) || matchesInstanceOf(host)) {
                        hosts.add(host.name());
                    }
                }
            }
            return applySubscript(List.copyOf(new LinkedHashSet<>(hosts)));
        }

        private boolean matchesInstanceOf(Host host) {
            Object machine = host.vars().get("redis_instance_of");
            return machine != null && matches(String.valueOf(machine));
        }

        private boolean matches(String name) {
            Matcher m = matcher.matcher(name);
            // Ansible uses re.match: anchored at the start only; globs are anchored at both ends.
            return expr.startsWith("~") ? m.lookingAt() : m.matches();
        }

        private List<String> applySubscript(List<String> hosts) {
            if (subscript == null || hosts.isEmpty()) {
                return hosts;
            }
            int size = hosts.size();
            int start = subscript[0] < 0 ? size + subscript[0] : subscript[0];
            if (subscript.length == 1) {
                return start >= 0 && start < size ? List.of(hosts.get(start)) : List.of();
            }
            int end = subscript[1] == -1 ? size - 1 : Math.min(subscript[1], size - 1);
            return start <= end ? hosts.subList(start, end + 1) : List.of();
        }

        private static String glob(String glob) {
            StringBuilder re = new StringBuilder();
            for (int i = 0; i < glob.length(); i++) {
                char c = glob.charAt(i);
                if (c == '*') {
                    re.append(".*");
                } else if (c == '?') {
                    re.append('.');
                } else if (c == '[') {
                    int close = glob.indexOf(']', i + 2);
                    if (close < 0) {
                        re.append("\\[");
                    } else {
                        String set = glob.substring(i + 1, close);
                        re.append('[')
                                .append(set.startsWith("!") ? "^" + set.substring(1) : set)
                                .append(']');
                        i = close;
                    }
                } else {
                    re.append(Pattern.quote(String.valueOf(c)));
                }
            }
            return re.toString();
        }
    }
}
