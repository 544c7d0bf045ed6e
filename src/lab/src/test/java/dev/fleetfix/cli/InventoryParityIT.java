package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each malformed (or odd) inventory of {@code src/test/resources/inventory-parity/}, one file each, read by the real
 * {@code ansible-inventory -i FILE --list} and by {@code fleetfix inventory --list -i FILE}: both accept it or both
 * refuse it, and a refusal of fleetfix names the file and line and exits 2. The files of {@link #STRICTER} are the
 * exceptions: Ansible accepts them, fleetfix refuses them on purpose, with the message given there.
 *
 * <p>Ansible runs with {@code ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED=true}. By default it only warns when a source
 * fails to parse and goes on with an empty inventory (exit 0), so every file would look accepted; this setting makes
 * a source that no plugin could parse fail the command, which is what fleetfix does with any source it cannot read.
 * ({@code ANSIBLE_INVENTORY_UNPARSED_FAILED} fails only when no source at all parsed: the same for one file.)
 *
 * <p>It prints the table (file, Ansible's verdict, fleetfix's, fleetfix's message) and checks that
 * {@code docs/inventory-parity.md} holds it as printed. Needs {@code ansible-inventory}, no Docker; fails, never
 * skips, without it.
 */
class InventoryParityIT {
    private static final Path PARITY = Path.of("src/core/src/test/resources/inventory-parity");
    private static final Path DOC = Path.of("docs/inventory-parity.md");

    /** Ansible accepts these; fleetfix refuses them on purpose, with this in its message (docs/inventory-parity.md). */
    static final Map<String, String> STRICTER = Map.of(
            "ini-empty.ini", "inventory is empty: define at least one host",
            "yaml-empty.yml", "inventory is empty: define at least one host",
            "ini-key-value-without-host.ini", "is a key=value with no host before it",
            "ini-not-utf8.ini", "inventory is not UTF-8 text",
            "ini-port-out-of-range.ini", "port 99999 is not in 1..65535",
            "ini-range-backwards.ini", "runs backwards",
            "yaml-port-not-number.yml", "ansible_port must be a number 1..65535",
            "yaml-unknown-group-key.yml", "unknown key \"hostz\"");

    private static final List<String> TABLE = new ArrayList<>();

    @TempDir
    static Path scratch;

    static Stream<String> files() throws IOException {
        try (Stream<Path> list = Files.list(PARITY)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @BeforeAll
    static void ansibleInventoryIsInstalled() throws IOException {
        ProgramRun version;
        try {
            version = ansible(List.of("ansible-inventory", "--version"));
        } catch (UncheckedIOException e) {
            throw new AssertionError(
                    "ansible-inventory is not installed (" + e.getCause().getMessage() + "): src/lab/prepare.sh"
                            + " installs Debian's ansible-core",
                    e);
        }
        version.expectSuccess();
        TABLE.add("| file | ansible-inventory | fleetfix | fleetfix's message |");
        TABLE.add("|---|---|---|---|");
    }

    @ParameterizedTest
    @MethodSource("files")
    void fleetfixAcceptsWhatAnsibleAcceptsAndRefusesWhatItRefuses(String name) {
        ProgramRun ansible = ansible(List.of("ansible-inventory", "-i", name, "--list"));
        CliRun fleetfix =
                CliRun.of("inventory", "-F", "none", "-i", PARITY.resolve(name).toString(), "--list");
        boolean ansibleAccepts = ansible.exitCode() == 0;
        boolean fleetfixAccepts = fleetfix.exitCode() == ExitCode.OK;
        String message = fleetfixAccepts ? "" : firstLine(fleetfix.stderr());
        TABLE.add("| " + name + " | " + verdict(ansibleAccepts) + " | " + verdict(fleetfixAccepts)
                + (STRICTER.containsKey(name) ? " (stricter on purpose)" : "") + " | "
                + message.replace("|", "\\|") + " |");

        String both = ansible + "\n" + fleetfix;
        if (STRICTER.containsKey(name)) {
            assertThat(ansibleAccepts)
                    .as("Ansible accepts %s, which fleetfix refuses on purpose\n%s", name, both)
                    .isTrue();
            assertThat(fleetfix.exitCode()).as(both).isEqualTo(ExitCode.USAGE);
            assertThat(fleetfix.stderr()).as(both).contains(name).contains(STRICTER.get(name));
            return;
        }
        assertThat(fleetfixAccepts)
                .as("the same verdict as Ansible on %s\n%s", name, both)
                .isEqualTo(ansibleAccepts);
        if (!fleetfixAccepts) {
            assertThat(fleetfix.exitCode()).as(both).isEqualTo(ExitCode.USAGE);
            assertThat(message).as("names file:line\n%s", both).containsPattern("^fleetfix: " + name + ":[1-9]");
        }
    }

    @AfterAll
    static void printTheTableWhichTheDocHolds() throws IOException {
        String table = String.join("\n", TABLE) + "\n";
        System.out.println(table);
        if (TABLE.size() > 2) {
            docHolds(table);
        }
    }

    /** docs/inventory-parity.md holds {@code table} as printed (this test's, InventoryCorpusParity's). */
    static void docHolds(String table) throws IOException {
        assertThat(Files.readString(DOC))
                .as("docs/inventory-parity.md holds the table this test printed")
                .contains(table);
    }

    /** Ansible in inventory-parity/, with nothing of this machine's configuration. */
    private static ProgramRun ansible(List<String> command) {
        return ansible(PARITY, scratch, command);
    }

    /**
     * Ansible in {@code dir}, with nothing of this machine's configuration, failing on a source that no inventory
     * plugin could parse (see the class comment): the Ansible every parity test compares fleetfix with.
     */
    static ProgramRun ansible(Path dir, Path scratch, List<String> command) {
        return ProgramRun.ansible(dir, scratch, Map.of("ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED", "true"), command);
    }

    private static String verdict(boolean accepts) {
        return accepts ? "accepts" : "refuses";
    }

    /** The first line, with the fixture's folder left out so the table reads the same on every machine. */
    private static String firstLine(String stderr) {
        String first = stderr.lines().findFirst().orElse("");
        return first.replace(PARITY + "/", "");
    }
}
