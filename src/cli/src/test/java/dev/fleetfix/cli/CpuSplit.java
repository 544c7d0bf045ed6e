package dev.fleetfix.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs one fleetfix command in this JVM as {@code main} would, then says where the process's CPU went, by thread:
 * the main thread (JVM start, class loading, picocli, inventory, report), the JIT compilers, GC, and the threads that
 * ended before (the forks, SSHJ's readers, the output drains: the per-host work), with the peak RSS, heap and
 * threads. A main, not a test: run it with the launcher's JVM options and the jar, e.g. {@code java
 * -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp fleetfix.jar:test-classes dev.fleetfix.cli.CpuSplit audit -i INV}.
 * Linux only (it reads /proc/self).
 */
public final class CpuSplit {
    private CpuSplit() {}

    public static void main(String[] args) throws IOException {
        Verbosity.configureLogging(args);
        long started = System.nanoTime();
        int exit = Main.commandLine(args).execute(args);
        double wall = (System.nanoTime() - started) / 1e9;
        Map<String, Long> byName = new TreeMap<>();
        long live = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                // "C1 CompilerThre", "fleetfix-fork-3": one line per kind of thread
                String name = Files.readString(task.resolve("comm")).trim().replaceAll("-?[0-9]+$", "");
                long ticks = ticks(task.resolve("stat"));
                byName.merge(name, ticks, Long::sum);
                live += ticks;
            }
        }
        long total = ticks(Path.of("/proc/self/stat"));
        long heap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heap += pool.getPeakUsage().getCommitted();
            }
        }
        String hwm = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("VmHWM"))
                .findFirst()
                .orElse("VmHWM: ?")
                .replaceAll("\\s+", " ");
        System.err.printf(
                "exit %d, %.2f s wall; JVM CPU %.2f s; %s; heap committed at most %d MiB; %d threads at most%n",
                exit,
                wall,
                total / 100.0,
                hwm,
                heap >> 20,
                ManagementFactory.getThreadMXBean().getPeakThreadCount());
        System.err.printf("  %-24s %.2f s%n", "threads ended (per host)", (total - live) / 100.0);
        byName.forEach((name, ticks) -> {
            if (ticks > 0) {
                System.err.printf("  %-24s %.2f s%n", name, ticks / 100.0);
            }
        });
    }

    /** utime + stime of a /proc stat file, in clock ticks (1/100 s on Linux). */
    private static long ticks(Path stat) throws IOException {
        String line = Files.readString(stat);
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
