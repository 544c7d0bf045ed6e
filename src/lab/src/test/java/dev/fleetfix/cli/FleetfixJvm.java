package dev.fleetfix.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * fleetfix as a process of its own, {@code java -jar src/cli/target/fleetfix.jar ARGS}, for the lab tests that kill,
 * resume or run such processes side by side. Its JVM starts as the launcher starts a short command: the quick C1
 * compiler and the serial collector. These runs last seconds and their benchmarks are brief, where C2's compiling and
 * parallel collector threads cost more CPU than they save (measured: a listing's 1.4 CPU seconds become 1.0), on a
 * machine whose two cores the whole suite shares. What C2 and G1 change, load-generation speed and pauses, is
 * measured by the benchmarks' own tests in the test JVM, not here.
 */
final class FleetfixJvm {
    private static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private FleetfixJvm() {}

    /** The command line: this JVM's {@code java}, the options above, the built jar, then {@code args}. */
    static List<String> command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(OPTIONS);
        command.add("-jar");
        command.add(Path.of("src/cli/target/fleetfix.jar").toAbsolutePath().toString());
        command.addAll(args);
        return command;
    }

    /** {@link #command(List)} of {@code args}. */
    static List<String> command(String... args) {
        return command(List.of(args));
    }
}
