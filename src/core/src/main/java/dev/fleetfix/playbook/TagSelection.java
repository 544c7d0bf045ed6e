package dev.fleetfix.playbook;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which steps {@code --tags} and {@code --skip-tags} select, with Ansible's semantics: a step's tags are its own
 * and its play's; a step without any counts as {@value #UNTAGGED}.
 *
 * <ul>
 *   <li>{@code --tags} (default {@value #ALL}) selects a step that has one of the tags asked for, or {@value
 *       #ALWAYS}; {@value #ALL} selects every step but those tagged {@value #NEVER}; {@value #TAGGED} every step
 *       with a tag, again but {@value #NEVER}; {@value #UNTAGGED} every step without one. A {@value #NEVER} step
 *       runs only when one of its tags is asked for by name ({@code --tags never}, or its other tag).
 *   <li>{@code --skip-tags} then leaves out a step with one of those tags ({@value #ALWAYS} too, when asked by
 *       name); {@value #ALL} leaves out every step but the {@value #ALWAYS} ones; {@value #TAGGED} every step with
 *       a tag; {@value #UNTAGGED} every step without one.
 * </ul>
 *
 * @param only the tags asked for ({@code --tags}), never empty: {@value #ALL} when none was given
 * @param skip the tags to leave out ({@code --skip-tags}), possibly empty
 */
public record TagSelection(Set<String> only, Set<String> skip) {
    public static final String ALL = "all";
    public static final String TAGGED = "tagged";
    public static final String UNTAGGED = "untagged";
    public static final String ALWAYS = "always";
    public static final String NEVER = "never";

    /** Words that select, and so cannot be a step's tag ({@value #ALWAYS} and {@value #NEVER} can). */
    public static final Set<String> SELECTION_WORDS = Set.of(ALL, TAGGED, UNTAGGED);

    private static final TagSelection DEFAULT = new TagSelection(Set.of(ALL), Set.of());

    public TagSelection {
        Objects.requireNonNull(only, "only");
        Objects.requireNonNull(skip, "skip");
        only = only.isEmpty() ? Set.of(ALL) : sorted(only);
        skip = sorted(skip);
    }

    /** No {@code --tags}, no {@code --skip-tags}: every step but the {@value #NEVER} ones. */
    public static TagSelection all() {
        return DEFAULT;
    }

    /**
     * The selection of the command line: each value of {@code --tags} and {@code --skip-tags} is one tag or
     * several separated by commas, as Ansible takes them; spaces around a tag are dropped.
     *
     * @throws IllegalArgumentException naming the option, for an empty tag ({@code "a,,b"}, {@code ""})
     */
    public static TagSelection of(List<String> tags, List<String> skipTags) {
        return new TagSelection(split("--tags", tags), split("--skip-tags", skipTags));
    }

    private static Set<String> split(String option, List<String> values) {
        Set<String> tags = new LinkedHashSet<>();
        for (String value : values) {
            for (String piece : value.split(",", -1)) {
                String tag = piece.strip();
                if (tag.isEmpty()) {
                    throw new IllegalArgumentException(
                            option + ": an empty tag in '" + value + "' (tags are separated by single commas)");
                }
                tags.add(tag);
            }
        }
        return tags;
    }

    /** Whether this is the default, which runs every step but the {@value #NEVER} ones. */
    public boolean isDefault() {
        return equals(DEFAULT);
    }

    /**
     * Whether a step with these tags (its own and its play's) runs.
     *
     * @param tags the step's tags; empty for an untagged step
     */
    public boolean selects(Collection<String> tags) {
        Set<String> has = tags.isEmpty() ? Set.of(UNTAGGED) : Set.copyOf(tags);
        boolean never = has.contains(NEVER);
        boolean tagged = !tags.isEmpty();
        boolean asked = has.contains(ALWAYS)
                || (only.contains(ALL) && !never)
                || shares(has, only)
                || (only.contains(TAGGED) && tagged && !never);
        if (!asked) {
            return false;
        }
        if (skip.contains(ALL)) {
            return has.contains(ALWAYS) && !skip.contains(ALWAYS);
        }
        return !shares(has, skip) && !(skip.contains(TAGGED) && tagged);
    }

    /** The play's steps this selection runs, in order. */
    public List<Step> steps(Play play) {
        List<Step> chosen = new ArrayList<>();
        for (Step step : play.steps()) {
            if (selects(play.tagsOf(step))) {
                chosen.add(step);
            }
        }
        return chosen;
    }

    /** {@code "thp, restart"}, {@code "all; skip: benchmark"}: what the run start says. */
    public String describe() {
        String asked = String.join(", ", only);
        return skip.isEmpty() ? asked : asked + "; skip: " + String.join(", ", skip);
    }

    private static boolean shares(Set<String> a, Set<String> b) {
        for (String tag : a) {
            if (b.contains(tag)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> sorted(Set<String> tags) {
        return Collections.unmodifiableSet(new TreeSet<>(tags));
    }
}
