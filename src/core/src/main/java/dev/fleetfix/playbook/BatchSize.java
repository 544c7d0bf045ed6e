package dev.fleetfix.playbook;

/** One entry of a play's {@code serial}: a host count or a percentage of the play's hosts. */
public sealed interface BatchSize {

    /** How many hosts this entry means for a play of {@code total} hosts; at least 1. */
    int hostsOf(int total);

    /** {@code serial: 3} */
    record Count(int hosts) implements BatchSize {
        public Count {
            if (hosts < 1) {
                throw new IllegalArgumentException("serial: a host count must be >= 1, was " + hosts);
            }
        }

        @Override
        public int hostsOf(int total) {
            return hosts;
        }

        @Override
        public String toString() {
            return Integer.toString(hosts);
        }
    }

    /** {@code serial: "25%"}: rounded down as Ansible does, but never below one host. */
    record Percent(int percent) implements BatchSize {
        public Percent {
            if (percent < 1 || percent > 100) {
                throw new IllegalArgumentException("serial: a percentage must be 1..100, was " + percent + "%");
            }
        }

        @Override
        public int hostsOf(int total) {
            return Math.max(1, total * percent / 100);
        }

        @Override
        public String toString() {
            return percent + "%";
        }
    }
}
