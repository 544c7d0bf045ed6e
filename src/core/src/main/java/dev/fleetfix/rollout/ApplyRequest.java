package dev.fleetfix.rollout;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.rollout.journal.RunInputs;
import dev.fleetfix.rollout.journal.RunJournal;
import dev.fleetfix.rollout.plan.RunOptions;
import dev.fleetfix.rollout.shard.ShardSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code fleetfix apply}, as parsed: what to run on which hosts, how, and which run it continues.
 * {@link ApplyService#apply} makes the run id and owns the journal, the resume set, the host locks'
 * owner and the stop on a signal.
 *
 * @param playbook the playbook file
 * @param selection the inventory and the hosts {@code --limit} selects; its first source and its limit are
 *     recorded in the journal for {@code --resume}
 * @param shard the {@code --shard K/N} whose hosts {@code selection} holds, recorded in the journal for
 *     {@code --resume}; empty without it
 * @param options check, diff, forks, window, tags, extra vars, stale locks, where the journal goes
 * @param resume the run being resumed, if any: its journal dir is this run's
 */
public record ApplyRequest(
        Path playbook,
        HostSelection selection,
        Optional<ShardSpec> shard,
        RunOptions options,
        Optional<Resume> resume) {

    public ApplyRequest {
        Objects.requireNonNull(playbook, "playbook");
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(resume, "resume");
    }

    /**
     * A journaled run to continue ({@code --resume DIR}): hosts done there are skipped, and what
     * it ran with fills what the command line leaves out.
     *
     * @param dir the run's journal dir
     * @param journal what its journal says
     * @param force resume even when the playbook or the inventory changed since the run started
     *     ({@code --force})
     */
    public record Resume(Path dir, RunJournal.Resumable journal, boolean force) {
        public Resume {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(journal, "journal");
        }

        public Resume(Path dir, RunJournal.Resumable journal) {
            this(dir, journal, false);
        }

        /** @throws InputException when DIR holds no readable journal */
        public static Resume read(Path dir) {
            return read(dir, false);
        }

        /** @throws InputException when DIR holds no readable journal */
        public static Resume read(Path dir, boolean force) {
            try {
                return new Resume(dir, RunJournal.read(dir), force);
            } catch (IllegalArgumentException e) {
                throw new InputException("--resume: " + e.getMessage());
            }
        }

        /**
         * What changed in the playbook and inventory files since the journaled run read them; empty when
         * nothing did, or the journal predates the digests.
         */
        public List<String> changes(RunInputs now) {
            return journal.inputs().map(now::changesSince).orElse(List.of());
        }

        /**
         * Refuses to resume a run whose playbook or inventory changed since it started, naming what did,
         * unless forced: the hosts done then were done by another plan than the one this run would run.
         *
         * @return what changed, when forced (for a warning); empty when nothing did
         * @throws InputException when something changed and the resume is not forced
         */
        public List<String> checkUnchanged(RunInputs now) {
            List<String> changes = changes(now);
            if (!changes.isEmpty() && !force) {
                throw new InputException("--resume " + dir + ": " + String.join("; ", changes)
                        + " since the run started: the hosts it did were done by another plan than this one;"
                        + " start a new run, or add --force to resume anyway");
            }
            return changes;
        }

        /**
         * The playbook to run: the one given, which must be the journal's, else the journal's.
         *
         * @throws InputException when the given playbook is not the one the journal ran
         */
        public Optional<Path> playbook(Optional<Path> given) {
            if (given.isEmpty()) {
                return journal.playbook().map(Path::of);
            }
            Path path = given.get();
            if (journal.playbook().isPresent()
                    && !Path.of(journal.playbook().get())
                            .equals(path.toAbsolutePath().normalize())) {
                throw new InputException("--resume " + dir + " ran playbook "
                        + journal.playbook().get() + ", not " + path);
            }
            return given;
        }

        /** The inventory given, else the journal's. */
        public Optional<Path> inventory(Optional<Path> given) {
            return given.isPresent() ? given : journal.inventory().map(Path::of);
        }

        /** The {@code --limit} given, else the journal's. */
        public Optional<String> limit(Optional<String> given) {
            return given.isPresent() ? given : journal.limit();
        }

        /**
         * The {@code --shard} of the journaled run, unless given. Another shard (or one given to a run that had none)
         * is refused unless forced: the hosts the run did are its own shard's, and another shard's run may be working
         * on the hosts this one would take, so a resume must take the same cut.
         *
         * @param given the {@code --shard} of the command line
         * @throws InputException when the given shard differs from the journal's and the resume is not forced
         */
        public Optional<ShardSpec> shard(Optional<ShardSpec> given) {
            Optional<ShardSpec> journaled = journal.shard();
            if (given.isEmpty() || given.equals(journaled)) {
                return journaled;
            }
            if (!force) {
                throw new InputException("--resume " + dir + " ran "
                        + journaled.map(s -> "shard " + s).orElse("without --shard (every selected host)") + ", not"
                        + " shard " + given.get() + ": the hosts it did are its own cut's, and another run may hold the"
                        + " hosts this one would take; give the same --shard (or none, to keep the run's), start a new"
                        + " run, or add --force to resume with this one");
            }
            return given;
        }

        /**
         * The {@code --tags} and {@code --skip-tags} of the journaled run, unless given. Other tags than its are
         * refused unless forced: a host journaled done there ran only the steps its tags selected, and a resume
         * skips it.
         *
         * @param given the tags of the command line, when it gave {@code --tags} or {@code --skip-tags}
         * @throws InputException when the given tags differ from the journal's and the resume is not forced
         */
        public TagSelection tags(Optional<TagSelection> given) {
            TagSelection journaled = journal.tags();
            if (given.isEmpty() || given.get().equals(journaled)) {
                return journaled;
            }
            if (!force) {
                throw new InputException("--resume " + dir + " ran with tags " + journaled.describe() + ", not "
                        + given.get().describe() + ": the hosts it did ran only the steps its tags selected, and a"
                        + " resume skips them; give the same tags (or none, to keep them), start a new run, or add"
                        + " --force to resume with these");
            }
            return given.get();
        }
    }
}
