package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.playbook.TagSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Which of a playbook's steps {@code apply} runs ({@code --tags}, {@code --skip-tags}), and the offline listings. */
final class TagOptionsMixin {
    @Option(
            names = {"-t", "--tags"},
            paramLabel = "TAGS",
            description = "Run only the steps with one of these tags (comma separated, repeatable), and those tagged"
                    + " 'always'. A step has its own tags and its play's. Special: all (the default: every step but"
                    + " those tagged 'never'), tagged, untagged. A step tagged 'never' runs only when one of its"
                    + " tags is named here. With --resume: the journal's unless given.")
    List<String> tags = new ArrayList<>();

    @Option(
            names = "--skip-tags",
            paramLabel = "TAGS",
            description = "Leave out the steps with one of these tags (comma separated, repeatable), after --tags."
                    + " 'always' steps too when 'always' is named; all: every step but the 'always' ones. A restart's"
                    + " own data safety is inside the restart_redis step: no tag leaves it out.")
    List<String> skipTags = new ArrayList<>();

    @Option(
            names = "--list-tags",
            description = "Print each play's tags and those of the steps --tags and --skip-tags select (as"
                    + " ansible-playbook --list-tags), then exit. Reads the files only: connects to nothing.")
    boolean listTags;

    @Option(
            names = "--list-tasks",
            description = "Print each play's steps that --tags and --skip-tags select, with their tags (as"
                    + " ansible-playbook --list-tasks), then exit. Reads the files only: connects to nothing.")
    boolean listTasks;

    /**
     * The tags of the command line, when it gave {@code --tags} or {@code --skip-tags}.
     *
     * @throws InputException for an empty tag
     */
    Optional<TagSelection> given() {
        if (tags.isEmpty() && skipTags.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(TagSelection.of(tags, skipTags));
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    boolean listing() {
        return listTags || listTasks;
    }
}
