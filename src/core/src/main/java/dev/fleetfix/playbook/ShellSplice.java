package dev.fleetfix.playbook;

import dev.fleetfix.transport.ShellQuote;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * Splices template values into shell text so that each stays one inert string, whatever quoting
 * the template sits in. A small POSIX {@code sh} lexer walks the text and knows, at each {@code {{
 * }}}, whether it is bare, inside {@code '...'}, inside {@code "..."}, inside {@code $( )} or
 * backticks, or in a here-document body, and quotes the value for that place:
 *
 * <ul>
 *   <li>bare: one single-quoted word ({@link ShellQuote#quote});
 *   <li>inside {@code '...'}: each {@code '} closed, escaped and reopened;
 *   <li>inside {@code "..."} or an unquoted here-document: {@code $ ` \ "} escaped with a backslash;
 *   <li>inside backticks: the above, then escaped once more for the backticks' own backslash pass;
 *   <li>inside a quoted here-document ({@code <<'EOF'}): as is.
 * </ul>
 *
 * <p>Places where no quoting makes a value inert are refused: arithmetic ({@code $(( ))}, {@code
 * (( ))}, {@code [[ ]]}, where bash evaluates {@code a[$(cmd)]}), {@code ${...}}, {@code $'...'}, a
 * comment, right after a backslash, a here-document value holding a newline (it could end the
 * document early), and anything after a construct this lexer does not follow ({@code case} inside
 * {@code $( )}, nested backticks, substitutions in a here-document).
 */
final class ShellSplice {
    private enum Kind {
        TOP,
        SUBST,
        BACKTICK,
        SQ,
        DQ,
        PARAM,
        ARITH,
        DBRACKET,
        ANSIC,
        COMMENT,
        HEREDOC
    }

    /** A template that cannot be spliced here; the message says why. */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    private static final class Frame {
        final Kind kind;
        int parens;
        final String delimiter;
        final boolean quotedHeredoc;
        final boolean stripTabs;
        boolean lineStart = true;

        Frame(Kind kind) {
            this(kind, null, false, false);
        }

        Frame(Kind kind, String delimiter, boolean quotedHeredoc, boolean stripTabs) {
            this.kind = kind;
            this.delimiter = delimiter;
            this.quotedHeredoc = quotedHeredoc;
            this.stripTabs = stripTabs;
        }
    }

    private record Heredoc(String delimiter, boolean quoted, boolean stripTabs) {}

    private final String text;
    private final Function<String, String> values;
    private final StringBuilder out = new StringBuilder();
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final List<Heredoc> pending = new ArrayList<>();
    private String uncertain;
    private int templates;

    private ShellSplice(String text, Function<String, String> values) {
        this.text = text;
        this.values = values;
        stack.push(new Frame(Kind.TOP));
    }

    /**
     * @param values the text of a template's expression (between the braces) to its value
     * @throws Refused when a template sits where no quoting makes its value inert
     */
    static String render(String text, Function<String, String> values) {
        return new ShellSplice(text, values).run();
    }

    private String run() {
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("{{", i)) {
                int close = text.indexOf("}}", i + 2);
                splice(i, text.substring(i + 2, close));
                i = close + 2;
                continue;
            }
            i = step(i);
        }
        Frame top = stack.peek();
        if (templates > 0 && top.kind != Kind.TOP && top.kind != Kind.COMMENT && top.kind != Kind.HEREDOC) {
            throw new Refused("the command ends inside " + describe(top.kind) + "; close it so that the quoting of"
                    + " its templates is known");
        }
        return out.toString();
    }

    private void splice(int at, String expression) {
        templates++;
        String value = values.apply(expression);
        Frame top = stack.peek();
        String where = "the template at character " + (at + 1);
        if (at > 0 && text.charAt(at - 1) == '\\' && top.kind != Kind.SQ && !escapedBackslash(at - 1)) {
            throw new Refused(where + " follows a backslash, which would unquote the first character of its value;"
                    + " remove the backslash");
        }
        if (uncertain != null) {
            throw new Refused(where + " comes after " + uncertain + ", whose quoting fleetfix does not follow;"
                    + " pass the value another way (a file, or an environment variable)");
        }
        String quoted =
                switch (top.kind) {
                    case TOP, SUBST -> ShellQuote.quote(value);
                    case SQ -> value.replace("'", "'\\''");
                    case DQ -> backslashed(value, "$`\\\"");
                    case HEREDOC -> heredoc(where, top, value);
                    case BACKTICK -> ShellQuote.quote(value);
                    default -> throw new Refused(where + " is inside " + describe(top.kind)
                            + ", where no quoting keeps a value inert; use a plain argument instead");
                };
        // The backticks' own pass removes one level of backslashes before the inner command is read.
        long backticks = stack.stream().filter(f -> f.kind == Kind.BACKTICK).count();
        if (backticks > 1) {
            throw new Refused(where + " is inside nested backticks; use $( ) instead");
        }
        if (backticks == 1) {
            quoted = backslashed(quoted, "$`\\");
        }
        out.append(quoted);
        top.lineStart = false;
    }

    private boolean escapedBackslash(int index) {
        int run = 0;
        for (int j = index; j >= 0 && text.charAt(j) == '\\'; j--) {
            run++;
        }
        return run % 2 == 0;
    }

    private static String heredoc(String where, Frame frame, String value) {
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new Refused(where + " is in a here-document and its value holds a line break, which could end"
                    + " the document early");
        }
        return frame.quotedHeredoc ? value : backslashed(value, "$`\\");
    }

    private static String backslashed(String value, String specials) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (specials.indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /** Copies the shell text at {@code i} (one token's worth) and updates the state; returns the next index. */
    private int step(int i) {
        Frame top = stack.peek();
        char c = text.charAt(i);
        return switch (top.kind) {
            case TOP, SUBST, BACKTICK -> command(top, i, c);
            case SQ -> closeOn(i, c, '\'');
            case DQ -> doubleQuoted(i, c);
            case ANSIC -> c == '\\' ? copy(i, 2) : closeOn(i, c, '\'');
            case PARAM -> param(i, c);
            case ARITH -> arith(top, i, c);
            case DBRACKET -> text.startsWith("]]", i) ? pop(i, 2) : copy(i, 1);
            case COMMENT -> c == '\n' ? newline(i) : copy(i, 1);
            case HEREDOC -> heredocLine(top, i);
        };
    }

    private int command(Frame top, int i, char c) {
        boolean wordStart = i == 0 || " \t\n;&|()".indexOf(text.charAt(i - 1)) >= 0;
        if (c == '\\') {
            if (top.kind == Kind.BACKTICK) {
                // The backticks' own backslash pass (\` nests, \" unquotes inside "...") changes what the
                // inner command is; this lexer does not replay it.
                uncertain = "a backslash inside backticks";
            }
            return copy(i, 2);
        }
        if (c == '\'') {
            return push(i, 1, Kind.SQ);
        }
        if (c == '"') {
            return push(i, 1, Kind.DQ);
        }
        if (c == '`') {
            return top.kind == Kind.BACKTICK ? pop(i, 1) : push(i, 1, Kind.BACKTICK);
        }
        if (c == '$') {
            return dollar(i);
        }
        if (c == '#' && wordStart) {
            return push(i, 1, Kind.COMMENT);
        }
        if (text.startsWith("((", i) && wordStart) {
            return push(i, 2, Kind.ARITH);
        }
        if (text.startsWith("[[", i) && wordStart) {
            return push(i, 2, Kind.DBRACKET);
        }
        if (c == '(' && top.kind == Kind.SUBST) {
            top.parens++;
        }
        if (c == ')' && top.kind == Kind.SUBST) {
            if (top.parens == 0) {
                return pop(i, 1);
            }
            top.parens--;
        }
        if (text.startsWith("<<", i) && !text.startsWith("<<<", i)) {
            return heredocOperator(i);
        }
        if (top.kind == Kind.SUBST && wordStart && isWord(i, "case")) {
            // A case pattern's ")" cannot be told from the end of $( ) without a full parser.
            uncertain = "'case' inside $( )";
        }
        if (c == '\n') {
            return newline(i);
        }
        return copy(i, 1);
    }

    private int dollar(int i) {
        if (text.startsWith("$((", i)) {
            return push(i, 3, Kind.ARITH);
        }
        if (text.startsWith("$(", i)) {
            return push(i, 2, Kind.SUBST);
        }
        if (text.startsWith("${", i)) {
            return push(i, 2, Kind.PARAM);
        }
        if (text.startsWith("$'", i) && stack.peek().kind != Kind.DQ) {
            return push(i, 2, Kind.ANSIC);
        }
        return copy(i, 1);
    }

    private int doubleQuoted(int i, char c) {
        if (c == '\\') {
            return copy(i, 2);
        }
        if (c == '"') {
            return pop(i, 1);
        }
        if (c == '`') {
            return push(i, 1, Kind.BACKTICK);
        }
        if (c == '$') {
            return dollar(i);
        }
        return copy(i, 1);
    }

    private int param(int i, char c) {
        if (c == '}') {
            return pop(i, 1);
        }
        if (c == '\'' || c == '"' || c == '`' || c == '$' || c == '\\') {
            uncertain = "quoting or a substitution inside ${ }";
        }
        return copy(i, 1);
    }

    private int arith(Frame top, int i, char c) {
        if (c == '(') {
            top.parens++;
        } else if (c == ')') {
            if (top.parens == 0 && text.startsWith("))", i)) {
                return pop(i, 2);
            }
            top.parens = Math.max(0, top.parens - 1);
        }
        return copy(i, 1);
    }

    /** {@code <<WORD}, {@code <<-WORD}, {@code <<'WORD'}, {@code <<"WORD"}, {@code <<\WORD}: the body follows the line. */
    private int heredocOperator(int i) {
        int j = i + 2;
        boolean stripTabs = j < text.length() && text.charAt(j) == '-';
        if (stripTabs) {
            j++;
        }
        while (j < text.length() && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) {
            j++;
        }
        int start = j;
        while (j < text.length() && " \t\n;&|<>()".indexOf(text.charAt(j)) < 0) {
            j++;
        }
        String word = text.substring(start, j);
        if (word.contains("{{")) {
            throw new Refused("a template as a here-document's delimiter is not allowed");
        }
        boolean quoted = word.indexOf('\'') >= 0 || word.indexOf('"') >= 0 || word.indexOf('\\') >= 0;
        String delimiter = word.replace("'", "").replace("\"", "").replace("\\", "");
        if (!delimiter.isEmpty()) {
            pending.add(new Heredoc(delimiter, quoted, stripTabs));
        }
        out.append(text, i, j);
        return j;
    }

    private int heredocLine(Frame top, int i) {
        if (top.lineStart) {
            int end = text.indexOf('\n', i);
            String line = text.substring(i, end < 0 ? text.length() : end);
            String bare = top.stripTabs ? line.replaceFirst("^\t+", "") : line;
            if (bare.equals(top.delimiter)) {
                out.append(line);
                stack.pop();
                int next = end < 0 ? text.length() : end;
                openPendingHeredoc();
                return next;
            }
        }
        char c = text.charAt(i);
        if (!top.quotedHeredoc && (c == '`' || text.startsWith("$(", i) || text.startsWith("${", i))) {
            uncertain = "a substitution in a here-document";
        }
        if (!top.quotedHeredoc && c == '\\' && text.startsWith("{{", i + 1)) {
            out.append(c);
            top.lineStart = false;
            return i + 1;
        }
        if (!top.quotedHeredoc && c == '\\') {
            out.append(text, i, Math.min(i + 2, text.length()));
            top.lineStart = false;
            return i + 2;
        }
        out.append(c);
        top.lineStart = c == '\n';
        return i + 1;
    }

    private int newline(int i) {
        if (stack.peek().kind == Kind.COMMENT) {
            stack.pop();
        }
        out.append('\n');
        openPendingHeredoc();
        return i + 1;
    }

    private void openPendingHeredoc() {
        if (!pending.isEmpty() && (stack.peek().kind != Kind.HEREDOC)) {
            Heredoc next = pending.remove(0);
            stack.push(new Frame(Kind.HEREDOC, next.delimiter(), next.quoted(), next.stripTabs()));
        }
    }

    private boolean isWord(int i, String word) {
        int end = i + word.length();
        return text.startsWith(word, i) && (end == text.length() || " \t\n;".indexOf(text.charAt(end)) >= 0);
    }

    private int closeOn(int i, char c, char close) {
        return c == close ? pop(i, 1) : copy(i, 1);
    }

    private int copy(int i, int n) {
        int end = Math.min(i + n, text.length());
        if (end - i == 2 && text.startsWith("{{", i + 1)) {
            // A backslash right before a template: copy only the backslash, and let the template refuse.
            end = i + 1;
        }
        out.append(text, i, end);
        return end;
    }

    private int push(int i, int n, Kind kind) {
        out.append(text, i, i + n);
        stack.push(new Frame(kind));
        return i + n;
    }

    private int pop(int i, int n) {
        out.append(text, i, i + n);
        if (stack.size() > 1) {
            stack.pop();
        }
        return i + n;
    }

    private static String describe(Kind kind) {
        return switch (kind) {
            case TOP -> "the command";
            case SUBST -> "$( )";
            case BACKTICK -> "backticks";
            case SQ -> "single quotes";
            case DQ -> "double quotes";
            case PARAM -> "${ }";
            case ARITH -> "arithmetic (( ))";
            case DBRACKET -> "[[ ]]";
            case ANSIC -> "$' '";
            case COMMENT -> "a comment";
            case HEREDOC -> "a here-document";
        };
    }
}
