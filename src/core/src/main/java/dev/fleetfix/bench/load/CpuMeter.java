package dev.fleetfix.bench.load;

import dev.fleetfix.bench.ClientCpu;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads how much CPU this machine and this process have used, so a round can say whether the
 * load generator had the CPU it needed. Tests use {@link #NONE}.
 */
public interface CpuMeter {

    /** Counters at one moment: this process's CPU nanoseconds, and the machine's busy and total ticks. */
    record Reading(long wallNanos, long processNanos, long busyTicks, long totalTicks) {}

    /** Measures nothing: rounds carry no client CPU figure. */
    CpuMeter NONE = () -> Optional.empty();

    Optional<Reading> read();

    /** The share of the CPU used between two readings. */
    static ClientCpu between(Reading start, Reading end) {
        int cores = Runtime.getRuntime().availableProcessors();
        double wall = Math.max(1, end.wallNanos() - start.wallNanos());
        double process = Math.max(0, end.processNanos() - start.processNanos()) / (wall * cores);
        long total = end.totalTicks() - start.totalTicks();
        double machine = total > 0 ? (end.busyTicks() - start.busyTicks()) / (double) total : Double.NaN;
        return new ClientCpu(Math.min(1, process), machine);
    }

    /** This JVM's CPU time from the platform MXBean and the machine's from {@code /proc/stat} (Linux). */
    static CpuMeter system() {
        return () -> {
            if (!(ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os)) {
                return Optional.empty();
            }
            long process = os.getProcessCpuTime();
            if (process < 0) {
                return Optional.empty();
            }
            long busy = -1;
            long total = -1;
            try {
                // first line: "cpu  user nice system idle iowait irq softirq steal ..." in ticks
                String[] f =
                        Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                total = 0;
                for (int i = 1; i < f.length && i <= 8; i++) {
                    total += Long.parseLong(f[i]);
                }
                busy = total - Long.parseLong(f[4]) - (f.length > 5 ? Long.parseLong(f[5]) : 0);
            } catch (IOException | RuntimeException e) {
                // not Linux or not readable: the process share alone still tells a lot
            }
            return Optional.of(new Reading(System.nanoTime(), process, busy, total));
        };
    }
}
