package dev.fleetfix.transport;

/** POSIX shell quoting for values spliced into remote command lines. */
public final class ShellQuote {
    private ShellQuote() {}

    /**
     * Quotes a value so that {@code sh} reads it back as exactly one word, whatever it holds:
     * single quotes around it, and each embedded single quote closed, escaped and reopened.
     */
    public static String quote(String value) {
        if (!value.isEmpty() && value.chars().allMatch(ShellQuote::isSafe)) {
            return value;
        }
        return "'" + value.replace("'", "'\"'\"'") + "'";
    }

    private static boolean isSafe(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.'
                || c == '/'
                || c == ':'
                || c == '='
                || c == '@'
                || c == ','
                || c == '+';
    }
}
