package dev.fleetfix.rollout.plan;

import dev.fleetfix.InputException;
import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.TagSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code --start-at-task NAME}, as {@code ansible-playbook} has it: the run starts at the first step whose name
 * matches NAME (exactly, or as a shell glob such as {@code "benchmark *"}); the plays before that step's play and
 * the steps before it are not run. A step's name is its {@code name:}, else its type.
 *
 * <p>Unlike Ansible, a start that would leave a kept step without the earlier step it depends on is refused, with
 * the reason: an after benchmark compares with the before benchmark of the same name, so starting between the
 * two would report a comparison with nothing; a {@code role_unchanged} health gate compares with the role that an
 * audit or a restart read, so starting past them would fail every host. The restart's own safety (the save, the
 * failover, the wait for sync) lives inside {@code restart_redis} and cannot be started past. Dependencies are
 * judged on the steps that {@code --tags}/{@code --skip-tags} keep: a start that skips a benchmark the tags leave out
 * anyway, before an after benchmark they also leave out, cuts nothing.
 */
public final class StartAtTask {
    private StartAtTask() {}

    /**
     * The playbook from the first step named {@code name} on.
     *
     * @param tags the steps the run keeps, by which the dependencies are judged
     * @throws InputException when no step matches (naming the steps there are), or the start would cut a step
     *     the tags keep from one it depends on
     */
    public static Playbook from(Playbook playbook, String name, TagSelection tags) {
        Pattern glob = glob(name);
        for (int p = 0; p < playbook.plays().size(); p++) {
            Play play = playbook.plays().get(p);
            for (int s = 0; s < play.steps().size(); s++) {
                if (glob.matcher(play.steps().get(s).name()).matches()) {
                    List<Step> kept = play.steps().subList(s, play.steps().size());
                    List<Step> selected = tags.steps(play);
                    refuseCut(
                            name,
                            play.steps().subList(0, s).stream()
                                    .filter(selected::contains)
                                    .toList(),
                            kept.stream().filter(selected::contains).toList());
                    List<Play> plays = new ArrayList<>();
                    plays.add(play.withSteps(kept));
                    plays.addAll(
                            playbook.plays().subList(p + 1, playbook.plays().size()));
                    return new Playbook(playbook.source(), plays, playbook.warnings());
                }
            }
        }
        List<String> names = playbook.plays().stream()
                .flatMap(play -> play.steps().stream())
                .map(Step::name)
                .distinct()
                .toList();
        throw new InputException("--start-at-task '" + name + "': no step of " + playbook.source()
                + " has that name; its steps: " + String.join(", ", names));
    }

    /** A kept step whose need only a skipped step meets (none kept before it does) refuses the start. */
    private static void refuseCut(String name, List<Step> skipped, List<Step> kept) {
        for (int i = 0; i < kept.size(); i++) {
            Step later = kept.get(i);
            List<Step> keptBefore = kept.subList(0, i);
            for (Need need : Need.values()) {
                if (!need.of(later) || keptBefore.stream().anyMatch(e -> need.metBy(later, e))) {
                    continue;
                }
                Optional<Step> cut =
                        skipped.stream().filter(e -> need.metBy(later, e)).findFirst();
                if (cut.isPresent()) {
                    Step before = cut.get();
                    throw new InputException("--start-at-task '" + name + "': it would skip '" + before.name()
                            + "' (line " + before.location().line() + "), which '" + later.name() + "' (line "
                            + later.location().line() + ") " + need.why + "; start at or before '" + before.name()
                            + "'");
                }
            }
        }
    }

    /** What a step needs from an earlier step of its play. */
    private enum Need {
        /** An after benchmark compares with the before benchmark of its name. */
        BEFORE_BENCHMARK("compares with") {
            @Override
            boolean of(Step later) {
                return later.type().equals("benchmark")
                        && "after".equals(String.valueOf(later.args().get("phase")));
            }

            @Override
            boolean metBy(Step later, Step earlier) {
                return earlier.type().equals("benchmark")
                        && "before".equals(String.valueOf(earlier.args().get("phase")))
                        && String.valueOf(later.args().get("name"))
                                .equals(String.valueOf(earlier.args().get("name")));
            }
        },
        /** The role_unchanged gate (one of wait_healthy's defaults) compares with the role an audit or a restart read. */
        ROLE_READ("reads the role from, for its role_unchanged gate") {
            @Override
            boolean of(Step later) {
                if (!later.type().equals("wait_healthy")) {
                    return false;
                }
                Object gates = later.args().get("gates");
                return gates == null || String.valueOf(gates).contains("role_unchanged");
            }

            @Override
            boolean metBy(Step later, Step earlier) {
                return earlier.type().equals("audit") || earlier.type().equals("restart_redis");
            }
        };

        final String why;

        Need(String why) {
            this.why = why;
        }

        abstract boolean of(Step later);

        abstract boolean metBy(Step later, Step earlier);
    }

    /** Python's fnmatch: {@code *}, {@code ?} and {@code [...]}; everything else is literal. */
    static Pattern glob(String text) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int close = c == '[' ? text.indexOf(']', i + 2) : -1;
            if (c == '*') {
                regex.append(".*");
            } else if (c == '?') {
                regex.append('.');
            } else if (close > 0) {
                String set = text.substring(i + 1, close);
                boolean negated = set.startsWith("!");
                regex.append('[')
                        .append(negated ? "^" : "")
                        .append((negated ? set.substring(1) : set)
                                .replace("\\", "\\\\")
                                .replace("[", "\\[")
                                .replace("&", "\\&"))
                        .append(']');
                i = close;
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
