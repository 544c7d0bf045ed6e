package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape's budget (docs/development.md): no main file over 400 lines and no method or constructor over 50, but
 * for the exceptions in {@code size-budget.txt}, each with the size it had when listed. The list may only shrink: a
 * listed file or method that grew past its size fails, and so does one that shrank, until its line in the list says
 * its new size (or goes, once it is within the budget). {@code -Dsize.budget.write=true} rewrites the list from the
 * sources as they are, for a change that shrinks something.
 */
class SizeBudgetTest {
    static final int FILE_LINES = 400;
    static final int METHOD_LINES = 50;
    private static final Path LIST = Path.of("src/lab/src/test/resources/size-budget.txt");
    private static final List<Path> MAIN = List.of(
            Path.of("src/core/src/main/java"), Path.of("src/cli/src/main/java"), Path.of("src/lab/src/main/java"));

    /** Every file over the file budget and every method over the method budget, with their lines. */
    static Map<String, Integer> overBudget() throws IOException {
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
        Map<String, Integer> over = new TreeMap<>();
        for (Path root : MAIN) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(f -> f.toString().endsWith(".java"))
                        .sorted()
                        .toList();
            }
            for (Path file : files) {
                String text = Files.readString(file);
                long lines = text.lines().count();
                if (lines > FILE_LINES) {
                    over.put(file.toString(), (int) lines);
                }
                CompilationUnit unit = StaticJavaParser.parse(text);
                for (CallableDeclaration<?> callable : unit.findAll(CallableDeclaration.class)) {
                    int length = callable.getRange()
                            .map(r -> r.end.line - r.begin.line + 1)
                            .orElse(0);
                    if (length > METHOD_LINES) {
                        String type = callable.findAncestor(TypeDeclaration.class)
                                .map(t -> t.getNameAsString())
                                .orElse("?");
                        over.put(
                                file + "#" + type + "." + callable.getDeclarationAsString(false, false, false), length);
                    }
                }
            }
        }
        return over;
    }

    static Map<String, Integer> listed() throws IOException {
        Map<String, Integer> listed = new TreeMap<>();
        for (String line : Files.readAllLines(LIST)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            listed.put(line.substring(0, space), Integer.parseInt(line.substring(space + 1)));
        }
        return listed;
    }

    @Test
    void noFileOrMethodOutgrowsTheBudgetOrItsListedSize() throws IOException {
        Map<String, Integer> over = overBudget();
        if (Boolean.getBoolean("size.budget.write")) {
            List<String> lines = new ArrayList<>(List.of(
                    "# Files over " + FILE_LINES + " lines and methods over " + METHOD_LINES
                            + " lines in main code, with their size: SizeBudgetTest. The list may only shrink.",
                    "# Rewrite it with: mvn -pl src/lab -am test -Dtest=SizeBudgetTest -Dsize.budget.write=true"));
            over.forEach((what, size) -> lines.add(what + " " + size));
            Files.write(LIST, lines);
        }
        Map<String, Integer> listed = listed();

        List<String> problems = new ArrayList<>();
        over.forEach((what, size) -> {
            Integer allowed = listed.get(what);
            if (allowed == null) {
                problems.add(what + ": " + size + " lines, over the budget; split it (or say in the list why not)");
            } else if (size > allowed) {
                problems.add(what + ": grew from " + allowed + " to " + size + " lines; the list may only shrink");
            } else if (size < allowed) {
                problems.add(what + ": shrank from " + allowed + " to " + size + " lines; lower its line in "
                        + LIST.getFileName());
            }
        });
        listed.keySet().stream()
                .filter(what -> !over.containsKey(what))
                .forEach(what -> problems.add(
                        what + ": within the budget now (or gone); remove its line from " + LIST.getFileName()));

        assertThat(problems)
                .as("%d over the budget, %d listed", over.size(), listed.size())
                .isEmpty();
    }

    @Test
    void theBudgetSeesALongMethodAndALongFile() throws IOException {
        String body = Stream.generate(() -> "        x++;").limit(60).collect(Collectors.joining("\n"));
        String source = "class Planted {\n    int x;\n    void tooLong() {\n" + body + "\n    }\n}\n";
        CompilationUnit unit = StaticJavaParser.parse(source);

        int length = unit.findFirst(CallableDeclaration.class)
                .flatMap(c -> c.getRange())
                .map(r -> r.end.line - r.begin.line + 1)
                .orElseThrow();
        assertThat(length).as("a planted 62-line method is measured as such").isEqualTo(62);
        assertThat(listed().keySet()).allSatisfy(what -> assertThat(what).startsWith("src/"));
    }
}
