package dev.fleetfix.playbook;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A small POSIX {@code sh} lexer for {@link ShellSplice}: it copies shell text one token at a time and knows, at each
 * point, the place it is in (bare, {@code '...'}, {@code "..."}, {@code $( )}, backticks, a here-document, and the
 * places where no quoting helps) and whether it still follows the text ({@link #uncertain}). It knows a template
 * ({@code {{ }}}) only as a place not to copy a backslash into.
 */
final class ShellLexer {
    /** Where the lexer is: the kind of the innermost construct open. */
    enum Place {
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

    private static final class Frame {
        final Place kind;
        int parens;
        final String delimiter;
        final boolean quotedHeredoc;
        final boolean stripTabs;
        boolean lineStart = true;

        Frame(Place kind) {
            this(kind, null, false, false);
        }

        Frame(Place kind, String delimiter, boolean quotedHeredoc, boolean stripTabs) {
            this.kind = kind;
            this.delimiter = delimiter;
            this.quotedHeredoc = quotedHeredoc;
            this.stripTabs = stripTabs;
        }
    }

    private record Heredoc(String delimiter, boolean quoted, boolean stripTabs) {}

    private final String text;
    private final StringBuilder out = new StringBuilder();
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final List<Heredoc> pending = new ArrayList<>();
    private String uncertain;

    ShellLexer(String text) {
        this.text = text;
        stack.push(new Frame(Place.TOP));
    }

    /** The innermost place open. */
    Place place() {
        return stack.peek().kind;
    }

    /** Whether the innermost place is a here-document whose delimiter is quoted ({@code <<'EOF'}): no expansion. */
    boolean quotedHeredoc() {
        return stack.peek().quotedHeredoc;
    }

    /** How many backticks are open around the current place. */
    long backticks() {
        return stack.stream().filter(f -> f.kind == Place.BACKTICK).count();
    }

    /** The first construct met whose quoting this lexer does not follow, or null. */
    String uncertain() {
        return uncertain;
    }

    /** Appends text that is not the input's (a spliced value) at the current place. */
    void append(String spliced) {
        out.append(spliced);
        stack.peek().lineStart = false;
    }

    /** What was copied and appended so far. */
    String output() {
        return out.toString();
    }

    /** Copies the shell text at {@code i} (one token's worth) and updates the state; returns the next index. */
    int step(int i) {
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
            return backslash(top, i);
        }
        if (c == '\'') {
            return push(i, 1, Place.SQ);
        }
        if (c == '"') {
            return push(i, 1, Place.DQ);
        }
        if (c == '`') {
            return top.kind == Place.BACKTICK ? pop(i, 1) : push(i, 1, Place.BACKTICK);
        }
        if (c == '$') {
            return dollar(i);
        }
        if (c == '#' && wordStart) {
            return push(i, 1, Place.COMMENT);
        }
        if (text.startsWith("((", i) && wordStart) {
            return push(i, 2, Place.ARITH);
        }
        if (text.startsWith("[[", i) && wordStart) {
            return push(i, 2, Place.DBRACKET);
        }
        if (c == '(' && top.kind == Place.SUBST) {
            top.parens++;
        }
        if (c == ')' && top.kind == Place.SUBST) {
            if (top.parens == 0) {
                return pop(i, 1);
            }
            top.parens--;
        }
        if (text.startsWith("<<", i) && !text.startsWith("<<<", i)) {
            return heredocOperator(i);
        }
        if (top.kind == Place.SUBST && wordStart && isWord(i, "case")) {
            // A case pattern's ")" cannot be told from the end of $( ) without a full parser.
            uncertain = "'case' inside $( )";
        }
        if (c == '\n') {
            return newline(i);
        }
        return copy(i, 1);
    }

    private int backslash(Frame top, int i) {
        if (top.kind == Place.BACKTICK) {
            // The backticks' own backslash pass (\` nests, \" unquotes inside "...") changes what the
            // inner command is; this lexer does not replay it.
            uncertain = "a backslash inside backticks";
        }
        return copy(i, 2);
    }

    private int dollar(int i) {
        if (text.startsWith("$((", i)) {
            return push(i, 3, Place.ARITH);
        }
        if (text.startsWith("$(", i)) {
            return push(i, 2, Place.SUBST);
        }
        if (text.startsWith("${", i)) {
            return push(i, 2, Place.PARAM);
        }
        if (text.startsWith("$'", i) && stack.peek().kind != Place.DQ) {
            return push(i, 2, Place.ANSIC);
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
            return push(i, 1, Place.BACKTICK);
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
            throw new ShellSplice.Refused("a template as a here-document's delimiter is not allowed");
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
        if (stack.peek().kind == Place.COMMENT) {
            stack.pop();
        }
        out.append('\n');
        openPendingHeredoc();
        return i + 1;
    }

    private void openPendingHeredoc() {
        if (!pending.isEmpty() && (stack.peek().kind != Place.HEREDOC)) {
            Heredoc next = pending.remove(0);
            stack.push(new Frame(Place.HEREDOC, next.delimiter(), next.quoted(), next.stripTabs()));
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

    private int push(int i, int n, Place kind) {
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

    static String describe(Place kind) {
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
