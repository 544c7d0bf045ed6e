package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real {@code ansible-inventory} (Debian 12's ansible-core, which {@code src/lab/src/lab/prepare.sh} installs) on every
 * inventory fixture that {@code golden/regenerate.sh} covers:
 *
 * <ul>
 *   <li>what Ansible prints today is the committed golden file, so the goldens the unit tests compare fleetfix with
 *       cannot drift from Ansible;
 *   <li>{@code fleetfix inventory --inventory-from-ansible}, which runs it, reads the same inventory as fleetfix
 *       reading the fixture itself.
 * </ul>
 *
 * Not a unit test: it runs Ansible (about a second a call), which a bare JDK machine does not have. It fails, never
 * skips, when {@code ansible-inventory} is missing or is not the ansible-core 2.14 the goldens were made with. Ansible
 * runs with an empty ansible.cfg, no {@code ANSIBLE_*} variables and a temporary HOME, as fleetfix does here.
 */
class AnsibleInventoryIT {
    private static final Path INVENTORY =
            Path.of("src/core/src/test/resources/inventory").toAbsolutePath();
    private static final Path GOLDEN = INVENTORY.resolve("golden");
    /** golden/regenerate.sh's Ansible: Debian 12's ansible-core. */
    private static final String ANSIBLE_CORE = "[core 2.14.";

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path scratch;

    /**
     * One source of regenerate.sh and the prefix of its golden files: {@code fleet.yaml} gives {@code fleet.*},
     * {@code ansible/fleet.ini} gives {@code ansible-fleet.ini.*} (with a {@code .graph.txt}).
     */
    record Fixture(String source, String golden, boolean hasGraph) {
        @Override
        public String toString() {
            return source;
        }

        /** fleet.yaml's are in fleet.patterns, ansible/fleet.ini's in ansible/fleet.ini.patterns. */
        Path patterns() {
            return INVENTORY.resolve(source.endsWith(".yaml") ? golden + ".patterns" : source + ".patterns");
        }

        /** What {@code -i} gets: Ansible reads {@code --list} JSON only from a program, so list.json is printed by one. */
        Path ansibleSource() {
            if (!source.endsWith(".json")) {
                return INVENTORY.resolve(source);
            }
            Path wrapper = scratch.resolve(Path.of(source).getFileName() + ".sh");
            try {
                Files.writeString(wrapper, "#!/bin/sh\nexec cat '" + INVENTORY.resolve(source) + "'\n");
                Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return wrapper;
        }
    }

    /** regenerate.sh's sources: every *.yaml of inventory/, every source under inventory/ansible/. */
    static List<Fixture> fixtures() throws IOException {
        List<Fixture> fixtures = new ArrayList<>();
        try (Stream<Path> files = Files.list(INVENTORY)) {
            for (Path yaml :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                String name = yaml.getFileName().toString();
                fixtures.add(new Fixture(name, name.substring(0, name.length() - ".yaml".length()), false));
            }
        }
        try (Stream<Path> files = Files.list(INVENTORY.resolve("ansible"))) {
            for (Path source : files.filter(f -> !f.toString().endsWith(".patterns"))
                    .sorted()
                    .toList()) {
                String name = source.getFileName().toString();
                fixtures.add(new Fixture("ansible/" + name, "ansible-" + name, true));
            }
        }
        return fixtures;
    }

    static List<Fixture> fixturesWithPatterns() throws IOException {
        return fixtures().stream().filter(f -> Files.exists(f.patterns())).toList();
    }

    @BeforeAll
    static void ansibleCore214IsInstalled() throws IOException {
        ProgramRun version;
        try {
            version = ansible(List.of("ansible-inventory", "--version"));
        } catch (UncheckedIOException e) {
            throw new AssertionError(
                    "ansible-inventory is not installed (" + e.getCause().getMessage() + "): src/lab/prepare.sh"
                            + " installs Debian's ansible-core, which made the golden files",
                    e);
        }
        assertThat(version.expectSuccess().stdout())
                .as("the goldens were made with ansible-core 2.14 (golden/regenerate.sh); this is\n%s", version)
                .startsWith("ansible-inventory " + ANSIBLE_CORE);
    }

    /** Runs an Ansible program in inventory/, as regenerate.sh does, with nothing of this machine's configuration. */
    private static ProgramRun ansible(List<String> command) {
        return ProgramRun.ansible(INVENTORY, scratch, Map.of(), command);
    }

    private static String golden(Fixture fixture, String suffix) throws IOException {
        Path file = GOLDEN.resolve(fixture.golden() + suffix);
        assertThat(file)
                .as("golden file of %s (run golden/regenerate.sh and commit what it writes)", fixture)
                .exists();
        return Files.readString(file);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void ansibleInventoryListPrintsTheGolden(Fixture fixture) throws IOException {
        String golden = golden(fixture, ".inventory.json");

        ProgramRun run = ansible(List.of(
                        "ansible-inventory", "-i", fixture.ansibleSource().toString(), "--list"))
                .expectSuccess();

        assertThat(run.stdout()).as(run.toString()).isEqualTo(golden);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void ansibleInventoryGraphPrintsTheGolden(Fixture fixture) throws IOException {
        if (!fixture.hasGraph()) {
            // regenerate.sh makes graphs of the ansible/ sources only; the YAML fixtures have none to compare
            assertThat(GOLDEN.resolve(fixture.golden() + ".graph.txt")).doesNotExist();
            return;
        }
        String golden = golden(fixture, ".graph.txt");

        ProgramRun run = ansible(List.of(
                        "ansible-inventory", "-i", fixture.ansibleSource().toString(), "--graph"))
                .expectSuccess();

        assertThat(run.stdout()).as(run.toString()).isEqualTo(golden);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void ansibleInventoryListYamlPrintsTheGolden(Fixture fixture) throws IOException {
        if (!fixture.hasGraph()) {
            // regenerate.sh makes --list --yaml of the ansible/ sources only, as their graphs
            assertThat(GOLDEN.resolve(fixture.golden() + ".inventory.yaml")).doesNotExist();
            return;
        }
        String golden = golden(fixture, ".inventory.yaml");

        ProgramRun run = ansible(List.of(
                        "ansible-inventory", "-i", fixture.ansibleSource().toString(), "--list", "--yaml"))
                .expectSuccess();

        assertThat(run.stdout()).as(run.toString()).isEqualTo(golden);
    }

    /** {@code ansible -i SOURCE PATTERN --list-hosts} for each line of SOURCE.patterns, in regenerate.sh's lines. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fixturesWithPatterns")
    void ansibleListHostsPrintsTheGolden(Fixture fixture) throws IOException {
        String golden = golden(fixture, ".list-hosts.txt");

        StringBuilder lines = new StringBuilder();
        List<String> patterns = Files.readAllLines(fixture.patterns());
        // about 2 s of Python start-up each: two at a time, as many as this machine has cores
        List<ProgramRun> runs = patterns.parallelStream()
                .map(pattern ->
                        ansible(List.of("ansible", "-i", fixture.ansibleSource().toString(), pattern, "--list-hosts")))
                .toList();
        for (int i = 0; i < patterns.size(); i++) {
            String pattern = patterns.get(i);
            ProgramRun run = runs.get(i);
            // the first line is "hosts (N):", then one host a line
            String hosts = run.stdout()
                    .lines()
                    .skip(1)
                    .map(String::strip)
                    .filter(l -> !l.isEmpty())
                    .map(l -> l.split("\\s+")[0])
                    .collect(Collectors.joining(" "));
            lines.append(pattern).append('\t').append(hosts).append('\n');
        }

        assertThat(lines.toString())
                .as(runs.stream().map(ProgramRun::toString).collect(Collectors.joining("\n")))
                .isEqualTo(golden);
    }

    private static CliRun fleetfix(String... args) {
        Path home = scratch.resolve("home");
        return CliRun.of(Main.commandLine(new AnsibleSettings(Map.of(), home, home, true)), args);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void inventoryFromAnsibleIsWhatFleetfixReadsItself(Fixture fixture) throws IOException {
        CliRun own = fleetfix(
                        "inventory",
                        "-F",
                        "none",
                        "-i",
                        INVENTORY.resolve(fixture.source()).toString(),
                        "--list")
                .expectExit(ExitCode.OK);
        CliRun fromAnsible = fleetfix(
                        "inventory",
                        "-F",
                        "none",
                        "--inventory-from-ansible",
                        "-i",
                        fixture.ansibleSource().toString(),
                        "--list")
                .expectExit(ExitCode.OK);

        JsonNode expected = JSON.readTree(own.stdout());
        assertThat(expected.path("_meta").path("hostvars").size())
                .as("%s has hosts with variables%n%s", fixture, own)
                .isPositive();
        assertThat(JSON.readTree(fromAnsible.stdout()))
                .as("%s%n%s", own, fromAnsible)
                .isEqualTo(expected);
    }
}
