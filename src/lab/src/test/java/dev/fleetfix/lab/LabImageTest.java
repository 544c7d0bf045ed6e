package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class LabImageTest {
    @Test
    void tagIsTheHashThatTheScriptGivesItself() throws Exception {
        // build-image.sh tags with `sha256sum < build-image.sh | cut -c1-12`; the jar's copy must agree.
        byte[] script = Files.readAllBytes(Path.of("src/lab/src/lab/build-image.sh"));
        String hash =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(script));

        assertThat(LabImage.tag()).isEqualTo("fleetfix-lab:" + hash.substring(0, 12));
        assertThat(LabImage.tag(LabImage.Suite.TRIXIE)).isEqualTo("fleetfix-lab-trixie:" + hash.substring(0, 12));
    }
}
