package dev.fleetfix.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.inventory.ansible.InventoryInput;
import dev.fleetfix.inventory.ansible.InventoryService;
import dev.fleetfix.playbook.TagSelection;
import dev.fleetfix.redis.RedisConnector;
import dev.fleetfix.rollout.ApplyRequest;
import dev.fleetfix.rollout.shard.ShardSpec;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code apply} runs, from its command line and, with {@code --resume DIR}, from the journal of the run it
 * resumes: the journal's playbook, inventory, {@code --limit}, tags and shard, unless the command line gives them.
 */
record ApplyInputs(
        Path playbook, InventoryInput source, Optional<String> limit, TagSelection tags, Optional<ShardSpec> shard) {

    /** @throws InputException when no playbook is given or resumed, or two listings are asked for */
    static ApplyInputs of(
            Optional<Path> playbook,
            InventoryOptions inventory,
            TagOptionsMixin tags,
            ShardOptions shards,
            Optional<ApplyRequest.Resume> resumed) {
        Optional<Path> book = playbook;
        InventoryInput source = inventory.source();
        Optional<String> limit = inventory.limit();
        if (resumed.isPresent()) {
            book = resumed.get().playbook(book);
            if (source.sources().size() < 2) {
                Optional<Path> first = source.sources().stream().findFirst();
                source = source.withSources(
                        resumed.get().inventory(first).stream().toList());
            }
            limit = resumed.get().limit(limit);
        }
        if (book.isEmpty()) {
            throw new InputException("missing PLAYBOOK (or --resume DIR of an earlier run)");
        }
        if (tags.listing() && inventory.listHosts()) {
            throw new InputException("--list-hosts, and --list-tasks or --list-tags: ask for one listing at a time");
        }
        Optional<TagSelection> givenTags = tags.given();
        TagSelection tagSelection =
                resumed.map(r -> r.tags(givenTags)).orElseGet(() -> givenTags.orElse(TagSelection.all()));
        // a resume takes its run's cut unless told otherwise (which it refuses without --force)
        Optional<ShardSpec> shard = resumed.map(r -> r.shard(shards.spec())).orElseGet(shards::spec);
        return new ApplyInputs(book.get(), source, limit, tagSelection, shard);
    }

    /** The hosts: the inventory narrowed by {@code --limit} and {@code --shard}. */
    HostSelection select(
            InventoryService inventories, ShardOptions shards, RedisConnector redis, int forks, boolean discover) {
        // group_vars/ and host_vars/ next to the playbook count too, above the inventory's
        Optional<Path> besideBook = Optional.of(playbook.toAbsolutePath().getParent());
        return shards.narrow(inventories.load(source, limit, besideBook), shard, redis, forks, discover);
    }
}
