package dev.fleetfix.lab.cli;

import dev.fleetfix.InputException;
import dev.fleetfix.cli.Screens;
import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabHostSpec;
import dev.fleetfix.lab.LabPreset;
import dev.fleetfix.lab.LabPresets;
import dev.fleetfix.lab.LabSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fleetfix lab}: a throwaway fleet of real Redis hosts in local containers, to rehearse on. */
@Command(
        name = "lab",
        mixinStandardHelpOptions = true,
        description = "A throwaway fleet of real Redis hosts (systemd, sshd, redis-server) in local Docker"
                + " containers, each on its own loopback address: rehearse a playbook before running it on production.",
        subcommands = {
            LabCommand.Up.class,
            LabCommand.Status.class,
            LabCommand.Inventory.class,
            LabCommand.Reboot.class,
            LabCommand.Down.class
        })
public final class LabCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where labs live. */
    static final class Home {
        @Option(
                names = "--home",
                paramLabel = "DIR",
                defaultValue = "${env:FLEETFIX_LAB_HOME:-${sys:user.home}/.fleetfix/lab}",
                description = "Directory of labs (default: ${DEFAULT-VALUE}).")
        Path dir;
    }

    /** Where labs live, and which one a command is about. */
    static final class Where {
        @Mixin
        Home home;

        @Option(
                names = "--id",
                paramLabel = "ID",
                description = "The lab to act on, when more than one is up (see 'fleetfix lab status').")
        Optional<String> id;

        /** The one lab meant: the one with --id, or the only one. */
        Path labDir() {
            List<Path> labs = LabFleet.find(home.dir);
            if (id.isPresent()) {
                return labs.stream()
                        .filter(dir -> dir.getFileName().toString().equals(id.get()))
                        .findFirst()
                        .orElseThrow(() -> new InputException("no lab '" + id.get() + "' in " + home.dir));
            }
            if (labs.isEmpty()) {
                throw new InputException("no lab is up in " + home.dir + "; start one with 'fleetfix lab up'");
            }
            if (labs.size() > 1) {
                throw new InputException("more than one lab is up in " + home.dir + " ("
                        + String.join(
                                ", ",
                                labs.stream()
                                        .map(d -> d.getFileName().toString())
                                        .toList())
                        + "); choose one with --id");
            }
            return labs.get(0);
        }
    }

    /** A subcommand about one lab: where labs live, which one, and where it prints. */
    abstract static class OnALab implements Runnable {
        @Spec
        CommandSpec spec;

        @Mixin
        Where where;
    }

    /** {@code thp-always}, {@code mixed}, ..., {@code operators}: what completion offers. */
    static final class Presets implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> words = new ArrayList<>();
            for (LabPreset preset : LabPreset.values()) {
                words.add(preset.cliName());
            }
            words.add(LabPresets.OPERATORS);
            return words.iterator();
        }
    }

    /** Lists every preset under {@code lab up --help}, one line each, from the presets themselves. */
    static final class PresetsFooter implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec command) {
            List<String> footer = new ArrayList<>();
            footer.add("%nPresets: a fleet preset alone, or operator shapes together (one host each, and an");
            footer.add("inventory naming no service, as operators' inventories do):");
            LabPresets.helpLines().forEach(line -> footer.add(line.replace("%", "%%")));
            footer.add("The become passwords of sudo-password and su-password are vaulted: give the");
            footer.add("--vault-password-file that 'next:' names (docs/lab.md). ssh-cert's SSH CA, its");
            footer.add("user key and certificate, and its @cert-authority known_hosts are in the lab's ssh-ca/.");
            command.usageMessage().footer(footer.toArray(String[]::new));
            return command;
        }
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            modelTransformer = PresetsFooter.class,
            description = "Start a lab fleet and print its inventory, to pass to -i.")
    static final class Up implements Runnable {
        @Spec
        CommandSpec spec;

        @Mixin
        Home home;

        @Option(
                names = "--hosts",
                paramLabel = "N",
                description = "Number of hosts, lab-1..lab-N (default: 3; 7 for eras, one of each era); of each"
                        + " operator shape (default: 1).")
        Integer hosts;

        @Option(
                names = "--preset",
                paramLabel = "PRESET[,PRESET...]",
                completionCandidates = Presets.class,
                description = "What to start (default: thp-always): one fleet preset, or operator shapes, comma"
                        + " separated or repeated ('operators' is one host of each). Listed below.")
        List<String> presets = new ArrayList<>();

        @Option(
                names = "--real-thp",
                description = "Make THP real for the lab's Redis: this machine's kernel THP is set to always while"
                        + " the lab lives (put back at lab down), and a host whose THP reads never starts its Redis"
                        + " with THP disabled for the process. Needs root and a writable /sys; changes the mode for"
                        + " everything else on this machine too.")
        boolean realThp;

        @Override
        public void run() {
            LabPresets preset;
            try {
                preset = LabPresets.parse(presets.isEmpty() ? List.of(LabPreset.THP_ALWAYS.cliName()) : presets);
            } catch (IllegalArgumentException e) {
                throw new InputException("--preset: " + e.getMessage());
            }
            int count = hosts == null ? preset.defaultHosts() : hosts;
            if (count < 1 || count > preset.maxHosts()) {
                throw new InputException("--hosts must be 1.." + preset.maxHosts() + ", was " + count
                        + (preset.shapes() ? " (hosts of each shape)" : ""));
            }
            List<LabHostSpec> specs;
            try {
                specs = preset.specs(count);
            } catch (IllegalArgumentException e) {
                throw new InputException("--preset " + preset.cliName() + ": " + e.getMessage());
            }
            long started = System.nanoTime();
            LabFleet fleet;
            try (LabOutput.Starting progress =
                    LabOutput.starting(spec.commandLine().getErr(), Screens.of(), Clock.systemUTC())) {
                LabSettings settings = LabSettings.forUser(home.dir, progress);
                fleet = LabFleet.start(preset.starter(), specs, realThp ? settings.withRealThp() : settings);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            LabOutput.up(
                    fleet,
                    specs.size(),
                    took,
                    preset.cliName(),
                    realThp,
                    LabFleet.find(home.dir).size() > 1,
                    spec.commandLine().getOut());
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Show the lab's hosts: container state, sshd, Redis.")
    static final class Status extends OnALab {
        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            List<Path> labs = where.id.isPresent() ? List.of(where.labDir()) : LabFleet.find(where.home.dir);
            if (labs.isEmpty()) {
                LabOutput.noneUp(where.home.dir, out);
                return;
            }
            for (Path dir : labs) {
                LabFleet fleet = LabFleet.attach(dir);
                LabOutput.status(fleet, out);
            }
        }
    }

    @Command(
            name = "inventory",
            mixinStandardHelpOptions = true,
            description = {
                "Print the path of the lab's inventory, for -i: fleetfix audit -i \"$(fleetfix lab inventory)\".",
                "With several labs up and no --id, the newest one."
            })
    static final class Inventory extends OnALab {
        @Override
        public void run() {
            Path dir = where.id.isPresent() ? where.labDir() : newest(LabFleet.find(where.home.dir));
            LabOutput.inventory(LabFleet.attach(dir), spec.commandLine().getOut());
        }

        private Path newest(List<Path> labs) {
            if (labs.isEmpty()) {
                throw new InputException("no lab is up in " + where.home.dir + "; start one with 'fleetfix lab up'");
            }
            return labs.stream().max(Comparator.comparing(Inventory::modified)).orElseThrow();
        }

        private static FileTime modified(Path dir) {
            try {
                return Files.getLastModifiedTime(dir);
            } catch (IOException e) {
                return FileTime.fromMillis(0);
            }
        }
    }

    @Command(
            name = "reboot",
            mixinStandardHelpOptions = true,
            description = "Reboot one lab host (systemd boots again; THP back to its boot mode).")
    static final class Reboot extends OnALab {
        @Parameters(paramLabel = "HOST", description = "Host to reboot, e.g. lab-2.")
        String host;

        @Override
        public void run() {
            LabFleet fleet = LabFleet.attach(where.labDir());
            if (fleet.hosts().stream().noneMatch(h -> h.name().equals(host))) {
                throw new InputException("lab " + fleet.id() + " has no host '" + host + "'");
            }
            long started = System.nanoTime();
            fleet.reboot(host);
            LabOutput.rebooted(
                    host,
                    Duration.ofNanos(System.nanoTime() - started),
                    spec.commandLine().getOut());
        }
    }

    @Command(
            name = "down",
            mixinStandardHelpOptions = true,
            description = "Remove the lab's containers and files (nothing else).")
    static final class Down extends OnALab {
        @Override
        public void run() {
            LabFleet fleet = LabFleet.attach(where.labDir());
            int hosts = fleet.hosts().size();
            fleet.close();
            LabOutput.removed(fleet, hosts, spec.commandLine().getOut());
        }
    }
}
