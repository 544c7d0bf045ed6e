package dev.fleetfix.rollout.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ChangeWindowTest {
    // 2026-11-28 is a Saturday.
    private static boolean open(String window, String instant) {
        return ChangeWindow.parse(window).isOpen(Instant.parse(instant), ZoneOffset.UTC);
    }

    @Test
    void dayTimeAndZone() {
        String w = "Sat 01:00-05:00 Europe/Berlin";
        assertThat(open(w, "2026-11-28T00:00:00Z")).as("01:00 Berlin").isTrue();
        assertThat(open(w, "2026-11-27T23:59:00Z")).as("00:59 Berlin").isFalse();
        assertThat(open(w, "2026-11-28T03:59:59Z")).as("04:59:59 Berlin").isTrue();
        assertThat(open(w, "2026-11-28T04:00:00Z"))
                .as("05:00 Berlin, end exclusive")
                .isFalse();
        assertThat(open(w, "2026-11-29T01:00:00Z")).as("Sunday").isFalse();
    }

    @Test
    void dayRangesAndLists() {
        assertThat(open("Mon-Fri 09:00-17:00 UTC", "2026-11-27T10:00:00Z")).isTrue();
        assertThat(open("Mon-Fri 09:00-17:00 UTC", "2026-11-28T10:00:00Z")).isFalse();
        assertThat(open("Sat,Sun 00:00-24:00", "2026-11-29T23:59:00Z")).isTrue();
        assertThat(open("Fri-Mon 00:00-24:00", "2026-11-30T12:00:00Z"))
                .as("wraps the week")
                .isTrue();
        assertThat(open("daily 02:00-04:00", "2026-11-25T03:00:00Z")).isTrue();
    }

    @Test
    void crossingMidnightBelongsToTheStartDay() {
        String w = "Fri 22:00-02:00 UTC";
        assertThat(open(w, "2026-11-27T23:00:00Z")).as("Fri 23:00").isTrue();
        assertThat(open(w, "2026-11-28T01:30:00Z")).as("Sat 01:30").isTrue();
        assertThat(open(w, "2026-11-28T02:00:00Z")).as("Sat 02:00").isFalse();
        assertThat(open(w, "2026-11-27T01:00:00Z")).as("Fri 01:00").isFalse();
    }

    @Test
    void withoutZoneUsesTheClocksZone() {
        ChangeWindow w = ChangeWindow.parse("Sat 01:00-05:00");
        Instant i = Instant.parse("2026-11-28T00:30:00Z");
        assertThat(w.isOpen(i, ZoneOffset.UTC)).isFalse();
        assertThat(w.isOpen(i, ZoneOffset.ofHours(1))).isTrue();
    }

    @Test
    void errorsSayWhatIsWrong() {
        assertThatThrownBy(() -> ChangeWindow.parse("Sat 01:00-05:00 Mars/Olympus"))
                .hasMessageContaining("unknown time zone 'Mars/Olympus'");
        assertThatThrownBy(() -> ChangeWindow.parse("Caturday 01:00-05:00")).hasMessageContaining("unknown day");
        assertThatThrownBy(() -> ChangeWindow.parse("Sat 1am-5am")).hasMessageContaining("cannot read time");
        assertThatThrownBy(() -> ChangeWindow.parse("Sat")).hasMessageContaining("expected DAYS HH:MM-HH:MM");
    }

    @Test
    void localTimeForMessages() {
        assertThat(ChangeWindow.parse("Sat 01:00-05:00 Europe/Berlin")
                        .localTime(Instant.parse("2026-11-30T09:42:00Z"), ZoneOffset.UTC))
                .isEqualTo("Mon 10:42 Europe/Berlin");
    }
}
