package dev.fleetfix.cli;

import dev.fleetfix.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations written as {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h} ({@link Durations}). */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        try {
            return Durations.parse(value, false);
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
