package dev.fleetfix.steps.facts;

import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.checks.ThpParser;
import dev.fleetfix.redis.RedisException;
import dev.fleetfix.redis.RedisNode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.steps.host.HostFiles.Shell;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.ScriptResource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the facts the engine needs in one shell round trip: where THP lives and its modes, the init
 * system, the distro, the kernel, which grub tool exists; and the Redis role and version.
 */
public final class ShellFacts implements FactGatherer {
    public static final String THP_DIRS =
            "/sys/kernel/mm/transparent_hugepage /sys/kernel/mm/redhat_transparent_hugepage";

    /** Whether {@code dir} is one of the kernel's THP directories ({@link #THP_DIRS}), exactly. */
    public static boolean isThpDir(String dir) {
        return List.of(THP_DIRS.split(" ")).contains(dir);
    }

    /** The script ({@code shell-facts.sh} next to this class) after its one parameter. */
    private static final String SCRIPT =
            ScriptResource.assign("thp_dirs", THP_DIRS) + ScriptResource.read(ShellFacts.class, "shell-facts.sh");

    @Override
    public Map<String, String> gather(StepContext ctx) {
        ExecResult r = Shell.read(ctx, SCRIPT);
        if (!r.ok()) {
            throw new StepFailure("fact gathering failed: " + r.errorText());
        }
        Map<String, String> facts = parse(r.stdout());
        facts.putIfAbsent("thp.path", "none");
        facts.putIfAbsent("grub.tool", "none");
        for (String key : new String[] {"thp.enabled", "thp.defrag"}) {
            String raw = facts.get(key);
            facts.put(
                    key,
                    raw == null
                            ? ThpMode.UNSUPPORTED.word()
                            : ThpParser.selected(raw).map(ThpMode::word).orElse(raw));
        }
        facts.putAll(redisFacts(ctx));
        return facts;
    }

    static Map<String, String> parse(String stdout) {
        Map<String, String> facts = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                facts.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return facts;
    }

    private static Map<String, String> redisFacts(StepContext ctx) {
        Map<String, String> facts = new LinkedHashMap<>();
        try (RedisNode node = ctx.redis().open(Duration.ofSeconds(5))) {
            facts.put("redis.reachable", "yes");
            facts.put("redis.role", node.info("replication").getOrDefault("role", "unknown"));
            Optional<RedisServer> server = RedisServer.of(node);
            facts.put("redis.version", server.map(v -> v.version().toString()).orElse("unknown"));
            facts.put("redis.flavour", server.map(v -> v.flavour().word()).orElse("unknown"));
        } catch (RedisException e) {
            facts.put("redis.reachable", "no");
        }
        return facts;
    }
}
