package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.lab.LabFleetExtension;
import dev.fleetfix.lab.LabHost;
import dev.fleetfix.lab.LabHostSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42, finding 1, on a lab host: a Redis with {@code requirepass} and {@code rename-command AUTH ""} answers
 * fleetfix's AUTH with {@code ERR unknown command 'AUTH', with args beginning with: 'PASSWORD'}. An audit (table
 * and JSON), an {@code apply --check} and an {@code apply} with reports, at every verbosity, leave the password in no output: not on
 * the console, not in report.json, junit.xml, report.html or the journal (of a run, refused before any change).
 */
class EchoedPasswordIT {
    /**
     * Longer than Redis echoes (128 characters of arguments, so its error holds a beginning only), in the lab's
     * alphabet for passwords.
     */
    private static final String PASSWORD = "echoed-" + "Pw7.x".repeat(24) + "-end9";

    @TempDir
    static Path dir;

    @RegisterExtension
    static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"));

    @BeforeAll
    static void prepareHost() {
        // Redis reads requirepass and rename-command at start
        fleet.rootExec(
                "lab-1",
                "printf 'requirepass " + PASSWORD + "\\nrename-command AUTH \"\"\\n' >> /etc/redis/redis.conf"
                        + " && systemctl restart redis-server");
        LabHost h = fleet.host("lab-1");
        String auth = "redis-cli --no-auth-warning -h " + h.address() + " -p " + h.redisPort() + " AUTH " + PASSWORD;
        LabData.await(() -> fleet.rootExec("lab-1", auth).stdout().contains("unknown command"), 30_000);
        // what fleetfix will be told: the password, said back
        assertThat(fleet.rootExec("lab-1", auth).stdout())
                .contains("with args beginning with: '" + PASSWORD.substring(0, 120))
                .doesNotContain(PASSWORD);
    }

    @Test
    void noOutputOfAnAuditOrACheckHoldsThePasswordRedisSaidBack() throws Exception {
        String inventory = inventoryWithThePassword().toString();
        Path play = Files.writeString(
                dir.resolve("thp-off.yaml"), ShippedPlaybook.briefBenchmarks(ShippedPlaybook.thpOffText()));
        StringBuilder everything = new StringBuilder();
        List<String> verbosities = List.of("", "-v", "-vvv");
        for (String verbosity : verbosities) {
            Path reports = dir.resolve("reports" + verbosity);
            for (List<String> command : List.of(
                    List.of("audit", "-i", inventory),
                    List.of("audit", "-i", inventory, "--json"),
                    List.of("apply", play.toString(), "-i", inventory, "--check", "--report", reports.toString()),
                    // refused before any change (Redis cannot be read), with the journal the check does not write
                    List.of("apply", play.toString(), "-i", inventory, "--report", reports + "-run"))) {
                List<String> args = new ArrayList<>(command);
                if (!verbosity.isEmpty()) {
                    args.add(verbosity);
                }
                CliRun run = CliRun.of(args.toArray(String[]::new));
                System.out.println(run);
                assertThat(run.exitCode()).as(run.toString()).isNotZero();
                everything.append(run.stdout()).append(run.stderr());
            }
            try (Stream<Path> files = Stream.concat(Files.walk(reports), Files.walk(dir.resolve(reports + "-run")))) {
                List<Path> written = files.filter(Files::isRegularFile).toList();
                assertThat(written)
                        .extracting(p -> p.getFileName().toString())
                        .contains("report.json", "junit.xml", "report.html", "journal.jsonl");
                for (Path file : written) {
                    everything.append(Files.readString(file));
                }
            }
        }

        String all = everything.toString();
        assertThat(all)
                .as("Redis's words reached the outputs")
                .contains("unknown command 'AUTH', with args beginning with: '******'");
        assertThat(all).doesNotContain(PASSWORD, PASSWORD.substring(0, 40), "Pw7.xPw7.x", "-end9");
    }

    /** The lab's inventory, lab-1 given the password inline (the lab's own names none for this host). */
    private static Path inventoryWithThePassword() throws java.io.IOException {
        String yaml = Files.readString(fleet.inventoryFile());
        assertThat(yaml).contains("        lab-1:\n");
        return Files.writeString(
                dir.resolve("inventory.yml"),
                yaml.replace("        lab-1:\n", "        lab-1:\n          redis_password: " + PASSWORD + "\n"));
    }
}
