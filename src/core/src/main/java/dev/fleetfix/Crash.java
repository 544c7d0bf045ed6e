package dev.fleetfix;

/**
 * Words for what escaped one host's work unexpected: a bug, a library's own failure, or an
 * {@link Error} of the JVM's (a stack or heap exhausted). Such a failure stops that host, with this
 * line, and the run goes on with the others: its recap, reports and journal are still written.
 */
public final class Crash {
    private Crash() {}

    /** "internal error: StackOverflowError", with the throwable's message when it has one. */
    public static String describe(Throwable crash) {
        String message = crash.getMessage();
        String name = crash.getClass().getSimpleName();
        return "internal error: " + (message == null || message.isBlank() ? name : name + ": " + message);
    }
}
