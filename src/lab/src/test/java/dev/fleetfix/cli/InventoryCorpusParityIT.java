package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fleetfix against the real Ansible on the test and example inventories that Debian 12's {@code ansible} package (the
 * collections: dellemc.os9, netapp.ontap, cisco.intersight, ...) and {@code ansible-core} (its role skeletons'
 * {@code tests/inventory}) ship: inventories fleetfix's authors did not write, kept
 * out of the project (src/lab/src/lab/prepare.sh installs the packages; the files stay where the packages put them).
 *
 * <p><b>The corpus.</b> Every regular, not executable file of the two packages (by {@code dpkg-query -L}) whose name
 * says inventory ({@code inventory}, {@code hosts}, {@code inventory.yaml}, {@code *_inventory}, {@code
 * inventory-*}, a file in a folder {@code inventory/}), neither Python nor a template ({@code .j2}, {@code .template}:
 * not an inventory until filled in) nor under {@code plugins/}, that {@code ansible-inventory -i F --list} reads (exit 0, with a source it cannot parse failing, no
 * plugin configuration). The candidates Ansible refuses are counted and printed, not compared. Files of the same
 * bytes with no group_vars/host_vars beside them are one inventory to compare (the collections copy one test
 * inventory into many roles): its checks count once, under the first such file; the printed origins list every file.
 *
 * <p><b>The checks</b> are {@link InventoryComparer}'s: {@code --list}, {@code --graph}, {@code --host} of the first
 * and last host (Ansible's from {@code --list}'s {@code _meta.hostvars}, the same call ansible-inventory's {@code
 * --host} makes; {@code -Dfleetfix.inventory.host-runs=true} runs {@code ansible-inventory --host} instead), and
 * {@code --list-hosts} of six patterns (all, a group, a negation, an intersection, a regex, an index), three Python
 * starts an inventory, several inventories at a time; fleetfix runs in-process.
 *
 * <p>It prints every corpus file's origin (package and version, collection and version, the collection's licence from
 * its own MANIFEST.json or licence file), then the table, and fails when the corpus is smaller than {@link
 * #INVENTORIES} files from ansible-core and at least two collections, when fewer than {@link
 * #THRESHOLD} of the checks agree, when a difference is not listed with its reason in {@link
 * #KNOWN} (or one listed no longer differs), or when docs/inventory-parity.md does not hold the table and the
 * origins' summary as printed. Needs the packages, not Docker; fails, never skips, without them.
 */
class InventoryCorpusParityIT {
    /** Where Debian's Python packages are: the packages' files are named relative to it. */
    private static final Path PACKAGES = Path.of("/usr/lib/python3/dist-packages");
    /** The Debian packages whose files make the corpus: the core (Ansible's own) and the collections. */
    private static final List<String> DEBIAN_PACKAGES = List.of("ansible-core", "ansible");

    private static final Path KNOWN = Path.of("src/lab/src/test/resources/inventory-package-differences.tsv");
    private static final Path OUTCOMES = Path.of("src/lab/target/inventory-package-differences.txt");
    /** At least this share of the checks agree (or differ only by masked passwords): the 95 %. */
    static final double THRESHOLD = 0.95;

    /** At least this many corpus files, from ansible-core and at least two collections. */
    private static final int INVENTORIES = 60;

    private static final Pattern NAMED_INVENTORY =
            Pattern.compile("(^|/)(inventory|hosts)([._-][^/]*)?$|[^/]*_inventory$|/inventory/[^/]+$");

    @TempDir
    static Path scratch;

    /** One candidate file: its path under {@link #PACKAGES}, the Debian package and where it comes from. */
    record Candidate(String file, String debianPackage, String origin) {}

    @Test
    void packagedInventoriesReadAsAnsibleReadsThem() throws IOException {
        long start = System.nanoTime();
        double[] childCpuAtStart = childCpuSeconds();
        Map<String, String> versions = debianVersions();
        List<Candidate> candidates = candidates();
        // one comparison per distinct inventory: the same bytes with no vars folders beside them read the same
        Map<String, List<Candidate>> byContent = candidates.stream()
                .collect(Collectors.groupingBy(c -> contentKey(c.file()), LinkedHashMap::new, Collectors.toList()));
        List<String> distinct =
                byContent.values().stream().map(g -> g.get(0).file()).toList();

        boolean hostRuns = Boolean.getBoolean("fleetfix.inventory.host-runs");
        InventoryComparer comparer = new InventoryComparer(PACKAGES, scratch, hostRuns);
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors() + 1);
        List<InventoryComparer.Comparison> comparisons = comparer.compareAll(distinct, threads);

        Map<String, Boolean> reads = new LinkedHashMap<>();
        for (int i = 0; i < comparisons.size(); i++) {
            for (Candidate c : byContent.get(contentKey(distinct.get(i)))) {
                reads.put(c.file(), comparisons.get(i).ansibleReads());
            }
        }
        List<Candidate> corpus =
                candidates.stream().filter(c -> reads.get(c.file())).toList();
        Map<String, String> representative = new LinkedHashMap<>();
        byContent
                .values()
                .forEach(g ->
                        g.forEach(c -> representative.put(c.file(), g.get(0).file())));
        Function<String, String> licences = licences();

        System.out.println(
                "Origins of the corpus (file, Debian package, collection, licence; = the file compared for it):");
        for (Candidate c : corpus) {
            System.out.println(String.join(
                    "\t",
                    c.file(),
                    c.debianPackage() + " " + versions.get(c.debianPackage()),
                    c.origin(),
                    licences.apply(c.origin()),
                    "= " + representative.get(c.file())));
        }
        String notice = notice(corpus, versions, licences);
        System.out.println(notice);
        List<String> refused = candidates.stream()
                .filter(c -> !reads.get(c.file()))
                .map(Candidate::file)
                .toList();
        System.out.printf(
                Locale.ROOT,
                "%d candidates, %d read by ansible-inventory (the corpus, %d distinct), %d refused by it (not"
                        + " compared): %s%n",
                candidates.size(),
                corpus.size(),
                comparisons.stream()
                        .filter(InventoryComparer.Comparison::ansibleReads)
                        .count(),
                refused.size(),
                refused);

        assertThat(corpus).as("inventories in the corpus").hasSizeGreaterThanOrEqualTo(INVENTORIES);
        assertThat(corpus.stream().map(Candidate::origin).distinct())
                .as("Ansible's own files and at least two collections")
                .contains("ansible-core")
                .hasSizeGreaterThanOrEqualTo(3);
        List<InventoryComparer.Outcome> outcomes = comparisons.stream()
                .filter(InventoryComparer.Comparison::ansibleReads)
                .flatMap(c -> c.outcomes().stream())
                .toList();
        InventoryComparer.hold(outcomes, KNOWN, OUTCOMES, THRESHOLD);
        InventoryParityIT.docHolds(notice);
        double[] childCpu = childCpuSeconds();
        System.out.printf(
                Locale.ROOT,
                "%d checks of %d inventories (%d candidates read) in %.1f s wall, %d at a time; the Ansible runs took"
                        + " %.1f s of CPU%n",
                outcomes.size(),
                comparisons.stream()
                        .filter(InventoryComparer.Comparison::ansibleReads)
                        .count(),
                distinct.size(),
                (System.nanoTime() - start) / 1e9,
                threads,
                childCpu[0] + childCpu[1] - childCpuAtStart[0] - childCpuAtStart[1]);
    }

    /**
     * The CPU seconds (user, system) of this JVM's ended child processes (Linux's cutime and cstime): the Ansible runs,
     * whose cost the CI budget is about. Zeros where /proc is not Linux's.
     */
    private static double[] childCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after the name: state is field 3, cutime field 16 and cstime 17 (1-based), in clock ticks (100 a second)
            return new double[] {Long.parseLong(f[13]) / 100.0, Long.parseLong(f[14]) / 100.0};
        } catch (IOException | RuntimeException e) {
            return new double[] {0, 0};
        }
    }

    /** Each Debian package's installed version; fails naming the package that is missing. */
    private static Map<String, String> debianVersions() {
        Map<String, String> versions = new LinkedHashMap<>();
        for (String pkg : DEBIAN_PACKAGES) {
            ProgramRun run =
                    ProgramRun.of(scratch, env -> {}, List.of("dpkg-query", "-W", "-f=${Status}\t${Version}", pkg));
            assertThat(run.stdout())
                    .as("Debian package %s installed (src/lab/src/lab/prepare.sh installs it)%n%s", pkg, run)
                    .startsWith("install ok installed\t");
            versions.put(pkg, run.stdout().split("\t")[1]);
        }
        return versions;
    }

    /** The files of the packages that the class comment's rule names, in the packages' order. */
    private static List<Candidate> candidates() {
        List<Candidate> candidates = new ArrayList<>();
        for (String pkg : DEBIAN_PACKAGES) {
            ProgramRun run = ProgramRun.of(scratch, env -> {}, List.of("dpkg-query", "-L", pkg))
                    .expectSuccess();
            run.stdout()
                    .lines()
                    .map(Path::of)
                    .filter(p -> p.startsWith(PACKAGES))
                    .map(p -> PACKAGES.relativize(p).toString())
                    .filter(f -> NAMED_INVENTORY.matcher(f).find())
                    .filter(f -> Stream.of(".py", ".pyc", ".j2", ".template").noneMatch(f::endsWith))
                    .filter(f -> !f.contains("/plugins/") && !f.contains("__pycache__"))
                    .filter(f -> Files.isRegularFile(PACKAGES.resolve(f)) && !Files.isExecutable(PACKAGES.resolve(f)))
                    .sorted()
                    .forEach(f -> candidates.add(new Candidate(f, pkg, origin(f))));
        }
        return candidates;
    }

    /** {@code namespace.name} of a collection's file, {@code ansible-core} for the core's. */
    private static String origin(String file) {
        String[] parts = file.split("/");
        return parts[0].equals("ansible_collections") ? parts[1] + "." + parts[2] : "ansible-core";
    }

    /** The bytes' digest, and the folder when group_vars or host_vars lie beside the file (they are read with it). */
    private static String contentKey(String file) {
        Path path = PACKAGES.resolve(file);
        Path dir = path.getParent();
        boolean vars = Files.isDirectory(dir.resolve("group_vars")) || Files.isDirectory(dir.resolve("host_vars"));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path));
            return HexFormat.of().formatHex(digest) + (vars ? "\t" + dir : "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Each origin's version and licence, from its own files: a collection's MANIFEST.json ({@code license}, else the
     * first line of its {@code license_file}); ansible-core's from its Debian copyright file ({@code Files: *}).
     */
    private static Function<String, String> licences() {
        Map<String, String> cache = new TreeMap<>();
        return origin -> cache.computeIfAbsent(origin, InventoryCorpusParityIT::licence);
    }

    private static String licence(String origin) {
        try {
            if (origin.equals("ansible-core")) {
                List<String> lines = Files.readAllLines(Path.of("/usr/share/doc/ansible-core/copyright"));
                int files = lines.indexOf("Files: *");
                assertThat(files)
                        .as("ansible-core's copyright file has Files: *")
                        .isNotNegative();
                return lines.subList(files, lines.size()).stream()
                        .filter(l -> l.startsWith("License: "))
                        .findFirst()
                        .map(l -> l.substring("License: ".length()) + " (its Debian copyright file)")
                        .orElseThrow();
            }
            Path collection = PACKAGES.resolve("ansible_collections").resolve(origin.replace('.', '/'));
            JsonNode info = InventoryComparer.json(Files.readString(collection.resolve("MANIFEST.json")))
                    .path("collection_info");
            String version = info.path("version").asText();
            List<String> spdx = new ArrayList<>();
            info.path("license").forEach(l -> spdx.add(l.asText()));
            if (!spdx.isEmpty()) {
                return version + ", " + String.join(" and ", spdx) + " (its MANIFEST.json)";
            }
            String file = info.path("license_file").asText();
            String first = Files.readAllLines(collection.resolve(file)).stream()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty())
                    .findFirst()
                    .orElse("");
            return version + ", " + first + " (its " + file + ")";
        } catch (IOException e) {
            throw new UncheckedIOException(origin + ": cannot read its licence", e);
        }
    }

    /** The origins' summary docs/inventory-parity.md holds: per origin, its files, package, version and licence. */
    private static String notice(
            List<Candidate> corpus, Map<String, String> versions, Function<String, String> licences) {
        Map<String, List<Candidate>> byOrigin =
                corpus.stream().collect(Collectors.groupingBy(Candidate::origin, TreeMap::new, Collectors.toList()));
        StringBuilder t = new StringBuilder(
                "| origin | files | Debian package | collection's version, licence |\n|---|---|---|---|\n");
        byOrigin.forEach((origin, files) -> t.append("| ")
                .append(origin)
                .append(" | ")
                .append(files.size())
                .append(" | ")
                .append(files.get(0).debianPackage())
                .append(' ')
                .append(versions.get(files.get(0).debianPackage()))
                .append(" | ")
                .append(licences.apply(origin))
                .append(" |\n"));
        t.append("| all | ").append(corpus.size()).append(" | | |\n");
        return t.toString();
    }
}
