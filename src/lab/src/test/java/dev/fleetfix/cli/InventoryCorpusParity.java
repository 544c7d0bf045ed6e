package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inventories that public Ansible projects ship (Ansible's own integration targets, community.general, kubespray,
 * openstack-ansible, debops: the corpus, see below), each read by the real Ansible and by fleetfix and compared as
 * {@link InventoryComparer} says ({@code --list}, {@code --graph}, {@code --host} of two hosts, each its own {@code
 * ansible-inventory} run, and {@code --list-hosts} of six patterns). {@link InventoryCorpusParityIT} compares the same
 * way, in the build, on the inventories Debian's {@code ansible} package ships.
 *
 * <p>It prints a table (per check: agree, differ; then every difference with the reason) and fails when fewer than
 * {@link #THRESHOLD} of the checks agree, when a difference appears that {@link #KNOWN} does not list with its reason,
 * when one listed there no longer differs, or when {@code docs/inventory-parity.md} does not hold the table as printed.
 *
 * <p>The corpus is public projects' files, not fleetfix's: it is not committed here. Its folder holds the files under
 * {@code <origin>/<path in the repository>} and a {@code NOTICE} naming each file's repository, path, commit and
 * licence; the test reads the inventories NOTICE names. It is {@code -Dfleetfix.inventory.corpus=DIR}, else
 * {@code src/lab/src/test/resources/inventory-corpus} when present, else {@code inventory-corpus} in the
 * {@code shared/} folder laid beside the project's clone. Needs {@code ansible-inventory} and {@code ansible-playbook}
 * (src/lab/src/lab/prepare.sh), no Docker; fails, never skips, without them or without the corpus.
 */
class InventoryCorpusParity {
    /** Every difference the corpus shows, with its reason: inventory, check, why (tab-separated). */
    private static final Path KNOWN = Path.of("src/lab/src/test/resources/inventory-corpus-differences.tsv");
    /** Every differing check with both outputs, to read when the table changes. */
    private static final Path OUTCOMES = Path.of("src/lab/target/inventory-corpus-differences.txt");
    /** docs/inventory-parity.md's promise: at least this share of the checks agree. */
    static final double THRESHOLD = 0.95;
    /** At least this many inventories, from Ansible's own tests and at least two other projects. */
    private static final int INVENTORIES = 60;

    @TempDir
    static Path scratch;

    /** One line of NOTICE: the file in the corpus, where it comes from, and whether it is an inventory or vars. */
    record Entry(String kind, String file, String repository, String path, String commit, String licence) {}

    static Path corpus() {
        String given = System.getProperty("fleetfix.inventory.corpus");
        if (given != null) {
            return Path.of(given).toAbsolutePath();
        }
        Path inResources = Path.of("src/lab/src/test/resources/inventory-corpus");
        if (Files.isDirectory(inResources)) {
            return inResources.toAbsolutePath();
        }
        return Path.of("..", "shared", "inventory-corpus").toAbsolutePath().normalize();
    }

    static List<Entry> notice(Path corpus) throws IOException {
        Path notice = corpus.resolve("NOTICE");
        assertThat(notice)
                .as("the inventory corpus (its NOTICE) at %s; give -Dfleetfix.inventory.corpus=DIR", corpus)
                .exists();
        List<Entry> entries = new ArrayList<>();
        for (String line : Files.readAllLines(notice)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            assertThat(f)
                    .as("NOTICE line %s: kind, file, repository, path, commit, licence", line)
                    .hasSize(6);
            entries.add(new Entry(f[0], f[1], f[2], f[3], f[4], f[5]));
        }
        return entries;
    }

    @Test
    void everyCorpusInventoryReadsAsAnsibleReadsIt() throws IOException {
        Path corpus = corpus();
        List<Entry> entries = notice(corpus);
        for (Entry entry : entries) {
            assertThat(corpus.resolve(entry.file()))
                    .as("NOTICE names %s", entry.file())
                    .isRegularFile();
            assertThat(entry.licence()).as("licence of %s", entry.file()).isNotBlank();
        }
        List<String> inventories = entries.stream()
                .filter(e -> e.kind().equals("inventory"))
                .map(Entry::file)
                .toList();
        assertThat(inventories).as("inventories in the corpus").hasSizeGreaterThanOrEqualTo(INVENTORIES);
        assertThat(entries.stream()
                        .filter(e -> e.kind().equals("inventory"))
                        .map(Entry::repository)
                        .distinct())
                .as("Ansible's own tests and at least two other projects")
                .contains("ansible/ansible")
                .hasSizeGreaterThanOrEqualTo(3);
        InventoryComparer comparer = new InventoryComparer(corpus, scratch, true);
        comparer.ansible(List.of("ansible-inventory", "--version")).expectSuccess();

        // about 2 s of Python start-up a call, five calls an inventory: two inventories at a time
        List<InventoryComparer.Outcome> outcomes = comparer.compareAll(inventories, 2).stream()
                .flatMap(c -> c.outcomes().stream())
                .toList();
        InventoryComparer.hold(outcomes, KNOWN, OUTCOMES, THRESHOLD);
    }
}
