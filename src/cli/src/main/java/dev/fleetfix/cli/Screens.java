package dev.fleetfix.cli;

import dev.fleetfix.report.console.Screen;

/** The screen of this process: a terminal when the JVM has a console (neither piped nor redirected). */
public final class Screens {
    private Screens() {}

    public static Screen of() {
        return Screen.of(System.console() != null, System.getenv());
    }
}
