package dev.fleetfix.cli;

/**
 * A command that can print JSON on standard output: when it was asked to ({@code --format json}, {@code --json}),
 * {@link ErrorHandler} prints an error as a JSON document there too (report/files/ErrorJson), so that a script reading
 * stdout is never left with nothing.
 */
interface JsonOutput {
    /** Whether the command line asked for JSON (as far as it was parsed). */
    boolean jsonAsked();

    /** Whether raw arguments ask for JSON: {@code --json}, {@code --format json}, {@code --format=json}. */
    static boolean asked(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--json")
                    || arg.equalsIgnoreCase("--format=json")
                    || (arg.equals("--format") && i + 1 < args.length && args[i + 1].equalsIgnoreCase("json"))) {
                return true;
            }
        }
        return false;
    }
}
