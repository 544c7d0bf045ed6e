package dev.fleetfix.bench.redisbenchmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Text captured from real redis-benchmark runs and from the seed documents, under src/test/resources/bench. */
final class Fixtures {
    private Fixtures() {}

    static String read(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/bench/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test fixture bench/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
