package dev.fleetfix.cli;

import dev.fleetfix.Durations;
import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations written as {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h} ({@link Durations}). */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /** As the converter, and a bare number is seconds ({@code -T 30}, Ansible's unit). */
    public static final class SecondsByDefault implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return parse(value, true);
        }
    }

    /** OpenSSH's ControlPersist words: {@code no} or {@code 0} off, {@code yes} until closed, else a time. */
    public static final class ControlPersist implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(java.util.Locale.ROOT);
            return switch (v) {
                case "no", "0" -> Duration.ZERO;
                case "yes" -> AnsibleEnvironment.PERSIST_UNTIL_STOPPED;
                default -> parse(v, true);
            };
        }
    }

    public static Duration parse(String value) {
        return parse(value, false);
    }

    private static Duration parse(String value, boolean bareSeconds) {
        try {
            return Durations.parse(value, bareSeconds);
        } catch (Durations.InvalidDuration e) {
            throw new TypeConversionException(
                    switch (e.problem()) {
                        case MALFORMED -> "invalid duration '" + value
                                + "': expected a whole number and a unit (ms, s, m, h), e.g. 10s";
                        case TOO_LARGE -> "invalid duration '" + value + "': number too large";
                        case NOT_POSITIVE -> "invalid duration '" + value + "': must be more than zero";
                    });
        }
    }
}
