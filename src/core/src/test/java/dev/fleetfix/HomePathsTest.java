package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HomePathsTest {
    private static final Path HOME = Path.of("/home/ops");

    @Test
    void aLeadingTildeIsTheHome() {
        assertThat(HomePaths.expand("~", HOME)).isEqualTo("/home/ops");
        assertThat(HomePaths.expand("~/", HOME)).isEqualTo("/home/ops/");
        assertThat(HomePaths.expand("~/.ssh/id_ed25519", HOME)).isEqualTo("/home/ops/.ssh/id_ed25519");
    }

    @Test
    void everyOtherTildeIsLeftAsWritten() {
        assertThat(HomePaths.expand("~deploy/.ssh/key", HOME)).isEqualTo("~deploy/.ssh/key");
        assertThat(HomePaths.expand("keys/~/id", HOME)).isEqualTo("keys/~/id");
        assertThat(HomePaths.expand("/etc/ansible/~", HOME)).isEqualTo("/etc/ansible/~");
        assertThat(HomePaths.expand("~~", HOME)).isEqualTo("~~");
        assertThat(HomePaths.expand("", HOME)).isEmpty();
    }

    @Test
    void withoutAHomeGivenItIsThisProcesssHome() {
        assertThat(HomePaths.expand("~/x")).isEqualTo(System.getProperty("user.home") + "/x");
    }
}
