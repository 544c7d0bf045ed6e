package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shipped {@code playbooks/thp-off.yaml} as the lab tests of the rollout's flow run it (resume, discovery,
 * topology, eras): every step as shipped, in its order and with its arguments, except that its two benchmarks measure
 * briefly. Those tests check what the benchmarks leave behind (no key, both sides measured, a side replayed on
 * resume), not their figures; the tests of the figures ({@code ApplyIT}, {@code BenchmarkStepIT}, {@code
 * VerdictLabIT}) run the shipped lengths.
 */
final class ShippedPlaybook {
    static final Path THP_OFF = Path.of("playbooks", "thp-off.yaml").toAbsolutePath();

    /** The shipped benchmark's length, once per benchmark step. */
    private static final String SHIPPED_LENGTH = "duration: 2s, warmup: 1s, rounds: 7";

    private static final String SHIPPED_KEYSPACE = "keyspace: 200000";

    private ShippedPlaybook() {}

    /** The shipped text. */
    static String thpOffText() {
        try {
            return Files.readString(THP_OFF);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code text} (thp-off.yaml or a variant of it) with its two benchmarks measuring 7 rounds of 1 s: the fewest a
     * playbook may ask for (fewer cannot call a change and are refused).
     */
    static String briefBenchmarks(String text) {
        assertThat(text.split(SHIPPED_LENGTH, -1))
                .as("both benchmark steps of thp-off.yaml carry '" + SHIPPED_LENGTH + "'")
                .hasSize(3);
        assertThat(text.split(SHIPPED_KEYSPACE, -1))
                .as("both benchmark steps of thp-off.yaml carry '" + SHIPPED_KEYSPACE + "'")
                .hasSize(3);
        return text.replace(SHIPPED_LENGTH, "duration: 1s, warmup: 0s, rounds: 7")
                .replace(SHIPPED_KEYSPACE, "keyspace: 20000");
    }

    /** thp-off.yaml with brief benchmarks, written into {@code dir}; the path of the copy. */
    static Path thpOffBrief(Path dir) {
        return write(dir, briefBenchmarks(thpOffText()));
    }

    /** {@code text} written into {@code dir} as thp-off.yaml. */
    static Path write(Path dir, String text) {
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve("thp-off.yaml"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
