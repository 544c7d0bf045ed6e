package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.fleetfix.report.manual.ManSections;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fleetfix command shown in the man pages' Examples and in the code blocks of README.md and docs/*.md, so that
 * none can drift from the command it shows. Each is parsed by the whole command tree (the lab's plug-in included: this
 * test lives in src/lab), so a flag that does not exist or a value that does not convert fails here; those that need
 * no fleet (doc, completion, help, inventory listings, apply's --list-* and --syntax-check) are run and must exit 0.
 * The examples' placeholder files (inventory.yml, hosts.ini, a lab's inventory) are given real ones.
 */
class DocExamplesTest {
    private static final Pattern FLEETFIX = Pattern.compile("^(?:\\./)?fleetfix(?:\\s|$)");

    @TempDir
    static Path dir;

    record Example(String where, String line) {
        @Override
        public String toString() {
            return where + ": " + line;
        }
    }

    static Stream<Example> examples() throws IOException {
        List<Example> all = new ArrayList<>();
        for (Map.Entry<String, String> page : ManSections.examples().entrySet()) {
            String[] lines = page.getValue().replace("\\\n", " ").split("\n");
            for (String line : lines) {
                commands(line).forEach(c -> all.add(new Example("man " + page.getKey(), c)));
            }
        }
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> files = Files.list(Path.of("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            boolean fenced = false;
            boolean indented = false;
            boolean blankBefore = true;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                boolean code = fenced || (line.startsWith("    ") && (indented || blankBefore));
                indented = code && !fenced && line.startsWith("    ");
                blankBefore = line.isBlank();
                if (code) {
                    int n = i + 1;
                    commands(line).forEach(c -> all.add(new Example(doc + ":" + n, c)));
                }
            }
        }
        return all.stream();
    }

    /** The fleetfix commands of one shell line: split at {@code &&}, {@code ;} and pipes, without its comment. */
    private static List<String> commands(String line) {
        String shell = line.strip().replaceFirst("^\\$ ", "").replaceFirst("^sudo ", "");
        shell = shell.replace("\"$(./fleetfix lab inventory)\"", "inventory.yml");
        List<String> found = new ArrayList<>();
        for (String part : splitOutsideQuotes(shell)) {
            String c = part.strip();
            if (FLEETFIX.matcher(c).find()) {
                found.add(c);
            }
        }
        return found;
    }

    private static List<String> splitOutsideQuotes(String shell) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < shell.length(); i++) {
            char c = shell.charAt(i);
            if (quote != 0) {
                current.append(c);
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
                current.append(c);
            } else if (c == '#' && (i == 0 || Character.isWhitespace(shell.charAt(i - 1)))) {
                break;
            } else if (c == ';'
                    || c == '|'
                    || c == '>'
                    || (c == '&' && i + 1 < shell.length() && shell.charAt(i + 1) == '&')) {
                parts.add(current.toString());
                current.setLength(0);
                if (c == '>') {
                    break; // a redirection's target is no command
                }
                if (c == '&' || (c == '|' && i + 1 < shell.length() && shell.charAt(i + 1) == '|')) {
                    i++;
                }
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }

    /** The words of a command as the shell gives them to fleetfix, less the program's name. */
    private static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)").matcher(command);
        while (m.find()) {
            words.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
        }
        return words.subList(1, words.size());
    }

    /** Placeholders in examples, given files that exist. */
    private static List<String> withRealFiles(List<String> args) throws IOException {
        Path ini = dir.resolve("hosts.ini");
        if (!Files.exists(ini)) {
            Files.writeString(ini, "[redis]\nredis-1 ansible_host=10.0.0.1\n\n[prod]\nredis-1\n");
        }
        List<String> real = new ArrayList<>();
        for (String a : args) {
            if (a.equals("inventory.yml")
                    || a.equals("inv.yaml")
                    || a.matches("~/\\.fleetfix/lab/.*/inventory\\.yml")) {
                real.add("inventory.example.yaml");
            } else if (a.equals("hosts.ini")) {
                real.add(ini.toString());
            } else if (a.equals("thp-off.yaml")) {
                real.add("playbooks/thp-off.yaml");
            } else {
                real.add(a);
            }
        }
        return real;
    }

    private static boolean needsNoFleet(List<String> args) {
        String command = args.isEmpty() ? "" : args.get(0);
        return args.contains("--help")
                || args.contains("--version")
                || command.equals("doc")
                || command.equals("completion")
                || (command.equals("inventory") && !args.contains("--check"))
                || (command.equals("apply")
                        && Stream.of("--list-hosts", "--list-tasks", "--list-tags", "--syntax-check")
                                .anyMatch(args::contains));
    }

    @Test
    void theManPagesAndDocsShowCommands() throws IOException {
        assertThat(examples().map(Example::where))
                .as("examples found in the man pages and in README.md and docs/")
                .anyMatch(w -> w.startsWith("man fleetfix-apply"))
                .anyMatch(w -> w.startsWith("README.md"))
                .anyMatch(w -> w.startsWith("docs/playbooks.md"))
                .hasSizeGreaterThan(30);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleParsesAndThoseThatNeedNoFleetRun(Example example) throws IOException {
        List<String> args = withRealFiles(words(example.line()));

        assertThatCode(() -> Main.commandLine().parseArgs(args.toArray(String[]::new)))
                .as("%s: its flags and values", example)
                .doesNotThrowAnyException();
        if (needsNoFleet(args)) {
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertThat(run.exitCode()).as("%s%n%s", example, run).isZero();
        }
    }
}
