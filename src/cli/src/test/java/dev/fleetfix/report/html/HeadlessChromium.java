package dev.fleetfix.report.html;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium for the ITs that check a report page as a browser draws it
 * (src/test/browser/prepare-chromium.sh installs it): fails loudly when it is missing.
 */
public final class HeadlessChromium {
    private HeadlessChromium() {}

    /** What one run printed. */
    public record Browser(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "chromium exit " + exit + "\n--- stderr\n" + stderr;
        }
    }

    /** Runs Chromium with {@code args}, its output kept in files under {@code out}. */
    public static Browser run(Path out, String... args) throws Exception {
        Files.createDirectories(out);
        String binary = find();
        Path profile = Files.createTempDirectory("fleetfix-chromium");
        List<String> command = new ArrayList<>(List.of(
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                "--v=0",
                "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Path stdout = Files.createTempFile(out.toAbsolutePath(), "chromium", ".out");
        Path stderr = Files.createTempFile(out.toAbsolutePath(), "chromium", ".err");
        Process p = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within 120 s: " + command);
        }
        return new Browser(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }

    /** The value of a whole-number attribute in a tag, -1 when absent. */
    public static int number(String tag, String attribute) {
        Matcher m = Pattern.compile(attribute + "=\"(\\d+)\"").matcher(tag);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String find() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, "chromium");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return fail("chromium is not installed: run src/test/browser/prepare-chromium.sh (as root) first");
    }
}
