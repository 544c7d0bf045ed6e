package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shipped {@code playbooks/thp-off.yaml} as the lab tests of the rollout's flow run it (resume, discovery,
 * topology, eras): every step as shipped, in its order and with its arguments, except that its two benchmarks measure
 * briefly and at a gentle rate. Those tests check what the benchmarks leave behind (no key, both sides measured, a
 * side replayed on resume), not their figures; {@code ApplyIT}'s main job runs the shipped lengths, and
 * {@code VerdictLabIT} bounds how often a verdict is wrong.
 */
final class ShippedPlaybook {
    static final Path THP_OFF = Path.of("playbooks", "thp-off.yaml").toAbsolutePath();

    /** How many rounds a side the shipped benchmarks measure. */
    static final int SHIPPED_ROUNDS = 4;

    /** The shipped benchmark's length, once per benchmark step. */
    private static final String SHIPPED_LENGTH = "duration: 3s, warmup: 1s, rounds: " + SHIPPED_ROUNDS;

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
     * The brief benchmarks' open-loop rate, requests per second. Unpaced, the load generator and Redis each took most
     * of a core for the benchmark's seconds, after filling the keyspace at full speed; paced, a side is a few thousand
     * requests and no fill, and the steps' flow (both sides measured, compared, replayed on resume, the keys gone) is
     * the same.
     */
    static final int BRIEF_RATE = 2000;

    /**
     * {@code text} (thp-off.yaml or a variant of it) with its two benchmarks measuring the shipped rounds of 1 s each
     * (the batches the design check asks for are counted in rounds, not seconds), at {@link #BRIEF_RATE}.
     */
    static String briefBenchmarks(String text) {
        assertThat(text.split(SHIPPED_LENGTH, -1))
                .as("both benchmark steps of thp-off.yaml carry '" + SHIPPED_LENGTH + "'")
                .hasSize(3);
        assertThat(text.split(SHIPPED_KEYSPACE, -1))
                .as("both benchmark steps of thp-off.yaml carry '" + SHIPPED_KEYSPACE + "'")
                .hasSize(3);
        return text.replace(
                        SHIPPED_LENGTH, "duration: 1s, warmup: 0s, rounds: " + SHIPPED_ROUNDS + ", rate: " + BRIEF_RATE)
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
