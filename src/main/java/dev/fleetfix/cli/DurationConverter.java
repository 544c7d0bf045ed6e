package dev.fleetfix.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations written as {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}. */
public final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        Matcher m = DURATION.matcher(value == null ? "" : value.strip());
        if (!m.matches()) {
            throw new TypeConversionException(
                    "invalid duration '" + value + "': expected a whole number and a unit (ms, s, m, h), e.g. 10s");
        }
        long amount;
        try {
            amount = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("invalid duration '" + value + "': number too large");
        }
        Duration duration;
        try {
            duration = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        } catch (ArithmeticException e) {
            throw new TypeConversionException("invalid duration '" + value + "': number too large");
        }
        if (duration.isZero()) {
            throw new TypeConversionException("invalid duration '" + value + "': must be more than zero");
        }
        return duration;
    }
}
