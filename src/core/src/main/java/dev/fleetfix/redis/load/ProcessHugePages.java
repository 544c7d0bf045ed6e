package dev.fleetfix.redis.load;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import dev.fleetfix.transport.RemoteShell;
import dev.fleetfix.transport.TransportException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Reads how many kB of transparent huge pages a process holds ({@code AnonHugePages}, summed over
 * its mappings). A reading that fails says why instead of guessing 0: 0 would read as "THP does not
 * reach Redis" when the truth is "not known".
 */
@FunctionalInterface
public interface ProcessHugePages {

    /**
     * @param kb the sum in kB; empty when it could not be read
     * @param why why not; empty when read
     */
    record Reading(OptionalLong kb, Optional<String> why) {
        public Reading {
            Objects.requireNonNull(kb, "kb");
            Objects.requireNonNull(why, "why");
            if (kb.isEmpty() == why.isEmpty()) {
                throw new IllegalArgumentException("a reading has either a figure or a reason, was " + kb + " " + why);
            }
        }

        public static Reading of(long kb) {
            return new Reading(OptionalLong.of(kb), Optional.empty());
        }

        public static Reading unread(String why) {
            return new Reading(OptionalLong.empty(), Optional.of(why));
        }
    }

    Reading read(long pid);

    /**
     * Over the host's shell: {@code /proc/PID/smaps_rollup}, or {@code smaps} on kernels before 4.14
     * that have no rollup. As root when {@code root}, since another user's smaps is unreadable.
     *
     * @param shell the host's shell, asked for only when a reading is made
     */
    static ProcessHugePages overShell(Supplier<RemoteShell> shell, boolean root) {
        return pid -> {
            String script = script(pid);
            Command command = Command.of(script).withTimeout(Duration.ofSeconds(20));
            try {
                ExecResult r = shell.get().exec(root ? command.asRoot() : command);
                return parse(pid, r.stdout(), r.ok() ? "" : r.errorText(), root);
            } catch (TransportException | UnsupportedOperationException e) {
                return Reading.unread("no shell to the host: " + e.getMessage());
            }
        };
    }

    /** The pid is a number, so it needs no quoting. */
    static String script(long pid) {
        String dir = "/proc/" + pid;
        return "f=" + dir + "/smaps_rollup; [ -e \"$f\" ] || f=" + dir + "/smaps\n"
                + "[ -e \"$f\" ] || { echo \"gone $f\"; exit 0; }\n"
                + "if out=$(awk '/^AnonHugePages:/ { kb += $2; n++ } END { if (n) print kb; else print \"none\" }'"
                + " \"$f\" 2>&1); then echo \"kb $out $f\"; else echo \"error $f: $out\"; fi\n";
    }

    static Reading parse(long pid, String stdout, String failure, boolean root) {
        String line = stdout.strip();
        if (line.startsWith("kb ")) {
            String[] words = line.split("\\s+");
            if (words.length >= 2 && words[1].matches("\\d+")) {
                return Reading.of(Long.parseLong(words[1]));
            }
            if (words.length >= 2 && words[1].equals("none")) {
                return Reading.unread((words.length > 2 ? words[2] : "smaps")
                        + " has no AnonHugePages line: the kernel has no transparent huge pages");
            }
        }
        if (line.startsWith("gone ")) {
            return Reading.unread("neither smaps_rollup nor smaps exists for pid " + pid
                    + ": the process is gone or /proc is not mounted");
        }
        if (line.startsWith("error ")) {
            String error = line.substring(6);
            return Reading.unread(error
                    + (!root && error.contains("ermission denied")
                            ? " (another user's smaps needs root: set become on the host)"
                            : ""));
        }
        return Reading.unread(
                "reading /proc/" + pid + "/smaps_rollup gave no answer" + (failure.isBlank() ? "" : ": " + failure));
    }
}
