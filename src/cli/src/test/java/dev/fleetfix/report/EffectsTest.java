package dev.fleetfix.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.checks.ThpEra;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.MetricReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A change's text never contradicts its verdict silently: an interval that leaves out "no change" beside an
 * "inconclusive" badge says what kept the figure from deciding.
 */
class EffectsTest {
    private static MetricReport rps(double ratio, double low, double high, String verdict, double adjustedP) {
        return rps(ratio, low, high, verdict, adjustedP, null, null);
    }

    private static MetricReport rps(
            double ratio, double low, double high, String verdict, double adjustedP, String withheld, String reason) {
        return new MetricReport(
                "rps",
                List.of(),
                List.of(),
                100,
                100 * ratio,
                0,
                0,
                ratio,
                verdict,
                "batch",
                8,
                8,
                low,
                high,
                adjustedP / 2,
                adjustedP,
                null,
                0.05,
                true,
                null,
                100.0,
                100 * ratio,
                withheld,
                reason);
    }

    @Test
    void aChangeWithheldForTheMachinesDriftSaysWhyNotThatItIsInsignificant() {
        assertThat(Effects.of(rps(
                        0.70,
                        0.62,
                        0.78,
                        "inconclusive",
                        0.0001,
                        "would be regressed, but the load rose",
                        "this machine's own load drifted (the load rose)")))
                .isEqualTo("−30 % [−38 %, −22 %] (inconclusive: would be regressed, but the load rose)");
    }

    @Test
    void anIntervalBeyondNoChangeJudgedInconclusiveNamesTheTest() {
        // the lab recap that read "rps −39 % [−62 %, −4 %]" beside "within noise"
        String why = "not significant after correction (p 0.083 after Holm over 5 figures, level 0.01)";
        assertThat(Effects.of(rps(0.61, 0.38, 0.96, "inconclusive", 0.083, null, why)))
                .isEqualTo("−39 % [−62 %, −4 %] (inconclusive: " + why + ")");
    }

    @Test
    void aChangeInsideTheFloorSaysSo() {
        assertThat(Effects.of(rps(0.97, 0.955, 0.99, "no_change_detected", 0.001)))
                .isEqualTo("−3 % [−5 %, −1 %] (within the ±5 % effect floor)");
    }

    @Test
    void agreeingFiguresNeedNoWord() {
        assertThat(Effects.of(rps(0.61, 0.38, 0.96, "regressed", 0.001))).isEqualTo("−39 % [−62 %, −4 %]");
        assertThat(Effects.of(rps(0.95, 0.80, 1.10, "inconclusive", 0.4, null, "interval too wide")))
                .isEqualTo("−5 % [−20 %, +10 %]");
    }

    private static HostReport host(Map<String, String> facts) {
        return new HostReport("lab-1", "done", "", 0, facts, null, null, List.of(), null);
    }

    /** Regression: the lab's emulated THP got only the kernel era's text, which never said why nothing moved. */
    @Test
    void aThpFileThatIsNotTheKernelsComesBeforeTheKernelEra() {
        String expected = Effects.expectation(host(Map.of("kernel", "6.18.0", "thp.filesystem", "ext2/ext3")))
                .orElseThrow();

        assertThat(expected)
                .startsWith("THP here is not the kernel's (not on sysfs: ext2/ext3): a benchmark cannot show a THP"
                        + " effect; ")
                .endsWith(ThpEra.expectation("6.18.0", Optional.empty()));
    }

    @Test
    void onSysfsOrWithoutTheFactOnlyTheKernelEraIsSaid() {
        assertThat(Effects.expectation(host(Map.of("kernel", "6.18.0", "thp.filesystem", "sysfs"))))
                .hasValue(ThpEra.expectation("6.18.0", Optional.empty()));
        assertThat(Effects.expectation(host(Map.of("kernel", "4.19.0", "redis.disable_thp", "no"))))
                .hasValue(ThpEra.expectation("4.19.0", Optional.of(false)));
        assertThat(Effects.expectation(host(Map.of("thp.filesystem", "ext4")))).isEmpty();
    }
}
