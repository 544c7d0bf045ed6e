package dev.fleetfix.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The host tables of {@code lab up} and {@code lab status} keep their columns in line whatever the names. */
class LabOutputTest {
    private static final List<LabHost> HOSTS = List.of(
            new LabHost("sysv-1", "127.0.0.11", 22, 6379),
            new LabHost("sudo-password-1", "127.0.0.12", 22, 6379),
            new LabHost("ssh-cert-1", "127.0.0.103", 22, 6379));

    private static List<String> printed(Consumer<PrintWriter> print) {
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            print.accept(out);
        }
        return text.toString().lines().toList();
    }

    @Test
    void upPadsTheNamesToTheLongestSoThatTheAddressesLineUp() {
        List<String> lines = printed(out -> LabOutput.hosts(HOSTS, out));

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isEqualTo("  sudo-password-1 127.0.0.12   ssh :22  redis :6379");
        assertThat(lines).extracting(line -> line.indexOf("127.0.0.")).containsOnly("  sudo-password-1 ".length());
        assertThat(lines)
                .extracting(line -> line.indexOf("  ssh :"))
                .containsOnly(lines.get(2).indexOf("  ssh :"));
    }

    @Test
    void shortNamesKeepTheTableAsItWas() {
        assertThat(printed(out -> LabOutput.hosts(List.of(new LabHost("lab-1", "127.0.0.11", 22, 6379)), out)))
                .containsExactly("  lab-1    127.0.0.11  ssh :22  redis :6379");
    }

    @Test
    void statusPadsTheNamesToTheLongestSoThatEveryColumnLinesUp() {
        List<LabHostStatus> statuses = HOSTS.stream()
                .map(host -> new LabHostStatus(
                        host,
                        "running",
                        true,
                        true,
                        Optional.of("master"),
                        false,
                        List.of(new LabHostStatus.Instance(6379, "redis-server", true, Optional.of("redis 7.0.15")))))
                .toList();

        List<String> lines = printed(out -> LabOutput.status(statuses, out));

        assertThat(lines).hasSize(3);
        for (String column : List.of("127.0.0.", "running", "sshd up", "redis up", "master", "redis 7.0.15")) {
            assertThat(lines)
                    .extracting(line -> line.indexOf(column))
                    .as(column)
                    .containsOnly(lines.get(1).indexOf(column));
        }
    }
}
