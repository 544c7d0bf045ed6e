package dev.fleetfix.bench.verdict.stats;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Holm's step-down correction: p-values adjusted so that rejecting every adjusted p below alpha
 * keeps the chance of any false rejection among the family at most alpha, whatever the
 * dependence between the tests (the figures of one benchmark are strongly dependent).
 */
public final class Holm {
    private Holm() {}

    /** The adjusted p-values, in the order given. */
    public static double[] adjust(double[] p) {
        int m = p.length;
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
            if (!(p[i] >= 0 && p[i] <= 1)) {
                throw new IllegalArgumentException("p-value must be in [0, 1], was " + p[i]);
            }
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
        double[] adjusted = new double[m];
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            int i = order[rank];
            running = Math.max(running, Math.min(1, (m - rank) * p[i]));
            adjusted[i] = running;
        }
        return adjusted;
    }
}
