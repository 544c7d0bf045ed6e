package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

    private final DurationConverter converter = new DurationConverter();

    @ParameterizedTest
    @CsvSource({"10s, PT10S", "500ms, PT0.5S", "2m, PT2M", "1h, PT1H", "90s, PT1M30S", "' 3s ', PT3S"})
    void parsesNumberAndUnit(String text, Duration expected) {
        assertThat(converter.convert(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10", "ten seconds", "10x", "-5s", "1.5s", "", "s", "0s"})
    void rejectsAnythingElseNamingTheValue(String text) {
        assertThatThrownBy(() -> converter.convert(text))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("'" + text + "'");
    }
}
