import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.Latency;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.bench.WindowSample;
import dev.fleetfix.bench.verdict.BeforeAfter;
import dev.fleetfix.bench.verdict.MetricComparison;
import dev.fleetfix.bench.verdict.TestComparison;
import dev.fleetfix.bench.verdict.Thresholds;
import dev.fleetfix.bench.verdict.Verdict;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Judges the before/after pairs of kept report.json files again, with the verdict of the fleetfix jar it is compiled
 * against and the effect floors given, so that the same measured pairs can be read under another design: a
 * calibration's comparisons (bench/verdict-sensitivity.sh keeps one report directory per comparison) judged with
 * other floors, or with fewer rounds a side.
 *
 * <pre>
 *   javac -cp fleetfix.jar -d out bench/Rejudge.java
 *   java -cp fleetfix.jar:out Rejudge FLOOR TAIL_FLOOR ROUNDS report.json...
 * </pre>
 *
 * FLOOR and TAIL_FLOOR are the effect floors between two moments (0.20 and 0.50 are fleetfix's defaults); ROUNDS
 * keeps that many rounds a side, those nearest the change (the last of the before side, the first of the after
 * side), 0 for all. One line per host comparison: its verdict, each figure's verdict, change and interval, and, last,
 * the counts of each verdict.
 */
public final class Rejudge {
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: Rejudge FLOOR TAIL_FLOOR ROUNDS report.json...");
            System.exit(2);
        }
        double floor = Double.parseDouble(args[0]);
        double tailFloor = Double.parseDouble(args[1]);
        int keep = Integer.parseInt(args[2]);
        Thresholds d = Thresholds.DEFAULT;
        BeforeAfter judge = new BeforeAfter(new Thresholds(d.relativeNoise(), floor, tailFloor, d.alpha(), d.level()));
        ObjectMapper json = new ObjectMapper();
        Map<Verdict, Integer> counts = new TreeMap<>();
        Map<Metric, Integer> blocking = new TreeMap<>();
        for (int a = 3; a < args.length; a++) {
            JsonNode report = json.readTree(new File(args[a]));
            Map<String, List<BenchResult>> before = new LinkedHashMap<>();
            Map<String, List<BenchResult>> after = new LinkedHashMap<>();
            for (JsonNode run : report.path("benchmarks").path("runs")) {
                String phase = run.path("phase").asText();
                if (!phase.equals("before") && !phase.equals("after")) {
                    continue;
                }
                String key = run.path("host").asText() + " " + run.path("name").asText();
                for (JsonNode test : run.path("tests")) {
                    (phase.equals("before") ? before : after)
                            .computeIfAbsent(key, k -> new ArrayList<>())
                            .add(result(test));
                }
            }
            for (var e : before.entrySet()) {
                List<BenchResult> b = e.getValue();
                List<BenchResult> f = after.getOrDefault(e.getKey(), List.of());
                if (f.isEmpty()) {
                    continue;
                }
                if (keep > 0) {
                    b = b.subList(Math.max(0, b.size() - keep), b.size());
                    f = f.subList(0, Math.min(keep, f.size()));
                }
                String[] hn = e.getKey().split(" ", 2);
                TestComparison c = judge.compare(hn[0], hn[1], b.get(0).test(), b, f);
                counts.merge(c.verdict(), 1, Integer::sum);
                StringBuilder line = new StringBuilder(args[a] + " " + hn[0] + ": " + c.verdict());
                for (MetricComparison m : c.metrics()) {
                    if (!m.decisive()) {
                        continue;
                    }
                    if (c.verdict() != Verdict.NO_CHANGE_DETECTED && m.verdict() != Verdict.NO_CHANGE_DETECTED) {
                        blocking.merge(m.metric(), 1, Integer::sum);
                    }
                    line.append(String.format(
                            " | %s %s %+.0f%% [%+.0f%%, %+.0f%%]",
                            m.metric(),
                            m.verdict(),
                            (m.ratio() - 1) * 100,
                            (m.low() - 1) * 100,
                            (m.high() - 1) * 100));
                }
                System.out.println(line);
            }
        }
        System.out.println("verdicts: " + counts);
        System.out.println("figures not shown unchanged, in comparisons not called no change: " + blocking);
    }

    private static BenchResult result(JsonNode t) {
        List<WindowSample> windows = new ArrayList<>();
        for (JsonNode w : t.path("windows")) {
            windows.add(new WindowSample(
                    w.path("seconds").asDouble(),
                    w.path("requests").asLong(),
                    w.path("p50").asDouble(),
                    w.path("p90").asDouble(),
                    w.path("p99").asDouble(),
                    w.path("p999").asDouble(),
                    w.path("p9999").asDouble(),
                    w.path("max").asDouble()));
        }
        Map<Double, Double> reported = new TreeMap<>();
        t.path("percentiles").properties().forEach(p -> {
            if (!p.getKey().equals("max")) {
                reported.put(Double.parseDouble(p.getKey().substring(1)), p.getValue().asDouble());
            }
        });
        JsonNode cpu = t.path("client_cpu");
        Optional<ClientCpu> clientCpu = cpu.isObject()
                ? Optional.of(new ClientCpu(
                        cpu.path("process_share").asDouble(),
                        cpu.path("machine_share").asDouble(),
                        cpu.path("wait_share").asDouble()))
                : Optional.empty();
        Latency latency = new Latency(
                OptionalDouble.of(t.path("avg_ms").asDouble()),
                OptionalDouble.of(t.path("min_ms").asDouble()),
                OptionalDouble.of(t.path("percentiles").path("max").asDouble()),
                reported,
                List.of(),
                Optional.empty());
        return new BenchResult(
                t.path("test").asText(),
                t.path("rps").asDouble(),
                OptionalLong.of(t.path("requests").asLong()),
                latency,
                windows,
                clientCpu,
                t.path("errors").asLong());
    }
}
