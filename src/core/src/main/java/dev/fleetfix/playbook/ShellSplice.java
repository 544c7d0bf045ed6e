package dev.fleetfix.playbook;

import dev.fleetfix.playbook.ShellLexer.Place;
import dev.fleetfix.transport.ShellQuote;
import java.util.function.Function;

/**
 * Splices template values into shell text so that each stays one inert string, whatever quoting
 * the template sits in. A small POSIX {@code sh} lexer ({@link ShellLexer}) walks the text and knows, at each {@code {{
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
    /** A template that cannot be spliced here; the message says why. */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    private final String text;
    private final Function<String, String> values;
    private final ShellLexer lexer;
    private int templates;

    private ShellSplice(String text, Function<String, String> values) {
        this.text = text;
        this.values = values;
        this.lexer = new ShellLexer(text);
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
            i = lexer.step(i);
        }
        Place end = lexer.place();
        if (templates > 0 && end != Place.TOP && end != Place.COMMENT && end != Place.HEREDOC) {
            throw new Refused("the command ends inside " + ShellLexer.describe(end)
                    + "; close it so that the quoting of its templates is known");
        }
        return lexer.output();
    }

    private void splice(int at, String expression) {
        templates++;
        String value = values.apply(expression);
        Place place = lexer.place();
        String where = "the template at character " + (at + 1);
        if (at > 0 && text.charAt(at - 1) == '\\' && place != Place.SQ && !escapedBackslash(at - 1)) {
            throw new Refused(where + " follows a backslash, which would unquote the first character of its value;"
                    + " remove the backslash");
        }
        if (lexer.uncertain() != null) {
            throw new Refused(where + " comes after " + lexer.uncertain() + ", whose quoting fleetfix does not follow;"
                    + " pass the value another way (a file, or an environment variable)");
        }
        String quoted =
                switch (place) {
                    case TOP, SUBST, BACKTICK -> ShellQuote.quote(value);
                    case SQ -> value.replace("'", "'\\''");
                    case DQ -> backslashed(value, "$`\\\"");
                    case HEREDOC -> heredoc(where, lexer.quotedHeredoc(), value);
                    default -> throw new Refused(where + " is inside " + ShellLexer.describe(place)
                            + ", where no quoting keeps a value inert; use a plain argument instead");
                };
        // The backticks' own pass removes one level of backslashes before the inner command is read.
        long backticks = lexer.backticks();
        if (backticks > 1) {
            throw new Refused(where + " is inside nested backticks; use $( ) instead");
        }
        lexer.append(backticks == 1 ? backslashed(quoted, "$`\\") : quoted);
    }

    private boolean escapedBackslash(int index) {
        int run = 0;
        for (int j = index; j >= 0 && text.charAt(j) == '\\'; j--) {
            run++;
        }
        return run % 2 == 0;
    }

    private static String heredoc(String where, boolean quotedHeredoc, String value) {
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new Refused(where + " is in a here-document and its value holds a line break, which could end"
                    + " the document early");
        }
        return quotedHeredoc ? value : backslashed(value, "$`\\");
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
}
