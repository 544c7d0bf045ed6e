package dev.fleetfix.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that works on the inventory's hosts ({@code apply}, {@code audit}, {@code bench}): the composition root's
 * adapters, and the options every such command takes (the inventory and {@code --limit}, {@code --shard}, SSH,
 * {@code --forks}).
 */
abstract class HostsCommand {
    final Adapters adapters;

    @Spec
    CommandSpec spec;

    @Mixin
    InventoryOptions inventory;

    @Mixin
    ShardOptions shards;

    @Mixin
    SshOptionsMixin ssh;

    @Mixin
    ForksOption forks;

    HostsCommand(Adapters adapters) {
        this.adapters = adapters;
    }
}
