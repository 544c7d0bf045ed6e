package dev.fleetfix.redis;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * NeededCommands is the whole list of what fleetfix sends to Redis: this test reads every command the code sends
 * (through {@link RedisNode#command}, and each Jedis call of the {@code redis.jedis} adapter) and compares. A
 * command added to the code but not to the list fails here, and so does one listed that nothing sends.
 */
class NeededCommandsTest {
    private static final Path MAIN = Path.of("src/core/src/main/java/dev/fleetfix");

    /** Commands that take a subcommand, as the ACL names them ({@code config|get}). */
    private static final Set<String> CONTAINERS = Set.of("CONFIG", "CLUSTER", "SENTINEL", "ACL", "CLIENT", "LATENCY");

    /**
     * Call sites whose command name is not a literal at the call, by file and first argument, with every command the
     * name can be there (read from the code around it). A new such site fails the test until it is added here.
     */
    private static final Map<String, Set<String>> INDIRECT = Map.of(
            // promote: RedisServer.replicaOfCommand(), SLAVEOF when INFO server is unreadable; repoint: the same
            "ManualMove.java: command", Set.of("replicaof", "slaveof"),
            "ManualMove.java: server.replicaOfCommand()", Set.of("replicaof", "slaveof"),
            // pauseAndRead's queue inside MULTI
            "ManualMove.java: c[0]", Set.of("config|set", "client|pause", "info"),
            // send(...): only ever "FAILOVER" (TO host port TIMEOUT ms)
            "RoleMoves.java: command", Set.of("failover"),
            // Saver.command: BGREWRITEAOF, BGSAVE SCHEDULE or BGSAVE
            "Saver.java: command.get(0)", Set.of("bgrewriteaof", "bgsave"),
            // dryrun: ACL DRYRUN user ...
            "CommandRights.java: \"ACL\"", Set.of("acl|dryrun"));

    /** The Jedis methods the adapter calls, and the command each sends; none for those that send nothing. */
    private static final Map<String, Set<String>> JEDIS_METHODS = Map.ofEntries(
            Map.entry("ping", Set.of("ping")),
            Map.entry("info", Set.of("info")),
            Map.entry("configGet", Set.of("config|get")),
            Map.entry("latencyLatest", Set.of("latency|latest")),
            Map.entry("latencyHistory", Set.of("latency|history")),
            Map.entry("bgsave", Set.of("bgsave")),
            Map.entry("clusterNodes", Set.of("cluster|nodes")),
            Map.entry("scan", Set.of("scan")),
            Map.entry("unlink", Set.of("unlink")),
            Map.entry("del", Set.of("del")),
            Map.entry("set", Set.of("set")),
            Map.entry("get", Set.of("get")),
            Map.entry("incr", Set.of("incr")),
            Map.entry("lpush", Set.of("lpush")),
            // the generic sender: what it sends is read at RedisNode.command's call sites
            Map.entry("sendCommand", Set.of()),
            Map.entry("connect", Set.of()),
            Map.entry("close", Set.of()),
            Map.entry("pipelined", Set.of()),
            Map.entry("syncAndReturnAll", Set.of()));

    private static final Pattern LITERAL_CALL =
            Pattern.compile("\\.command\\(\\s*\"([A-Za-z-]+)\"(?:\\s*,\\s*\"([A-Za-z-]+)\")?");
    private static final Pattern INDIRECT_CALL = Pattern.compile("\\.command\\(\\s*([^\")\\s][^,)]*\\)?)");
    private static final Pattern CONFIG_NAME_CALL =
            Pattern.compile("\\.command\\(\\s*configName\\s*,\\s*\"([A-Za-z-]+)\"");
    private static final Pattern CONTAINER_WITHOUT_LITERAL =
            Pattern.compile("\\.command\\(\\s*\"([A-Za-z-]+)\"\\s*,\\s*[^\"\\s]");
    private static final Pattern JEDIS_CALL = Pattern.compile("\\b(?:admin|jedis|pipeline)(?:\\.|::)(\\w+)");

    @Test
    void everyCommandTheCodeSendsIsListedAndNothingElse() {
        Set<String> sent = new TreeSet<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, String> file : sources().entrySet()) {
            String name = Path.of(file.getKey()).getFileName().toString();
            sent.addAll(sentThroughRedisNode(name, file.getValue(), unknown));
            if (file.getKey().contains("/redis/jedis/")) {
                sent.addAll(sentByJedis(name, file.getValue(), unknown));
            }
        }

        assertThat(unknown)
                .as("call sites this test cannot read: add them to INDIRECT or JEDIS_METHODS")
                .isEmpty();
        Set<String> listed = new TreeSet<>();
        NeededCommands.ALL.forEach(n -> listed.add(n.label()));
        NeededCommands.SENTINEL.forEach(n -> listed.add(n.label()));
        assertThat(listed).as("NeededCommands.ALL and SENTINEL").containsExactlyElementsOf(sent);
    }

    @Test
    void sentinelCommandsAreAskedOfSentinelsOnlyAndEveryExampleIsItsOwnCommand() {
        assertThat(NeededCommands.ALL).noneMatch(n -> n.label().startsWith("sentinel|"));
        assertThat(NeededCommands.SENTINEL).allMatch(n -> n.label().startsWith("sentinel|"));
        Stream.concat(NeededCommands.ALL.stream(), NeededCommands.SENTINEL.stream())
                .forEach(n -> assertThat(label(
                                n.example().get(0),
                                n.example().size() > 1 ? n.example().get(1) : null))
                        .as("the example of " + n.label())
                        .isEqualTo(n.label()));
        assertThat(NeededCommands.ALL.stream().map(NeededCommands.Needed::label))
                .doesNotHaveDuplicates();
    }

    /** The minimal ACL in docs/inventory.md is NeededCommands, line for line. */
    @Test
    void theDocumentedMinimalAclIsTheList() throws IOException {
        String doc = Files.readString(Path.of("docs/inventory.md"));
        int at = doc.indexOf("\n## The minimal Redis ACL\n");
        assertThat(at)
                .as("docs/inventory.md has a section '## The minimal Redis ACL'")
                .isNotNegative();
        int end = doc.indexOf("\n## ", at + 1);
        String section = doc.substring(at, end < 0 ? doc.length() : end);

        Matcher user = Pattern.compile("user fleetfix on >PASSWORD [^\\n]*?((?: \\+\\S+)+)\\n")
                .matcher(section);
        assertThat(user.find())
                .as("a 'user fleetfix on >PASSWORD ...' line in:\n" + section)
                .isTrue();
        assertThat(user.group(1).strip()).isEqualTo(NeededCommands.aclRule());

        Matcher sentinel = Pattern.compile("user sentinel-ops on >PASSWORD((?: \\+\\S+)+)\\n")
                .matcher(section);
        assertThat(sentinel.find())
                .as("a 'user sentinel-ops on >PASSWORD ...' line")
                .isTrue();
        assertThat(sentinel.group(1).strip()).isEqualTo(NeededCommands.aclRule(NeededCommands.SENTINEL));

        for (NeededCommands.Use use : NeededCommands.Use.values()) {
            String line = "    " + use + ": "
                    + String.join(
                            " ",
                            NeededCommands.labels(use).stream()
                                    .map(l -> "+" + l)
                                    .toList()) + "\n";
            assertThat(section)
                    .as("the row for " + use + " in docs/inventory.md")
                    .contains(line);
        }
    }

    private static Set<String> sentThroughRedisNode(String file, String text, List<String> unknown) {
        Set<String> sent = new LinkedHashSet<>();
        Matcher literal = LITERAL_CALL.matcher(text);
        while (literal.find()) {
            String command = literal.group(1).toUpperCase(Locale.ROOT);
            if (CONTAINERS.contains(command) && literal.group(2) == null) {
                continue; // read below as an indirect site: its subcommand is not a literal
            }
            sent.add(label(command, literal.group(2)));
        }
        Matcher container = CONTAINER_WITHOUT_LITERAL.matcher(text);
        while (container.find()) {
            if (CONTAINERS.contains(container.group(1).toUpperCase(Locale.ROOT))) {
                indirect(file, "\"" + container.group(1) + "\"", sent, unknown);
            }
        }
        Matcher configName = CONFIG_NAME_CALL.matcher(text);
        while (configName.find()) {
            // redis_config's CONFIG, or the name rename-command gave it: the ACL knows it as CONFIG
            sent.add(label("CONFIG", configName.group(1)));
        }
        Matcher other = INDIRECT_CALL.matcher(text);
        while (other.find()) {
            String expression = other.group(1).strip();
            if (!expression.equals("configName")) {
                indirect(file, expression, sent, unknown);
            }
        }
        return sent;
    }

    private static void indirect(String file, String expression, Set<String> sent, List<String> unknown) {
        Set<String> commands = INDIRECT.get(file + ": " + expression);
        if (commands == null) {
            unknown.add(file + ": " + expression);
        } else {
            sent.addAll(commands);
        }
    }

    private static Set<String> sentByJedis(String file, String text, List<String> unknown) {
        Set<String> sent = new LinkedHashSet<>();
        Matcher call = JEDIS_CALL.matcher(text);
        while (call.find()) {
            Set<String> commands = JEDIS_METHODS.get(call.group(1));
            if (commands == null) {
                unknown.add(file + ": Jedis method " + call.group(1));
            } else {
                sent.addAll(commands);
            }
        }
        // what Jedis sends by itself on connect, as its client config says
        if (text.contains(".clientName(")) {
            sent.add("client|setname");
        }
        for (String sendsOnConnect : List.of(".database(", ".protocol(", ".clientSetInfoConfig(ClientSetInfoConfig.")) {
            int i = text.indexOf(sendsOnConnect);
            while (i >= 0) {
                if (!text.startsWith(".clientSetInfoConfig(ClientSetInfoConfig.DISABLED", i)) {
                    unknown.add(file + ": Jedis client config " + sendsOnConnect + " (sends a command on connect)");
                }
                i = text.indexOf(sendsOnConnect, i + 1);
            }
        }
        return sent;
    }

    private static String label(String command, String subcommand) {
        String upper = command.toUpperCase(Locale.ROOT);
        return CONTAINERS.contains(upper) && subcommand != null
                ? upper.toLowerCase(Locale.ROOT) + "|" + subcommand.toLowerCase(Locale.ROOT)
                : upper.toLowerCase(Locale.ROOT);
    }

    /** Every main source but the lab's (a disposable test fleet, not a user's Redis), by path. */
    private static Map<String, String> sources() {
        Map<String, String> sources = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.startsWith(MAIN.resolve("lab")))
                    .sorted()
                    .forEach(p -> {
                        try {
                            // imports name Jedis's packages (redis.clients.jedis.Jedis), not calls
                            String code = Files.readString(p).replaceAll("(?m)^(import|package) .*$", "");
                            sources.put(p.toString().replace('\\', '/'), code);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(sources).as("main sources under " + MAIN).hasSizeGreaterThan(100);
        return sources;
    }
}
