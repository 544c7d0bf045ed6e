package dev.fleetfix.steps.persist;

import dev.fleetfix.steps.host.HostFiles;
import dev.fleetfix.steps.host.HostFiles.Shell;
import dev.fleetfix.steps.model.FileEdit;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.HeadTail;
import dev.fleetfix.transport.ScriptResource;
import dev.fleetfix.transport.ShellQuote;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * THP persisted through tuned. An enabled tuned applies its active profile each time it starts, after any boot unit
 * of ours: a profile that sets {@code transparent_hugepages}, or one it includes (RHEL's {@code virtual-guest}
 * includes {@code throughput-performance}), puts THP back at every boot. So where tuned is enabled, the mode goes
 * into tuned as well: a child profile {@value #PROFILE} that includes the active profile(s) and sets only {@code [vm]
 * transparent_hugepages}, made active with {@code tuned-adm profile}. The rest of the operator's tuning is kept, and
 * {@code tuned-adm profile <previous>} undoes it (the profile's file says which).
 */
final class TunedThp {
    static final String PROFILE = "fleetfix-thp";
    static final String CONF = "/etc/tuned/" + PROFILE + "/tuned.conf";
    static final String ACTIVE_PROFILE = "/etc/tuned/active_profile";
    static final String PROFILE_MODE = "/etc/tuned/profile_mode";

    /** tuned's profile names are directory names; anything else read from the host is never written back. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private static final Pattern INCLUDE = Pattern.compile("(?m)^\\s*include\\s*=\\s*(.*?)\\s*$");

    private TunedThp() {}

    /** What the host's tuned is: whether it is enabled and running, and the profiles it applies. */
    record Tuned(String enabled, boolean running, boolean adm, List<String> active) {
        boolean appliesAtBoot() {
            return enabled.equals("enabled") || enabled.equals("enabled-runtime");
        }
    }

    /** Reads tuned's state on the host; empty when tuned is not installed. */
    static Optional<Tuned> read(StepContext ctx) {
        // as root: tuned-adm is in /usr/sbin, which a login user's PATH lacks, and root activates the profile
        ExecResult r = Shell.readAsRoot(
                ctx,
                ScriptResource.assign("active_profile", ACTIVE_PROFILE)
                        + ScriptResource.read(TunedThp.class, "tuned-state.sh"));
        return parse(r.stdout());
    }

    /** The state script's output as a {@link Tuned}; empty when tuned is not installed. */
    static Optional<Tuned> parse(String out) {
        if (!out.startsWith("installed")) {
            return Optional.empty();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.putIfAbsent(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        List<String> profiles = Arrays.stream(fields.getOrDefault("profile", "").split("\\s+"))
                .filter(p -> !p.isEmpty())
                .toList();
        return Optional.of(new Tuned(
                fields.getOrDefault("enabled", ""),
                fields.getOrDefault("active", "").equals("active"),
                fields.containsKey("adm"),
                profiles));
    }

    /**
     * Where tuned applies a profile at boot, makes {@value #PROFILE} (the active profiles plus the THP mode) the
     * active one; elsewhere nothing. True when tuned is in charge of the mode from now on.
     */
    static boolean persist(StepContext ctx, PersistMethod.Target t, StepResult.Builder result) {
        Optional<Tuned> found = read(ctx);
        if (found.isEmpty() || !found.get().appliesAtBoot()) {
            return false;
        }
        Tuned tuned = found.get();
        List<String> parents = parents(ctx, tuned);
        if (parents.isEmpty()) {
            // tuned picks its recommended profile at start; which one is the host's own business
            throw new StepFailure("tuned is enabled but " + ACTIVE_PROFILE + " names no profile: tuned would apply"
                    + " its recommended profile at boot, after THP is set; choose one with 'tuned-adm profile NAME'"
                    + " and run again");
        }
        String wanted = profile(parents, t.enabled());
        if (!ctx.check() && !HostFiles.exists(ctx, CONF)) {
            Shell.write(ctx, "mkdir -p " + ShellQuote.quote(CONF.substring(0, CONF.lastIndexOf('/'))));
        }
        FileEdit conf = HostFiles.ensureContent(ctx, CONF, wanted, 0644);
        result.file(conf);
        boolean active = tuned.active().equals(List.of(PROFILE));
        if (!active || conf.changed()) {
            if (!ctx.check()) {
                activate(ctx, tuned, result);
            }
            result.change("tuned profile", String.join(" ", tuned.active()), PROFILE);
            result.note("tuned applies its profile at every start, after boot units: " + PROFILE + " is "
                    + String.join(", ", parents) + " with transparent_hugepages=" + t.enabled()
                    + "; to undo: tuned-adm profile " + String.join(" ", parents));
        }
        return true;
    }

    /** The profiles ours includes: the active ones, or, when ours is active already, the ones it included. */
    private static List<String> parents(StepContext ctx, Tuned tuned) {
        List<String> parents = new ArrayList<>();
        for (String name : tuned.active()) {
            if (!name.equals(PROFILE)) {
                parents.add(checked(name, ACTIVE_PROFILE));
            }
        }
        if (tuned.active().contains(PROFILE)) {
            String ours = HostFiles.read(ctx, CONF)
                    .orElseThrow(() -> new StepFailure("tuned's active profile is " + PROFILE + " but " + CONF
                            + " is missing; choose the profile to keep with 'tuned-adm profile NAME' and run again"));
            for (String name : included(ours)) {
                if (!parents.contains(name)) {
                    parents.add(checked(name, CONF));
                }
            }
        }
        return parents;
    }

    /** The profiles a tuned.conf includes, in order. */
    static List<String> included(String conf) {
        Matcher m = INCLUDE.matcher(conf);
        if (!m.find()) {
            return List.of();
        }
        return Arrays.stream(m.group(1).split("[,\\s]+"))
                .filter(p -> !p.isEmpty())
                .toList();
    }

    private static String checked(String name, String file) {
        if (!NAME.matcher(name).matches()) {
            throw new StepFailure("tuned: " + file + " names '" + HeadTail.cut(name, 80)
                    + "', which is not a profile name; fix the file with 'tuned-adm profile NAME' and run again");
        }
        return name;
    }

    /** Our profile: the parents, then the THP mode, which tuned applies after what it includes. */
    static String profile(List<String> parents, String enabled) {
        return String.join(
                "\n",
                "# Managed by fleetfix: " + String.join(", ", parents) + " with Transparent Huge Pages " + enabled
                        + ".",
                "# To undo: tuned-adm profile " + String.join(" ", parents),
                "[main]",
                "summary=" + String.join(", ", parents) + " with transparent_hugepages=" + enabled + " (fleetfix)",
                "include=" + String.join(",", parents),
                "",
                "[vm]",
                "transparent_hugepages=" + enabled,
                "");
    }

    /**
     * A running tuned switches with {@code tuned-adm profile}, which also applies it now; a stopped one reads the
     * active profile file when it starts.
     */
    private static void activate(StepContext ctx, Tuned tuned, StepResult.Builder result) {
        if (tuned.running() && tuned.adm()) {
            Shell.write(ctx, "tuned-adm profile " + PROFILE);
            return;
        }
        result.file(HostFiles.ensureContent(ctx, ACTIVE_PROFILE, PROFILE + "\n", 0644));
        result.file(HostFiles.ensureContent(ctx, PROFILE_MODE, "manual\n", 0644));
    }
}
