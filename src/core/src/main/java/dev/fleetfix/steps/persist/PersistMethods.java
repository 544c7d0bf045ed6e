package dev.fleetfix.steps.persist;

import dev.fleetfix.inventory.UnitName;
import dev.fleetfix.steps.host.HostFiles;
import dev.fleetfix.steps.host.HostFiles.Shell;
import dev.fleetfix.steps.model.FileEdit;
import dev.fleetfix.steps.model.StepContext;
import dev.fleetfix.steps.model.StepFailure;
import dev.fleetfix.steps.model.StepResult;
import dev.fleetfix.transport.ExecResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The ways {@code persist_thp} can persist THP modes. */
public final class PersistMethods {
    public static final String UNIT = "fleetfix-thp.service";
    public static final String UNIT_PATH = "/etc/systemd/system/" + UNIT;
    public static final String TMPFILES_PATH = "/etc/tmpfiles.d/fleetfix-thp.conf";
    public static final String RC_LOCAL = "/etc/rc.local";
    public static final String DEFAULT_GRUB = "/etc/default/grub";
    static final String MARKER = "# fleetfix-thp";
    private static final Pattern GRUB_LINE = Pattern.compile("(?m)^GRUB_CMDLINE_LINUX=(\"?)(.*?)\\1[ \\t]*$");

    private PersistMethods() {}

    public static PersistMethod named(String name) {
        return switch (name) {
            case "systemd" -> systemd();
            case "tmpfiles" -> tmpfiles();
            case "rc.local" -> rcLocal();
            case "grub" -> grub();
            case "tuned" -> tuned();
            case "auto" -> auto();
            default -> throw new IllegalArgumentException("unknown persist method '" + name + "'");
        };
    }

    /** A oneshot unit that writes the modes early at boot, before Redis starts; enabled. */
    public static PersistMethod systemd() {
        return (ctx, t, result) -> {
            FileEdit unit = HostFiles.ensureContent(ctx, UNIT_PATH, unitFile(t), 0644);
            result.file(unit);
            if (unit.changed() && !ctx.check()) {
                Shell.write(ctx, "systemctl daemon-reload");
            }
            ExecResult enabled = Shell.read(ctx, "systemctl is-enabled " + UNIT + " 2>/dev/null");
            String state = enabled.stdout().strip();
            if (!state.equals("enabled")) {
                if (!ctx.check()) {
                    Shell.write(ctx, "systemctl enable " + UNIT);
                }
                // A unit this step just wrote was not installed before the run, though systemd now
                // calls it disabled: check mode, which writes nothing, must say the same.
                boolean installed = unit.before().isPresent() && !state.isEmpty();
                result.change(UNIT, installed ? state : "not installed", "enabled");
            }
        };
    }

    static String unitFile(PersistMethod.Target t) {
        return String.join(
                "\n",
                "# Managed by fleetfix: sets Transparent Huge Pages before Redis starts.",
                "[Unit]",
                "Description=Transparent Huge Pages enabled=" + t.enabled() + " defrag=" + t.defrag() + " (fleetfix)",
                "DefaultDependencies=no",
                "After=sysinit.target local-fs.target",
                ("Before=basic.target " + unitName(t.redisUnit())).strip(),
                "",
                "[Service]",
                "Type=oneshot",
                "ExecStart=/bin/sh -c 'echo " + t.enabled() + " > " + t.thpDir() + "/enabled && echo " + t.defrag()
                        + " > " + t.thpDir() + "/defrag'",
                "",
                "[Install]",
                "WantedBy=basic.target multi-user.target",
                "");
    }

    private static String unitName(String units) {
        return String.join(
                " ",
                java.util.Arrays.stream(units.strip().split("\\s+"))
                        .filter(u -> !u.isEmpty())
                        .map(UnitName::withSuffix)
                        .toList());
    }

    /** systemd-tmpfiles {@code w} lines, applied at boot by systemd-tmpfiles-setup. */
    public static PersistMethod tmpfiles() {
        return (ctx, t, result) -> result.file(HostFiles.ensureContent(ctx, TMPFILES_PATH, tmpfilesConf(t), 0644));
    }

    static String tmpfilesConf(PersistMethod.Target t) {
        return "# Managed by fleetfix: Transparent Huge Pages at boot.\n"
                + "w " + t.thpDir() + "/enabled - - - - " + t.enabled() + "\n"
                + "w " + t.thpDir() + "/defrag - - - - " + t.defrag() + "\n";
    }

    /**
     * What rc.local alone leaves open, said where it is the only boot-time setting: SysV init runs it last, after
     * {@code /etc/init.d/redis-server} (Debian's rc.local "is executed at the end of each multiuser runlevel").
     */
    static final String RC_LOCAL_RUNS_AFTER_REDIS = "rc.local runs at the end of boot, after Redis has started: a"
            + " Redis before 6.2 (no disable-thp) loads its data under the boot THP mode and keeps those huge pages"
            + " until its next restart; method grub sets THP on the kernel command line, before any process starts";

    /**
     * Lines in /etc/rc.local before its {@code exit 0}, for hosts without systemd; a changed file carries
     * {@link #RC_LOCAL_RUNS_AFTER_REDIS} as its note.
     */
    public static PersistMethod rcLocal() {
        return (ctx, t, result) -> {
            if (writeRcLocal(ctx, t, result)) {
                result.note(RC_LOCAL_RUNS_AFTER_REDIS);
            }
        };
    }

    /** Writes rc.local's lines; true when the file changed (or would, in check mode). */
    private static boolean writeRcLocal(StepContext ctx, PersistMethod.Target t, StepResult.Builder result) {
        List<String> lines = List.of(
                "echo " + t.enabled() + " > " + t.thpDir() + "/enabled " + MARKER + " enabled",
                "echo " + t.defrag() + " > " + t.thpDir() + "/defrag " + MARKER + " defrag");
        FileEdit edit = HostFiles.edit(ctx, RC_LOCAL, old -> withRcLocalLines(old, lines), 0755);
        result.file(edit);
        return edit.changed();
    }

    /**
     * rc.local with each line present once: a line carrying the same marker is replaced, a missing
     * one goes before the last {@code exit 0}; a missing file is created.
     */
    static String withRcLocalLines(String content, List<String> lines) {
        List<String> out =
                new ArrayList<>(content == null ? List.of("#!/bin/sh -e", "exit 0") : List.of(content.split("\n", -1)));
        if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        for (String line : lines) {
            String marker = line.substring(line.indexOf(MARKER));
            int existing = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).endsWith(marker)) {
                    existing = i;
                }
            }
            if (existing >= 0) {
                out.set(existing, line);
                continue;
            }
            int exit = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).strip().equals("exit 0")) {
                    exit = i;
                }
            }
            out.add(exit >= 0 ? exit : out.size(), line);
        }
        return String.join("\n", out) + "\n";
    }

    /** {@code transparent_hugepage=} on the kernel command line; takes effect at the next boot. */
    public static PersistMethod grub() {
        return (ctx, t, result) -> {
            String arg = "transparent_hugepage=" + t.enabled();
            String tool = ctx.state().fact("grub.tool").orElseGet(() -> grubTool(ctx));
            if (tool.equals("grubby")) {
                ExecResult info = Shell.read(ctx, "grubby --info=ALL");
                if (!info.stdout().contains(arg)) {
                    if (!ctx.check()) {
                        Shell.write(ctx, "grubby --update-kernel=ALL --args=" + arg);
                    }
                    result.change("kernel cmdline (grubby)", "without " + arg, arg);
                }
                return;
            }
            if (!HostFiles.exists(ctx, DEFAULT_GRUB)) {
                throw new StepFailure("grub: " + DEFAULT_GRUB + " not found and grubby not installed");
            }
            FileEdit edit = HostFiles.edit(ctx, DEFAULT_GRUB, old -> withGrubArg(old, arg), 0644);
            result.file(edit);
            if (edit.changed() && !ctx.check()) {
                switch (tool) {
                    case "update-grub" -> Shell.write(ctx, "update-grub");
                    case "grub2-mkconfig" -> Shell.write(ctx, "grub2-mkconfig -o /boot/grub2/grub.cfg");
                    default -> result.note(
                            DEFAULT_GRUB + " edited; no update-grub or grub2-mkconfig found: regenerate grub.cfg");
                }
            }
        };
    }

    private static String grubTool(StepContext ctx) {
        ExecResult r = Shell.read(
                ctx,
                "for t in update-grub grub2-mkconfig grubby; do command -v $t >/dev/null 2>&1 && echo $t && exit 0;"
                        + " done; echo none");
        return r.stdout().strip();
    }

    /** GRUB_CMDLINE_LINUX with {@code arg} (key=value) set once, replacing another value of the same key. */
    static String withGrubArg(String content, String arg) {
        String text = content == null ? "" : content;
        String key = arg.substring(0, arg.indexOf('=') + 1);
        Matcher m = GRUB_LINE.matcher(text);
        if (!m.find()) {
            String sep = text.isEmpty() || text.endsWith("\n") ? "" : "\n";
            return text + sep + "GRUB_CMDLINE_LINUX=\"" + arg + "\"\n";
        }
        List<String> words = new ArrayList<>();
        boolean placed = false;
        for (String word : m.group(2).trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (word.startsWith(key)) {
                if (!placed) {
                    words.add(arg);
                    placed = true;
                }
            } else {
                words.add(word);
            }
        }
        if (!placed) {
            words.add(arg);
        }
        String line = "GRUB_CMDLINE_LINUX=\"" + String.join(" ", words) + "\"";
        return text.substring(0, m.start()) + line + text.substring(m.end());
    }

    /**
     * systemd when PID 1 is systemd, and tuned as well where tuned is enabled ({@link TunedThp}). Without systemd (SysV
     * init), rc.local runs only after Redis has started, so where
     * grub boots the host (grubby, or {@code /etc/default/grub}) the kernel command line sets {@code enabled} before
     * any process, and rc.local's lines carry {@code defrag}, which the command line cannot set; without grub, rc.local
     * alone, noting what it leaves open ({@link #RC_LOCAL_RUNS_AFTER_REDIS}).
     */
    public static PersistMethod auto() {
        return (ctx, t, result) -> {
            String init = ctx.state()
                    .fact("init")
                    .orElseGet(() -> Shell.read(
                                            ctx,
                                            "[ \"$(cat /proc/1/comm 2>/dev/null)\" = systemd ] && command -v systemctl"
                                                    + " >/dev/null 2>&1")
                                    .ok()
                            ? "systemd"
                            : "other");
            if (init.equals("systemd")) {
                systemd().persist(ctx, t, result);
                // an enabled tuned applies its profile after our unit at every boot
                boolean tuned = TunedThp.persist(ctx, t, result);
                result.fact("persist_thp.method", tuned ? "systemd+tuned" : "systemd");
            } else if (grubBoots(ctx)) {
                result.fact("persist_thp.method", "grub+rc.local");
                grub().persist(ctx, t, result);
                writeRcLocal(ctx, t, result);
            } else {
                result.fact("persist_thp.method", "rc.local");
                rcLocal().persist(ctx, t, result);
            }
        };
    }

    /**
     * A child of tuned's active profile that sets the mode, made active ({@link TunedThp}); fails where tuned does
     * not apply a profile at boot.
     */
    public static PersistMethod tuned() {
        return (ctx, t, result) -> {
            if (!TunedThp.persist(ctx, t, result)) {
                throw new StepFailure("method tuned: tuned is not installed or not enabled on this host (systemctl"
                        + " is-enabled tuned); use method auto");
            }
        };
    }

    /** grubby is installed, or /etc/default/grub is there for update-grub or grub2-mkconfig to read. */
    private static boolean grubBoots(StepContext ctx) {
        String tool = ctx.state().fact("grub.tool").orElseGet(() -> grubTool(ctx));
        return tool.equals("grubby") || HostFiles.exists(ctx, DEFAULT_GRUB);
    }

    static Map<String, PersistMethod> all() {
        return Map.of(
                "systemd",
                systemd(),
                "tmpfiles",
                tmpfiles(),
                "rc.local",
                rcLocal(),
                "grub",
                grub(),
                "tuned",
                tuned(),
                "auto",
                auto());
    }
}
