package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The engine files of contrib/ (Kubernetes Jobs, AWX playbooks and workflow), parsed: no cluster or AWX runs here, so
 * this checks what can be checked offline. The shard count agrees everywhere, the command lines parse as fleetfix's
 * own, and every mount names a volume.
 */
class ContribManifestsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path KUBERNETES = Path.of("contrib/kubernetes");
    private static final Path AWX = Path.of("contrib/awx");

    @Test
    void theIndexedJobRunsOneShardPerIndexAndTheMergeReadsEveryShard() throws IOException {
        List<JsonNode> docs = documents(KUBERNETES.resolve("fleetfix-shards.yaml"));
        assertThat(docs).extracting(d -> d.path("kind").asText()).containsExactly("PersistentVolumeClaim", "Job");
        JsonNode job = docs.get(1);
        assertThat(job.path("apiVersion").asText()).isEqualTo("batch/v1");
        JsonNode spec = job.path("spec");
        assertThat(spec.path("completionMode").asText()).isEqualTo("Indexed");
        int shards = spec.path("completions").asInt();
        assertThat(shards).isGreaterThan(1);
        assertThat(spec.path("parallelism").asInt()).isEqualTo(shards);
        JsonNode pod = spec.path("template").path("spec");
        assertThat(pod.path("restartPolicy").asText()).isEqualTo("Never");
        mountsNameVolumes(pod);

        String shardCommand = command(pod);
        assertThat(pod.path("containers").get(0).path("args").get(0).asText())
                .startsWith("K=$((JOB_COMPLETION_INDEX+1)) && exec fleetfix apply ");
        assertThat(shardCommand).contains("--shard \"$K/" + shards + "\"");
        parsesAsFleetfix(shardCommand.replace("$K", "1").replace("$RUN", "change-1"));

        JsonNode merge = documents(KUBERNETES.resolve("fleetfix-merge.yaml")).get(0);
        assertThat(merge.path("kind").asText()).isEqualTo("Job");
        JsonNode mergePod = merge.path("spec").path("template").path("spec");
        mountsNameVolumes(mergePod);
        String mergeCommand = command(mergePod);
        for (int k = 1; k <= shards; k++) {
            assertThat(mergeCommand).contains("/shard-" + k + "\"");
        }
        assertThat(mergeCommand).doesNotContain("/shard-" + (shards + 1));
        parsesAsFleetfix(mergeCommand.replace("$RUN", "change-1"));
    }

    @Test
    void theAwxWorkflowRunsEveryShardThenTheMerge() throws IOException {
        JsonNode tasks = documents(AWX.resolve("workflow.yml")).get(0).get(0).path("tasks");
        List<String> playbooks = new ArrayList<>();
        JsonNode nodes = null;
        for (JsonNode task : tasks) {
            if (task.path("awx.awx.job_template").has("playbook")) {
                playbooks.add(task.path("awx.awx.job_template").path("playbook").asText());
            }
            if (task.has("awx.awx.workflow_job_template")) {
                nodes = task.path("awx.awx.workflow_job_template").path("workflow_nodes");
            }
        }
        assertThat(playbooks).containsExactly("contrib/awx/fleetfix-shard.yml", "contrib/awx/fleetfix-merge.yml");
        playbooks.forEach(p -> assertThat(Path.of(p)).exists());
        assertThat(nodes).isNotNull();
        Set<Integer> shards = new HashSet<>();
        for (JsonNode node : nodes) {
            if (node.path("identifier").asText().startsWith("shard-")) {
                shards.add(node.path("extra_data").path("shard").asInt());
                assertThat(node.path("related")
                                .path("success_nodes")
                                .get(0)
                                .path("identifier")
                                .asText())
                        .isEqualTo("merge");
            } else {
                assertThat(node.path("identifier").asText()).isEqualTo("merge");
                assertThat(node.path("all_parents_must_converge").asBoolean()).isTrue();
                assertThat(node.path("extra_data").path("shards").asInt()).isEqualTo(nodes.size() - 1);
            }
        }
        int shardNodes = nodes.size() - 1;
        assertThat(shards).hasSize(shardNodes).allSatisfy(k -> assertThat(k).isBetween(1, shardNodes));

        JsonNode shardPlay = documents(AWX.resolve("fleetfix-shard.yml")).get(0).get(0);
        List<String> argv = new ArrayList<>();
        shardPlay
                .path("tasks")
                .get(1)
                .path("ansible.builtin.command")
                .path("argv")
                .forEach(a -> argv.add(a.asText()));
        assertThat(argv).containsSubsequence("fleetfix", "apply").contains("--shard", "{{ shard }}/{{ shards }}");
        parsesAsFleetfix(String.join(" ", argv.subList(1, argv.size()))
                .replace("{{ shard }}/{{ shards }}", "1/3")
                .replaceAll("\\{\\{ [a-z_]+ }}", "x"));
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        try (var parser = YAML.getFactory().createParser(Files.readString(file))) {
            return YAML.readValues(parser, JsonNode.class).readAll();
        }
    }

    private static void mountsNameVolumes(JsonNode pod) {
        Set<String> volumes = new HashSet<>();
        pod.path("volumes").forEach(v -> volumes.add(v.path("name").asText()));
        pod.path("containers").forEach(c -> c.path("volumeMounts")
                .forEach(m -> assertThat(volumes).contains(m.path("name").asText())));
    }

    /** The container's shell command, from {@code exec fleetfix} on. */
    private static String command(JsonNode pod) {
        String script = pod.path("containers").get(0).path("args").get(0).asText();
        Matcher m = Pattern.compile("exec fleetfix (.*)$", Pattern.DOTALL).matcher(script);
        assertThat(m.find()).as(script).isTrue();
        return m.group(1).strip();
    }

    /** The words, quotes removed, parse as a fleetfix command line (the options exist and take what they are given). */
    private static void parsesAsFleetfix(String words) {
        String[] args = words.replace("\"", "").strip().split("\\s+");
        Main.commandLine().parseArgs(args);
    }
}
