package dev.fleetfix.report.model;

/**
 * What the hosts' after/before ratios of one figure say together.
 *
 * @param hosts how many hosts had the figure decisive
 * @param ratio geometric mean of their ratios
 * @param low lower bound of the 95 % Student-t interval of that mean (log scale); null with one host
 * @param high upper bound; null with one host
 * @param up hosts whose ratio is above 1
 * @param down hosts whose ratio is below 1
 * @param signP exact two-sided sign-test p-value of up against down
 * @param verdict the fleet's verdict on this figure
 */
public record FleetEffectReport(
        int hosts, double ratio, Double low, Double high, int up, int down, double signP, String verdict) {}
