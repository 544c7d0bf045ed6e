package dev.fleetfix.bench.verdict.stats;

import java.util.List;
import org.apache.commons.statistics.inference.BinomialTest;

/**
 * What the hosts' after/before ratios of one figure say about the fleet: their geometric mean with
 * a Student-t interval on the log scale, and an exact two-sided sign test of how many went up.
 *
 * <p>Each host is one observation: a fleet verdict rests on how consistently hosts moved, not on
 * whether any single host moved, so one noisy host cannot colour the whole fleet.
 *
 * @param hosts how many hosts had a ratio
 * @param ratio geometric mean of the ratios
 * @param low lower bound of the 95 % interval (NaN with fewer than 2 hosts)
 * @param high upper bound of the 95 % interval (NaN with fewer than 2 hosts)
 * @param up hosts whose ratio is above 1
 * @param down hosts whose ratio is below 1
 * @param signP two-sided exact sign-test p-value over the hosts that moved
 */
public record HostEffects(int hosts, double ratio, double low, double high, int up, int down, double signP) {

    /**
     * Two-sided 97.5 % quantiles of Student's t for 1..30 degrees of freedom, as printed tables round them: the fleet
     * intervals are pinned to these three decimals, which Commons' exact {@code TDistribution} quantile would move.
     */
    private static final double[] T975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042
    };

    public boolean excludesOne() {
        return low > 1 || high < 1;
    }

    public static HostEffects of(List<Double> ratios) {
        double[] logs = ratios.stream()
                .filter(r -> r > 0 && Double.isFinite(r))
                .mapToDouble(Math::log)
                .toArray();
        int n = logs.length;
        if (n == 0) {
            return new HostEffects(0, Double.NaN, Double.NaN, Double.NaN, 0, 0, 1);
        }
        double mean = 0;
        int up = 0;
        int down = 0;
        for (double l : logs) {
            mean += l / n;
            up += l > 0 ? 1 : 0;
            down += l < 0 ? 1 : 0;
        }
        double low = Double.NaN;
        double high = Double.NaN;
        if (n >= 2) {
            double ss = 0;
            for (double l : logs) {
                ss += (l - mean) * (l - mean);
            }
            double half = t975(n - 1) * Math.sqrt(ss / (n - 1) / n);
            low = Math.exp(mean - half);
            high = Math.exp(mean + half);
        }
        return new HostEffects(n, Math.exp(mean), low, high, up, down, signTest(up, down));
    }

    static double t975(int df) {
        return df <= T975.length ? T975[df - 1] : 1.96 + 2.4 / df; // within 0.01 of the true value above 30
    }

    /** Exact two-sided binomial(1/2) p-value of {@code up} against {@code down}. */
    static double signTest(int up, int down) {
        int n = up + down;
        if (n == 0) {
            return 1;
        }
        return BinomialTest.withDefaults().test(n, up, 0.5).getPValue();
    }
}
