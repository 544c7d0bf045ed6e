package dev.fleetfix.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PercentileAxisTest {
    @Test
    void eachNineTakesTheSameWidth() {
        assertThat(PercentileAxis.nines(0)).isEqualTo(0.0);
        assertThat(PercentileAxis.nines(90)).isCloseTo(1, within(1e-9));
        assertThat(PercentileAxis.nines(99)).isCloseTo(2, within(1e-9));
        assertThat(PercentileAxis.nines(99.9)).isCloseTo(3, within(1e-9));
        assertThat(PercentileAxis.nines(99.99)).isCloseTo(4, within(1e-9));
        assertThat(PercentileAxis.nines(50)).isCloseTo(Math.log10(2), within(1e-9));
        assertThat(PercentileAxis.nines(100)).isInfinite();
    }

    @Test
    void ticksAreLabelledAsHdrHistogramPlots() {
        assertThat(List.of(0, 1, 2, 3, 4, 5).stream().map(PercentileAxis::label))
                .containsExactly("0%", "90%", "99%", "99.9%", "99.99%", "99.999%");
    }

    @Test
    void theAxisReachesOneNineBeyondTheDeepestPercentileAndTheMaximumSitsAtItsEnd() {
        assertThat(PercentileAxis.span(List.of(50.0, 99.0, 100.0))).isEqualTo(3);
        assertThat(PercentileAxis.span(List.of(50.0, 99.99, 100.0))).isEqualTo(5);
        assertThat(PercentileAxis.span(List.of(99.999999999))).isEqualTo(PercentileAxis.MAX_NINES);
        assertThat(PercentileAxis.position(100, 5)).isEqualTo(5.0);
        assertThat(PercentileAxis.position(99.9, 5)).isCloseTo(3, within(1e-9));
    }

    @Test
    void rejectsPercentilesOutsideTheRange() {
        assertThatThrownBy(() -> PercentileAxis.nines(101)).hasMessageContaining("101");
        assertThatThrownBy(() -> PercentileAxis.nines(Double.NaN)).hasMessageContaining("NaN");
    }

    @Test
    void chartPointsGrowToTheRightWithThePercentile() {
        String points = LatencyChart.points(
                List.of(
                        new dev.fleetfix.report.model.LatencyPointReport(0, 0),
                        new dev.fleetfix.report.model.LatencyPointReport(90, 1),
                        new dev.fleetfix.report.model.LatencyPointReport(100, 2)),
                3,
                2);
        String[] xy = points.split(" ");
        assertThat(xy).hasSize(3);
        double x0 = Double.parseDouble(xy[0].split(",")[0]);
        double x1 = Double.parseDouble(xy[1].split(",")[0]);
        double x2 = Double.parseDouble(xy[2].split(",")[0]);
        // 90% is a third of the way to the end of a 3-nines axis
        assertThat((x1 - x0) / (x2 - x0)).isCloseTo(1.0 / 3, within(1e-3));
        assertThat(LatencyChart.niceStep(0.7)).isEqualTo(1.0);
        assertThat(LatencyChart.niceStep(31)).isEqualTo(50.0);
    }
}
