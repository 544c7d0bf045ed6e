package dev.fleetfix.bench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The fleet's words over every mix of host verdicts, 1 to 4 hosts. A reader (and a lab test that cannot know
 * which word a busy machine gives) gets one form: "on K of N hosts" with K the hosts that carry the fleet's word,
 * or "hosts disagree". A stop's CI run failed when "no change detected on all 2 hosts" met a pattern for that form.
 */
class FleetVerdictTest {
    private static final Pattern ON_K_OF_N = Pattern.compile(
            "on (\\d+) of (\\d+) hosts(, none (improved|regressed|called a change)( \\(.*\\))?)?(; too few hosts for a fleet interval)?");
    private static final Pattern DISAGREE =
            Pattern.compile("hosts disagree: (\\d+) improved, (\\d+) regressed(; too few hosts for a fleet interval)?");

    @Test
    void everyMixOfHostVerdictsGivesOneFormOfReason() {
        int mixes = 0;
        for (int n = 1; n <= 4; n++) {
            for (List<Verdict> mix : mixes(n)) {
                List<TestComparison> hosts = new ArrayList<>();
                for (int i = 0; i < mix.size(); i++) {
                    hosts.add(host("lab-" + (i + 1), mix.get(i)));
                }
                FleetComparison fleet = FleetVerdict.of("thp", "FORK-UNDER-LOAD", hosts, 0.2);
                String reason = fleet.reason();
                Matcher on = ON_K_OF_N.matcher(reason);
                Matcher disagree = DISAGREE.matcher(reason);
                assertThat(on.matches() || disagree.matches())
                        .as(mix + " → " + reason)
                        .isTrue();
                assertThat(reason.endsWith("; " + FleetVerdict.TOO_FEW_HOSTS))
                        .as(mix + " → " + reason)
                        .isEqualTo(n < FleetVerdict.MIN_HOSTS);
                if (on.matches()) {
                    assertThat(Integer.parseInt(on.group(2))).as(reason).isEqualTo(n);
                    assertThat(Integer.parseInt(on.group(1)))
                            .as(mix + " → " + fleet.verdict() + " " + reason)
                            .isEqualTo(fleet.count(fleet.verdict()) > 0 ? fleet.count(fleet.verdict()) : -1);
                } else {
                    assertThat(fleet.verdict()).as(reason).isEqualTo(Verdict.INCONCLUSIVE);
                    assertThat(Integer.parseInt(disagree.group(1))).isEqualTo(fleet.count(Verdict.IMPROVED));
                    assertThat(Integer.parseInt(disagree.group(2))).isEqualTo(fleet.count(Verdict.REGRESSED));
                }
                mixes++;
            }
        }
        assertThat(mixes).isEqualTo(4 + 16 + 64 + 256);
    }

    private static List<List<Verdict>> mixes(int n) {
        List<List<Verdict>> all = new ArrayList<>();
        all.add(List.of());
        for (int i = 0; i < n; i++) {
            List<List<Verdict>> longer = new ArrayList<>();
            for (List<Verdict> mix : all) {
                for (Verdict v : Verdict.values()) {
                    List<Verdict> next = new ArrayList<>(mix);
                    next.add(v);
                    longer.add(next);
                }
            }
            all = longer;
        }
        return all;
    }

    private static TestComparison host(String name, Verdict verdict) {
        Optional<String> reason = verdict == Verdict.INCONCLUSIVE ? Optional.of("interval too wide") : Optional.empty();
        return new TestComparison(
                name, "thp", "FORK-UNDER-LOAD", 3, 3, List.of(), verdict, "plain", List.of(), List.of(), reason);
    }
}
