package dev.fleetfix.rollout.plan;

import dev.fleetfix.playbook.Play;
import dev.fleetfix.playbook.Playbook;
import dev.fleetfix.playbook.Step;
import dev.fleetfix.playbook.TagSelection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code apply --list-tasks} and {@code --list-tags} show, as {@code ansible-playbook} does: per play, the
 * steps the tags select with their tags, and the tags of the play and those steps. Made from the playbook alone:
 * no host, and no Redis, is contacted.
 *
 * @param playbook the playbook, as given
 * @param plays its plays, in order
 */
public record TaskListing(Path playbook, List<PlayTasks> plays) {
    public TaskListing {
        Objects.requireNonNull(playbook, "playbook");
        plays = List.copyOf(plays);
    }

    /**
     * One play.
     *
     * @param number its place in the playbook, from 1
     * @param name its name
     * @param hosts its host pattern
     * @param tags the play's own tags, which its steps inherit
     * @param steps the steps the tags select, in order
     * @param taskTags the play's tags and those of the selected steps, sorted: {@code TASK TAGS}
     */
    public record PlayTasks(
            int number, String name, String hosts, List<String> tags, List<ListedStep> steps, List<String> taskTags) {
        public PlayTasks {
            tags = List.copyOf(tags);
            steps = List.copyOf(steps);
            taskTags = List.copyOf(taskTags);
        }
    }

    /**
     * A step that would run.
     *
     * @param index its place in the play, from 1
     * @param name its name (its type when it has none)
     * @param tags its own and its play's, sorted
     */
    public record ListedStep(int index, String name, List<String> tags) {
        public ListedStep {
            tags = List.copyOf(tags);
        }
    }

    /** The listing of {@code playbook} under {@code selection}. */
    public static TaskListing of(Path given, Playbook playbook, TagSelection selection) {
        List<PlayTasks> plays = new ArrayList<>();
        int number = 0;
        for (Play play : playbook.plays()) {
            number++;
            List<Step> chosen = selection.steps(play);
            List<ListedStep> steps = new ArrayList<>();
            Set<String> taskTags = new TreeSet<>(play.tags());
            for (Step step : chosen) {
                List<String> tags = play.tagsOf(step);
                taskTags.addAll(tags);
                steps.add(new ListedStep(play.steps().indexOf(step) + 1, step.name(), tags));
            }
            plays.add(new PlayTasks(
                    number,
                    play.name(),
                    play.hosts(),
                    List.copyOf(new TreeSet<>(play.tags())),
                    steps,
                    List.copyOf(taskTags)));
        }
        return new TaskListing(given, plays);
    }
}
