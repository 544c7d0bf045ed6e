package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inventories that public Ansible projects ship (Ansible's own integration targets, community.general, kubespray,
 * openstack-ansible, debops: the corpus, see below), each read by the real Ansible and by fleetfix, compared as data:
 *
 * <ul>
 *   <li>{@code ansible-inventory -i F --list} and {@code fleetfix inventory -i F --list}: the same JSON, or both refuse;
 *   <li>{@code --graph}: the same text;
 *   <li>{@code --host H} for the first and the last host: the same JSON;
 *   <li>the hosts of six limit patterns ({@code all}, a group G, {@code all:!G}, {@code G:&G2}, {@code ~regex},
 *       {@code G[0]}), as {@code ansible-playbook --list-hosts} lists them (one play a pattern, so one Python start
 *       an inventory) and {@code fleetfix audit -l P --list-hosts}: the same hosts. ansible-playbook lists a play's
 *       hosts in no fixed order (a set), so the hosts are compared sorted; {@code AnsibleGoldenTest} holds the
 *       order against {@code ansible PATTERN --list-hosts} on the project's own fixtures.
 * </ul>
 *
 * It prints a table (per check: agree, differ; then every difference with the reason) and fails when fewer than
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
    private static final Path DOC = Path.of("docs/inventory-parity.md");
    /** Every difference the corpus shows, with its reason: inventory, check, why (tab-separated). */
    private static final Path KNOWN = Path.of("src/lab/src/test/resources/inventory-corpus-differences.tsv");
    /** Every differing check with both outputs, to read when the table changes. */
    private static final Path OUTCOMES = Path.of("src/lab/target/inventory-corpus-differences.txt");
    /** docs/inventory-parity.md's promise: at least this share of the checks agree. */
    static final double THRESHOLD = 0.95;
    /** At least this many inventories, from Ansible's own tests and at least two other projects. */
    private static final int INVENTORIES = 60;

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path scratch;

    /** One line of NOTICE: the file in the corpus, where it comes from, and whether it is an inventory or vars. */
    record Entry(String kind, String file, String repository, String path, String commit, String licence) {}

    /** One comparison: an inventory, a check ({@code --list}, {@code --host H}, {@code --list-hosts P}, ...). */
    record Outcome(String inventory, String check, String ansible, String fleetfix) {
        /** The same output, or both refuse (fleetfix's refusal is "refuses: " and its message). */
        boolean same() {
            return ansible.equals(fleetfix) || (ansible.equals("refuses") && fleetfix.startsWith("refuses: "));
        }

        String key() {
            return inventory + "\t" + check;
        }
    }

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
        List<Entry> inventories =
                entries.stream().filter(e -> e.kind().equals("inventory")).toList();
        assertThat(inventories).as("inventories in the corpus").hasSizeGreaterThanOrEqualTo(INVENTORIES);
        assertThat(inventories.stream().map(Entry::repository).distinct())
                .as("Ansible's own tests and at least two other projects")
                .contains("ansible/ansible")
                .hasSizeGreaterThanOrEqualTo(3);
        ansible(corpus, List.of("ansible-inventory", "--version")).expectSuccess();

        // about 2 s of Python start-up a call, five calls an inventory: two inventories at a time
        List<Outcome> outcomes = inventories.parallelStream()
                .flatMap(entry -> compare(corpus, entry.file()).stream())
                .toList();

        Map<String, String> known = known();
        String table = table(outcomes, known);
        System.out.println(table);
        Files.writeString(
                OUTCOMES,
                outcomes.stream()
                        .filter(o -> !o.same())
                        .map(o -> o.key() + "\n  ansible:  " + o.ansible() + "\n  fleetfix: " + o.fleetfix() + "\n")
                        .collect(Collectors.joining()));

        List<Outcome> differing = outcomes.stream().filter(o -> !o.same()).toList();
        long agree = outcomes.size() - differing.size();
        assertThat((double) agree / outcomes.size())
                .as("share of the %d checks that agree (%d)%n%s", outcomes.size(), agree, table)
                .isGreaterThanOrEqualTo(THRESHOLD);
        List<String> unexplained = differing.stream()
                .filter(o -> !known.containsKey(o.key()))
                .map(o -> o.key() + "\n  ansible:  " + o.ansible() + "\n  fleetfix: " + o.fleetfix())
                .toList();
        assertThat(unexplained)
                .as(
                        "differences that %s does not list with a reason (fix fleetfix, or list it and say why in %s)",
                        KNOWN, DOC)
                .isEmpty();
        Set<String> stillDiffering = differing.stream().map(Outcome::key).collect(Collectors.toSet());
        assertThat(known.keySet().stream().filter(k -> !stillDiffering.contains(k)))
                .as("differences %s lists that no longer differ (take them out of it and of %s)", KNOWN, DOC)
                .isEmpty();
        InventoryParityIT.docHolds(table);
    }

    /** Every check of one inventory; when Ansible or fleetfix refuses it, only {@code --list}. */
    private static List<Outcome> compare(Path corpus, String file) {
        List<Outcome> outcomes = new ArrayList<>();
        ProgramRun list = ansible(corpus, List.of("ansible-inventory", "-i", file, "--list"));
        CliRun ownList = fleetfix(corpus, "inventory", "-i", file, "--list");
        JsonNode listed = list.exitCode() == 0 ? json(list.stdout()) : null;
        outcomes.add(new Outcome(
                file,
                "--list",
                listed == null ? "refuses" : canonical(listed),
                ownList.exitCode() == ExitCode.OK ? canonical(json(ownList.stdout())) : refusal(ownList)));
        if (listed == null || ownList.exitCode() != ExitCode.OK) {
            return outcomes;
        }

        ProgramRun graph = ansible(corpus, List.of("ansible-inventory", "-i", file, "--graph"));
        CliRun ownGraph = fleetfix(corpus, "inventory", "-i", file, "--graph");
        outcomes.add(new Outcome(file, "--graph", graph.stdout(), output(ownGraph)));

        Map<String, Set<String>> groups = groups(listed);
        List<String> all = List.copyOf(groups.getOrDefault("all", Set.of()));
        for (String host :
                all.isEmpty() ? List.<String>of() : new LinkedHashSet<>(List.of(all.get(0), all.get(all.size() - 1)))) {
            ProgramRun one = ansible(corpus, List.of("ansible-inventory", "-i", file, "--host", host));
            CliRun own = fleetfix(corpus, "inventory", "-i", file, "--host", host);
            outcomes.add(new Outcome(
                    file,
                    "--host " + host,
                    one.exitCode() == 0 ? canonical(json(one.stdout())) : "refuses",
                    own.exitCode() == ExitCode.OK ? canonical(json(own.stdout())) : refusal(own)));
        }

        List<String> patterns = patterns(groups);
        Map<String, String> ansibleHosts = listHosts(corpus, file, patterns);
        for (String pattern : patterns) {
            CliRun own = fleetfix(corpus, "audit", "-i", file, "-l", pattern, "--list-hosts");
            String hosts = own.exitCode() == ExitCode.OK
                    ? sorted(own.stdout().lines().map(String::strip).filter(l -> !l.isEmpty()))
                    : refusal(own);
            outcomes.add(new Outcome(
                    file, "--list-hosts " + pattern, ansibleHosts.getOrDefault(pattern, "(not listed)"), hosts));
        }
        return outcomes;
    }

    /**
     * The patterns an operator writes, each picked to select hosts where the inventory allows: {@code all}; the first
     * group G with hosts (other than ungrouped, where there is one); {@code all:!X} with X the first group that does
     * not hold every host (else the first host), where there are two hosts or more (no exclusion selects a host of an
     * inventory of one); G and the group sharing most hosts with it ({@code all} when none shares any); the hosts
     * that begin as G's first does ({@code ~}); and G's first host ({@code G[0]}).
     */
    static List<String> patterns(Map<String, Set<String>> groups) {
        Set<String> every = groups.getOrDefault("all", Set.of());
        List<String> withHosts = groups.entrySet().stream()
                .filter(e -> !e.getKey().equals("all") && !e.getValue().isEmpty())
                .map(Map.Entry::getKey)
                .toList();
        if (every.isEmpty() || withHosts.isEmpty()) {
            return List.of("all");
        }
        String g = withHosts.stream()
                .filter(n -> !n.equals("ungrouped"))
                .findFirst()
                .orElse(withHosts.get(0));
        String first = groups.get(g).iterator().next();
        String excluded = withHosts.stream()
                .filter(n -> groups.get(n).size() < every.size())
                .findFirst()
                .orElse(first);
        String other = withHosts.stream()
                .filter(n -> !n.equals(g) && shared(groups, g, n) > 0)
                .max((a, b) -> Long.compare(shared(groups, g, a), shared(groups, g, b)))
                .orElse("all");
        String start = first.substring(0, 1);
        String regex = "~" + (Character.isLetterOrDigit(start.charAt(0)) ? start : "\\" + start) + ".*";
        List<String> patterns = new ArrayList<>(List.of("all", g));
        if (every.size() > 1) {
            patterns.add("all:!" + excluded);
        }
        patterns.addAll(List.of(g + ":&" + other, regex, g + "[0]"));
        return patterns;
    }

    private static long shared(Map<String, Set<String>> groups, String a, String b) {
        return groups.get(b).stream().filter(groups.get(a)::contains).count();
    }

    /**
     * The hosts each pattern selects, as {@code ansible-playbook --list-hosts} lists them for a playbook of one play
     * a pattern ({@code ansible PATTERN --list-hosts} lists the same, one Python start a pattern).
     */
    private static Map<String, String> listHosts(Path corpus, String file, List<String> patterns) {
        StringBuilder playbook = new StringBuilder();
        for (int i = 0; i < patterns.size(); i++) {
            playbook.append("- name: P")
                    .append(i)
                    .append("\n  hosts: ")
                    .append(quoted(patterns.get(i)))
                    .append("\n  gather_facts: false\n  tasks: []\n");
        }
        Path book;
        try {
            book = Files.createTempFile(scratch, "patterns", ".yml");
            Files.writeString(book, playbook);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ProgramRun run = ansible(corpus, List.of("ansible-playbook", "-i", file, book.toString(), "--list-hosts"));
        Map<String, String> hosts = new LinkedHashMap<>();
        if (run.exitCode() != 0) {
            patterns.forEach(p -> hosts.put(p, "refuses"));
            return hosts;
        }
        Matcher play = Pattern.compile("play #\\d+ \\([^\\n]*\\): P(\\d+)\\t").matcher(run.stdout());
        List<String> lines = run.stdout().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = play.reset(lines.get(i) + "\t");
            if (!m.find()) {
                continue;
            }
            int index = Integer.parseInt(m.group(1));
            int count = 0;
            int at = i + 1;
            while (at < lines.size() && !lines.get(at).strip().startsWith("hosts (")) {
                at++;
            }
            Matcher n =
                    Pattern.compile("hosts \\((\\d+)\\):").matcher(lines.get(at).strip());
            if (n.find()) {
                count = Integer.parseInt(n.group(1));
            }
            hosts.put(
                    patterns.get(index),
                    sorted(lines.subList(at + 1, at + 1 + count).stream().map(String::strip)));
        }
        return hosts;
    }

    private static String sorted(java.util.stream.Stream<String> hosts) {
        return hosts.sorted().collect(Collectors.joining(" "));
    }

    private static String quoted(String pattern) {
        return "'" + pattern.replace("'", "''") + "'";
    }

    /** Each group with its hosts and its children's, from {@code --list} JSON. */
    static Map<String, Set<String>> groups(JsonNode list) {
        Map<String, Set<String>> groups = new LinkedHashMap<>();
        list.fieldNames().forEachRemaining(name -> {
            if (!name.equals("_meta")) {
                groups.put(name, flatten(list, name, new LinkedHashSet<>()));
            }
        });
        return groups;
    }

    private static Set<String> flatten(JsonNode list, String group, Set<String> hosts) {
        list.path(group).path("hosts").forEach(h -> hosts.add(h.asText()));
        list.path(group).path("children").forEach(child -> flatten(list, child.asText(), hosts));
        return hosts;
    }

    private static String table(List<Outcome> outcomes, Map<String, String> known) {
        Map<String, int[]> perCheck = new TreeMap<>();
        for (Outcome o : outcomes) {
            String kind = o.check().split(" ")[0];
            perCheck.computeIfAbsent(kind, k -> new int[2])[o.same() ? 0 : 1]++;
        }
        long agree = outcomes.stream().filter(Outcome::same).count();
        StringBuilder t = new StringBuilder("| check | agree | differ |\n|---|---|---|\n");
        perCheck.forEach((kind, n) -> t.append("| ")
                .append(kind)
                .append(" | ")
                .append(n[0])
                .append(" | ")
                .append(n[1])
                .append(" |\n"));
        t.append("| all | ")
                .append(agree)
                .append(" | ")
                .append(outcomes.size() - agree)
                .append(" |\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%d of %d checks agree: %.1f %%.%n%n",
                        agree,
                        outcomes.size(),
                        100.0 * agree / outcomes.size()));
        t.append("| inventory | check | why |\n|---|---|---|\n");
        outcomes.stream().filter(o -> !o.same()).forEach(o -> t.append("| ")
                .append(o.inventory())
                .append(" | `")
                .append(o.check())
                .append("` | ")
                .append(known.getOrDefault(o.key(), "NOT LISTED"))
                .append(" |\n"));
        return t.toString().stripTrailing() + "\n";
    }

    private static Map<String, String> known() throws IOException {
        Map<String, String> known = new LinkedHashMap<>();
        for (String line : Files.readAllLines(KNOWN)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", 3);
            assertThat(f).as("%s line %s: inventory, check, why", KNOWN, line).hasSize(3);
            known.put(f[0] + "\t" + f[1], f[2]);
        }
        return known;
    }

    /** Ansible in the corpus's folder, with nothing of this machine's configuration; a source it cannot parse fails. */
    private static ProgramRun ansible(Path corpus, List<String> command) {
        return ProgramRun.ansible(corpus, scratch, Map.of("ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED", "true"), command);
    }

    /** fleetfix in-process, reading the corpus's file, with no Ansible configuration of this machine. */
    private static CliRun fleetfix(Path corpus, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = args[0];
        all[1] = "-F";
        all[2] = "none";
        System.arraycopy(args, 1, all, 3, args.length - 1);
        for (int i = 0; i < all.length - 1; i++) {
            if (all[i].equals("-i")) {
                all[i + 1] = corpus.resolve(all[i + 1]).toString();
            }
        }
        Path home = scratch.resolve("home");
        return CliRun.of(
                Main.commandLine(
                        new AnsibleSettings(Map.of(), home, home, true), Adapters::system, Main.Invocation.of(all)),
                all);
    }

    private static String output(CliRun run) {
        return run.exitCode() == ExitCode.OK ? run.stdout() : refusal(run);
    }

    private static String refusal(CliRun run) {
        return "refuses: " + run.stderr().lines().findFirst().orElse("");
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** JSON with its object keys sorted, so two equal documents print the same. */
    private static String canonical(JsonNode node) {
        try {
            Object tree = JSON.treeToValue(node, Object.class);
            return JSON.writer()
                    .with(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
