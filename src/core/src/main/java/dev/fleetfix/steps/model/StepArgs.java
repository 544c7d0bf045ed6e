package dev.fleetfix.steps.model;

import dev.fleetfix.Durations;
import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.Step;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A step's resolved arguments for one host, with typed getters whose errors name the step's
 * file:line:column.
 */
public record StepArgs(Step step, Host host) {

    public Map<String, Object> raw() {
        return step.args();
    }

    public boolean has(String name) {
        return step.args().containsKey(name);
    }

    public Optional<String> text(String name) {
        Object value = step.args().get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof Map || value instanceof List) {
            throw error(name + ": expected text, found " + (value instanceof Map ? "a mapping" : "a list"));
        }
        return Optional.of(value.toString());
    }

    public String text(String name, String fallback) {
        return text(name).orElse(fallback);
    }

    public boolean bool(String name, boolean fallback) {
        Object value = step.args().get(name);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().strip().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw error(name + ": expected true or false, was '" + value + "'");
        };
    }

    public Duration duration(String name, Duration fallback) {
        Object value = step.args().get(name);
        return value == null ? fallback : parseDuration(name, value);
    }

    /** "60s", "250ms", "2m", "1h", or a bare number of seconds. */
    public Duration parseDuration(String name, Object value) {
        try {
            return Durations.parse(value.toString(), true);
        } catch (Durations.InvalidDuration e) {
            throw error(
                    switch (e.problem()) {
                        case MALFORMED -> name + ": expected a duration like 60s, 250ms or 2m, was '" + value + "'";
                        case TOO_LARGE -> name + ": '" + value + "' is too large for a duration";
                        case NOT_POSITIVE -> name + ": must be positive, was '" + value + "'";
                    });
        }
    }

    public List<?> list(String name) {
        Object value = step.args().get(name);
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list;
        }
        return List.of(value);
    }

    /** One of the allowed words, lower-cased. */
    public String choice(String name, String fallback, List<String> allowed) {
        String value = text(name, fallback).strip().toLowerCase(Locale.ROOT);
        // YAML 1.1 reads a bare off/on as a boolean: topology: off arrives as false
        if (raw().get(name) instanceof Boolean flag && allowed.contains(flag ? "on" : "off")) {
            value = flag ? "on" : "off";
        }
        if (!allowed.contains(value)) {
            throw error(name + ": expected one of " + String.join(", ", allowed) + ", was '" + value + "'");
        }
        return value;
    }

    public InputException error(String message) {
        return step.location().error(step.type() + " (host " + host.name() + "): " + message);
    }
}
