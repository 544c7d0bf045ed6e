package dev.fleetfix.cli;

import org.slf4j.LoggerFactory;

/**
 * Maps {@code -v}/{@code -vv} to log levels. Libraries (SSHJ, Testcontainers) log through SLF4J's
 * simple logger, which reads its level once, so this runs before anything logs.
 */
final class Verbosity {
    private Verbosity() {}

    static int count(String[] args) {
        int count = 0;
        for (String arg : args) {
            if (arg.equals("--verbose")) {
                count++;
            } else if (arg.matches("-v+")) {
                count += arg.length() - 1;
            }
        }
        return count;
    }

    static void configureLogging(String[] args) {
        int v = count(args);
        // Below -vv libraries stay silent: their failures reach the user as one mapped line.
        String level = v >= 3 ? "debug" : v == 2 ? "info" : "off";
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        // Initialise SLF4J here, on one thread: when parallel host threads (--forks) race to do it, SLF4J
        // replays their early calls and prints a three-line warning about it.
        LoggerFactory.getILoggerFactory();
    }
}
