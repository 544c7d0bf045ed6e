package dev.fleetfix.report.console;

import dev.fleetfix.steps.model.StepStatus;

/** ANSI styles, or plain text when colour is off. */
record Ansi(boolean on) {
    String wrap(String code, String text) {
        return on ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }

    String bold(String t) {
        return wrap("1", t);
    }

    String green(String t) {
        return wrap("32", t);
    }

    String yellow(String t) {
        return wrap("33", t);
    }

    String red(String t) {
        return wrap("31", t);
    }

    String status(StepStatus s, String t) {
        return switch (s) {
            case OK -> green(t);
            case CHANGED -> yellow(t);
            case SKIPPED -> wrap("36", t);
            case FAILED, UNREACHABLE -> red(t);
        };
    }

    String diffLine(String l) {
        if (l.startsWith("+") && !l.startsWith("+++")) {
            return green(l);
        }
        if (l.startsWith("-") && !l.startsWith("---")) {
            return red(l);
        }
        return l;
    }
}
