package dev.fleetfix.cli;

import dev.fleetfix.report.manual.ManSections;
import dev.fleetfix.report.manual.PlaybookManual;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run by the build after picocli's man page generator: writes {@code fleetfix-playbook.adoc} (section 5) from the
 * step catalogue, and adds the sections picocli has no place for (Examples, Environment, Files, See also) to the
 * commands' pages ({@link ManSections}).
 */
public final class ManPages {
    private ManPages() {}

    /**
     * @param args the directory of picocli's generated pages (section 1) and the directory for section 5
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ManPages MAN1_ADOC_DIR MAN5_ADOC_DIR");
        }
        Path man1 = Path.of(args[0]);
        Path man5 = Path.of(args[1]);
        Files.createDirectories(man5);
        Files.writeString(
                man5.resolve("fleetfix-playbook.adoc"),
                PlaybookManual.render(DocCommand.docs(), VersionProvider.version()));
        try (var pages = Files.list(man1)) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).toList()) {
                String name = page.getFileName().toString().replace(".adoc", "");
                Files.writeString(page, ManSections.addTo(name, Files.readString(page)));
            }
        }
    }
}
