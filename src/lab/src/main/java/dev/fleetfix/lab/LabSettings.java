package dev.fleetfix.lab;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a lab keeps its files and whether it outlives the JVM.
 *
 * @param home directory of labs: each lab gets {@code home/<id>} (keys, known_hosts, inventory, THP files)
 * @param outliveJvm false: the fleet is removed when the JVM exits, if not closed before (tests); true: the
 *     containers stay until {@code lab down} ({@code fleetfix lab up})
 * @param progress receives one line per slow step (image build, boot)
 * @param realThp make THP real for the lab's Redis: this machine's kernel THP goes to {@code always}
 *     while the lab lives (and back when it is removed), and each host's Redis starts with THP
 *     disabled for its process when that host's THP file reads {@code never}
 */
public record LabSettings(Path home, boolean outliveJvm, Consumer<String> progress, boolean realThp) {

    public LabSettings(Path home, boolean outliveJvm, Consumer<String> progress) {
        this(home, outliveJvm, progress, false);
    }

    /** The same settings with THP real for the lab's Redis. */
    public LabSettings withRealThp() {
        return new LabSettings(home, outliveJvm, progress, true);
    }

    public LabSettings {
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(progress, "progress");
        home = home.toAbsolutePath().normalize();
    }

    /** For tests: labs under the temp directory, removed at JVM exit at the latest, silent. */
    public static LabSettings forTests() {
        return new LabSettings(Path.of(System.getProperty("java.io.tmpdir"), "fleetfix-labs"), false, line -> {});
    }

    /** For the CLI: {@code ~/.fleetfix/lab}, containers outlive the JVM. */
    public static LabSettings forUser(Path home, Consumer<String> progress) {
        return new LabSettings(home, true, progress);
    }
}
