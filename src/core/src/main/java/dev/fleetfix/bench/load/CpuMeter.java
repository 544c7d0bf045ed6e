package dev.fleetfix.bench.load;

import dev.fleetfix.bench.ClientCpu;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads how much CPU this machine and this process have used, so a round can say whether the
 * load generator had the CPU it needed. Tests use {@link #NONE}.
 */
public interface CpuMeter {

    /**
     * Counters at one moment: this process's CPU nanoseconds, the machine's busy and total ticks, and each of this
     * process's threads' scheduler times (empty when the system keeps none).
     */
    record Reading(long wallNanos, long processNanos, long busyTicks, long totalTicks, Map<Integer, RunTimes> threads) {
        public Reading {
            threads = Map.copyOf(threads);
        }
    }

    /** One thread's nanoseconds on a core and waiting for one (run delay), from its {@code schedstat}. */
    record RunTimes(long running, long waiting) {}

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
        return new ClientCpu(Math.min(1, process), machine, waitShare(start.threads(), end.threads()));
    }

    /**
     * Of the time this process's threads were ready to run between two readings, the share they waited: summed
     * over the threads alive at the end (one that started since counts from zero; one that ended is left out).
     */
    static double waitShare(Map<Integer, RunTimes> start, Map<Integer, RunTimes> end) {
        long running = 0;
        long waiting = 0;
        for (Map.Entry<Integer, RunTimes> thread : end.entrySet()) {
            RunTimes from = start.getOrDefault(thread.getKey(), new RunTimes(0, 0));
            running += Math.max(0, thread.getValue().running() - from.running());
            waiting += Math.max(0, thread.getValue().waiting() - from.waiting());
        }
        return running + waiting > 0 ? waiting / (double) (running + waiting) : Double.NaN;
    }

    /** Each thread's "running waiting timeslices" nanoseconds under /proc/self/task; empty off Linux. */
    private static Map<Integer, RunTimes> threadTimes() {
        Map<Integer, RunTimes> times = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String[] f =
                            Files.readString(task.resolve("schedstat")).trim().split("\\s+");
                    times.put(
                            Integer.parseInt(task.getFileName().toString()),
                            new RunTimes(Long.parseLong(f[0]), Long.parseLong(f[1])));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while the directory was read, or no schedstat: leave it out
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return times;
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
            return Optional.of(new Reading(System.nanoTime(), process, busy, total, threadTimes()));
        };
    }
}
