package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fleetfix.KnownSecrets;
import dev.fleetfix.inventory.PasswordVariables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The comparison of fleetfix with the real Ansible on inventories it did not write, shared by the two corpus tests
 * ({@link InventoryCorpusParity}: public projects' files laid out by hand; {@link InventoryCorpusParityIT}: the test
 * inventories Debian's {@code ansible} package ships). Per inventory F, read in the folder {@code root}:
 *
 * <ul>
 *   <li>{@code ansible-inventory -i F --list} and {@code fleetfix inventory -i F --list}: the same JSON, or both refuse;
 *   <li>{@code --graph}: the same text;
 *   <li>{@code --host H} for the first and the last host: the same JSON. With {@code hostRuns}, Ansible's is
 *       {@code ansible-inventory --host H}; without, it is H's entry of {@code --list}'s {@code _meta.hostvars} ({@code
 *       {}} when H has none), which ansible-inventory builds with the same call ({@code _get_host_variables}) and which
 *       spares a Python start a host. fleetfix's is always its own {@code --host H};
 *   <li>the hosts of six limit patterns ({@link #patterns}), as {@code ansible-playbook --list-hosts} lists them (one
 *       play a pattern, so one Python start an inventory) and {@code fleetfix audit -l P --list-hosts}: the same hosts,
 *       compared sorted (ansible-playbook lists a play's hosts as a set; {@code AnsibleGoldenTest} holds the order
 *       against {@code ansible PATTERN --list-hosts} on the project's own fixtures).
 * </ul>
 *
 * Ansible runs with an empty ansible.cfg, no other {@code ANSIBLE_*} setting and a scratch HOME, failing on a source it
 * cannot parse; fleetfix runs in-process ({@link CliRun}) with no Ansible configuration of this machine.
 *
 * <p>fleetfix never prints a password ({@code ansible_password}, {@code ansible_ssh_pass}, ... and {@code vault_*}):
 * every text equal to one is {@code ******}. A check whose outputs differ only by that is counted apart ("agree but
 * for masked passwords", {@link Outcome#sameButPasswords}), computed by masking Ansible's output the same way, never
 * listed by hand; the threshold counts it with the agreements, and the table prints both shares.
 */
final class InventoryComparer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final Path scratch;
    private final boolean hostRuns;

    /**
     * @param root the folder the inventories are named in, and Ansible's working directory
     * @param scratch where Ansible's empty configuration, HOME and the pattern playbooks go
     * @param hostRuns whether Ansible's {@code --host H} is its own run (else {@code --list}'s {@code _meta.hostvars})
     */
    InventoryComparer(Path root, Path scratch, boolean hostRuns) {
        this.root = root;
        this.scratch = scratch;
        this.hostRuns = hostRuns;
    }

    /**
     * One comparison: an inventory, a check ({@code --list}, {@code --host H}, {@code --list-hosts P}, ...), what each
     * printed, and Ansible's output with the passwords masked as fleetfix masks them ({@link #masked}).
     */
    record Outcome(String inventory, String check, String ansible, String fleetfix, String ansibleMasked) {
        Outcome(String inventory, String check, String ansible, String fleetfix) {
            this(inventory, check, ansible, fleetfix, ansible);
        }

        /** The same output, or both refuse (fleetfix's refusal is "refuses: " and its message). */
        boolean same() {
            return same(ansible);
        }

        /** Not the same, but the same once Ansible's output has its passwords masked as fleetfix prints them. */
        boolean sameButPasswords() {
            return !same() && same(ansibleMasked);
        }

        private boolean same(String ansibleOutput) {
            return ansibleOutput.equals(fleetfix)
                    || (ansibleOutput.equals("refuses") && fleetfix.startsWith("refuses: "));
        }

        String key() {
            return inventory + "\t" + check;
        }
    }

    /** What one inventory gave: whether Ansible's {@code --list} read it (exit 0), and every check's outcome. */
    record Comparison(String inventory, boolean ansibleReads, List<Outcome> outcomes) {}

    /**
     * Every inventory compared, {@code threads} at a time (Ansible's Python start-up is most of the cost). First every
     * {@code ansible-inventory --list}; the passwords they hold are then made known to fleetfix's {@link KnownSecrets}
     * before fleetfix runs, as one fleetfix process reading all of them would know them: fleetfix masks every text
     * equal to a password it has seen (this JVM's registry is one for all the inventories), and {@link #masked} masks
     * Ansible's output with the same set, so that the outcome does not depend on the order the inventories run in.
     */
    List<Comparison> compareAll(List<String> inventories, int threads) {
        List<ProgramRun> lists =
                inParallel(inventories, threads, f -> ansible(List.of("ansible-inventory", "-i", f, "--list")));
        Set<String> passwords = new TreeSet<>();
        lists.stream().filter(l -> l.exitCode() == 0).forEach(l -> passwords.addAll(passwords(json(l.stdout()))));
        passwords.forEach(KnownSecrets::register);
        List<Integer> indexes =
                java.util.stream.IntStream.range(0, inventories.size()).boxed().toList();
        return inParallel(indexes, threads, i -> compare(inventories.get(i), lists.get(i), passwords));
    }

    /** {@code work} over {@code items}, {@code threads} at a time, the results in the items' order. */
    static <T, R> List<R> inParallel(List<T> items, int threads, Function<T, R> work) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<R>> futures =
                    items.stream().map(i -> pool.submit(() -> work.apply(i))).toList();
            List<R> results = new ArrayList<>();
            for (Future<R> f : futures) {
                results.add(f.get());
            }
            return results;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new AssertionError(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Every check of one inventory, given Ansible's {@code --list} of it; when Ansible or fleetfix refuses it, only
     * {@code --list}.
     */
    private Comparison compare(String file, ProgramRun list, Set<String> passwords) {
        List<Outcome> outcomes = new ArrayList<>();
        CliRun ownList = fleetfix("inventory", "-i", file, "--list");
        JsonNode listed = list.exitCode() == 0 ? json(list.stdout()) : null;
        outcomes.add(new Outcome(
                file,
                "--list",
                listed == null ? "refuses" : canonical(listed),
                ownList.exitCode() == ExitCode.OK ? canonical(json(ownList.stdout())) : refusal(ownList),
                listed == null ? "refuses" : canonical(masked(listed, passwords))));
        if (listed == null || ownList.exitCode() != ExitCode.OK) {
            return new Comparison(file, listed != null, outcomes);
        }

        ProgramRun graph = ansible(List.of("ansible-inventory", "-i", file, "--graph"));
        CliRun ownGraph = fleetfix("inventory", "-i", file, "--graph");
        outcomes.add(new Outcome(file, "--graph", graph.stdout(), output(ownGraph), masked(graph.stdout(), passwords)));

        Map<String, Set<String>> groups = groups(listed);
        List<String> all = List.copyOf(groups.getOrDefault("all", Set.of()));
        for (String host :
                all.isEmpty() ? List.<String>of() : new LinkedHashSet<>(List.of(all.get(0), all.get(all.size() - 1)))) {
            CliRun own = fleetfix("inventory", "-i", file, "--host", host);
            JsonNode vars = ansibleHost(file, listed, host);
            outcomes.add(new Outcome(
                    file,
                    "--host " + host,
                    vars == null ? "refuses" : canonical(vars),
                    own.exitCode() == ExitCode.OK ? canonical(json(own.stdout())) : refusal(own),
                    vars == null ? "refuses" : canonical(masked(vars, passwords))));
        }

        List<String> patterns = patterns(groups);
        Map<String, String> ansibleHosts = listHosts(file, patterns);
        for (String pattern : patterns) {
            CliRun own = fleetfix("audit", "-i", file, "-l", pattern, "--list-hosts");
            String hosts = own.exitCode() == ExitCode.OK
                    ? sorted(own.stdout().lines().map(String::strip).filter(l -> !l.isEmpty()))
                    : refusal(own);
            String listedHosts = ansibleHosts.getOrDefault(pattern, "(not listed)");
            outcomes.add(
                    new Outcome(file, "--list-hosts " + pattern, listedHosts, hosts, masked(listedHosts, passwords)));
        }
        return new Comparison(file, true, outcomes);
    }

    /** Ansible's variables of {@code host}, null when it refuses (see {@code hostRuns}). */
    private JsonNode ansibleHost(String file, JsonNode listed, String host) {
        if (!hostRuns) {
            JsonNode vars = listed.path("_meta").path("hostvars").path(host);
            return vars.isMissingNode() ? JSON.createObjectNode() : vars;
        }
        ProgramRun one = ansible(List.of("ansible-inventory", "-i", file, "--host", host));
        return one.exitCode() == 0 ? json(one.stdout()) : null;
    }

    /**
     * The variables fleetfix holds as passwords and never prints ({@link PasswordVariables#isPassword}: its list, and
     * {@code vault_*}): their values in {@code --list}'s hostvars.
     */
    static Set<String> passwords(JsonNode listed) {
        Set<String> passwords = new TreeSet<>();
        listed.path("_meta").path("hostvars").forEach(vars -> vars.fields().forEachRemaining(var -> {
            if (PasswordVariables.isPassword(var.getKey())
                    && (var.getValue().isTextual() || var.getValue().isNumber())) {
                String value = var.getValue().asText();
                if (!value.isBlank()) {
                    passwords.add(value);
                }
            }
        }));
        return passwords;
    }

    /**
     * {@code text} as fleetfix would print it: every occurrence of a password replaced by {@link KnownSecrets#MASK},
     * the longest first (fleetfix's scrubber, like Ansible's no_log, masks a value wherever it appears).
     */
    static String masked(String text, Set<String> passwords) {
        List<String> longestFirst = passwords.stream()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
        String out = text;
        for (String password : longestFirst) {
            out = out.replace(password, KnownSecrets.MASK);
        }
        return out;
    }

    /** A JSON document with its keys and text masked as {@link #masked(String, Set)}; a password number is text. */
    private static JsonNode masked(JsonNode node, Set<String> passwords) {
        if (passwords.isEmpty()) {
            return node;
        }
        if (node.isObject()) {
            ObjectNode copy = JSON.createObjectNode();
            node.fields()
                    .forEachRemaining(f -> copy.set(masked(f.getKey(), passwords), masked(f.getValue(), passwords)));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.createArrayNode();
            node.forEach(e -> copy.add(masked(e, passwords)));
            return copy;
        }
        if (node.isTextual() || (node.isNumber() && passwords.contains(node.asText()))) {
            return TextNode.valueOf(masked(node.asText(), passwords));
        }
        return node;
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
    private Map<String, String> listHosts(String file, List<String> patterns) {
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
        ProgramRun run = ansible(List.of("ansible-playbook", "-i", file, book.toString(), "--list-hosts"));
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

    private static String sorted(Stream<String> hosts) {
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

    /**
     * The printed table: per check, how many agree and differ; the share that agree; then every difference with its
     * reason from {@code known} ("NOT LISTED" when it has none).
     */
    static String table(List<Outcome> outcomes, Map<String, String> known) {
        Map<String, int[]> perCheck = new TreeMap<>();
        for (Outcome o : outcomes) {
            String kind = o.check().split(" ")[0];
            perCheck.computeIfAbsent(kind, k -> new int[3])[o.same() ? 0 : o.sameButPasswords() ? 1 : 2]++;
        }
        long agree = outcomes.stream().filter(Outcome::same).count();
        long masked = outcomes.stream().filter(Outcome::sameButPasswords).count();
        StringBuilder t =
                new StringBuilder("| check | agree | agree but for masked passwords | differ |\n|---|---|---|---|\n");
        perCheck.forEach((kind, n) -> t.append("| ")
                .append(kind)
                .append(" | ")
                .append(n[0])
                .append(" | ")
                .append(n[1])
                .append(" | ")
                .append(n[2])
                .append(" |\n"));
        t.append("| all | ")
                .append(agree)
                .append(" | ")
                .append(masked)
                .append(" | ")
                .append(outcomes.size() - agree - masked)
                .append(" |\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%d of %d checks agree (%.1f %%); with the %d that differ only by fleetfix's masked passwords,"
                                + " %d (%.1f %%).%n%n",
                        agree,
                        outcomes.size(),
                        100.0 * agree / outcomes.size(),
                        masked,
                        agree + masked,
                        100.0 * (agree + masked) / outcomes.size()));
        t.append("| inventory | check | why |\n|---|---|---|\n");
        outcomes.stream().filter(o -> !o.same()).forEach(o -> t.append("| ")
                .append(o.inventory())
                .append(" | `")
                .append(o.check())
                .append("` | ")
                .append(o.sameButPasswords() ? MASKED : known.getOrDefault(o.key(), "NOT LISTED"))
                .append(" |\n"));
        return t.toString().stripTrailing() + "\n";
    }

    /** The reason of a difference that is only fleetfix's masking of passwords (checked, not listed by hand). */
    static final String MASKED = "passwords masked on purpose (fleetfix never prints one)";

    /** A file of known differences: inventory, check, why (tab-separated; # comments). */
    static Map<String, String> known(Path file) throws IOException {
        Map<String, String> known = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", 3);
            assertThat(f).as("%s line %s: inventory, check, why", file, line).hasSize(3);
            known.put(f[0] + "\t" + f[1], f[2]);
        }
        return known;
    }

    /**
     * The verdict both corpus tests hold: prints the table and writes every difference with both outputs to {@code
     * outcomesFile}; fails when fewer than {@code threshold} of the checks agree, when a difference is not in {@code
     * knownFile} with its reason, when one listed there no longer differs, or when {@code docs/inventory-parity.md}
     * does not hold the table as printed.
     */
    static void hold(List<Outcome> outcomes, Path knownFile, Path outcomesFile, double threshold) throws IOException {
        Map<String, String> known = known(knownFile);
        String table = table(outcomes, known);
        System.out.println(table);
        Files.writeString(
                outcomesFile,
                outcomes.stream()
                        .filter(o -> !o.same())
                        .map(o -> o.key() + "\n  ansible:  " + o.ansible() + "\n  fleetfix: " + o.fleetfix() + "\n")
                        .collect(Collectors.joining()));

        List<Outcome> differing = outcomes.stream()
                .filter(o -> !o.same() && !o.sameButPasswords())
                .toList();
        long agree = outcomes.size() - differing.size();
        assertThat((double) agree / outcomes.size())
                .as(
                        "share of the %d checks that agree, or differ only by masked passwords (%d)%n%s",
                        outcomes.size(), agree, table)
                .isGreaterThanOrEqualTo(threshold);
        List<String> unexplained = differing.stream()
                .filter(o -> !known.containsKey(o.key()))
                .map(o -> o.key() + "\n  ansible:  " + o.ansible() + "\n  fleetfix: " + o.fleetfix())
                .toList();
        assertThat(unexplained)
                .as(
                        "differences that %s does not list with a reason (fix fleetfix, or list it and say why in"
                                + " docs/inventory-parity.md)",
                        knownFile)
                .isEmpty();
        Set<String> stillDiffering = differing.stream().map(Outcome::key).collect(Collectors.toSet());
        assertThat(known.keySet().stream().filter(k -> !stillDiffering.contains(k)))
                .as("differences %s lists that no longer differ (take them out of it and of the doc)", knownFile)
                .isEmpty();
        InventoryParityIT.docHolds(table);
    }

    /** Ansible in {@code root}, with nothing of this machine's configuration; a source it cannot parse fails. */
    ProgramRun ansible(List<String> command) {
        return InventoryParityIT.ansible(root, scratch, command);
    }

    /** fleetfix in-process, reading the inventory under {@code root}, with no Ansible configuration of this machine. */
    private CliRun fleetfix(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = args[0];
        all[1] = "-F";
        all[2] = "none";
        System.arraycopy(args, 1, all, 3, args.length - 1);
        for (int i = 0; i < all.length - 1; i++) {
            if (all[i].equals("-i")) {
                all[i + 1] = root.resolve(all[i + 1]).toString();
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

    static JsonNode json(String text) {
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
                    .with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
