package dev.fleetfix.report.files;

import dev.fleetfix.report.html.HtmlPage;
import dev.fleetfix.report.model.FleetReport;
import java.util.function.Function;

/**
 * The formats of a run's report, each a file name and a renderer: a pure function from the one report model to the
 * file's text. Renderers only render; collecting the run is {@link ReportCollector}'s, writing is {@link ReportFiles}'.
 */
public enum ReportFormat {
    JSON(ReportJson.FILE, ReportJson::write),
    JUNIT(ReportFiles.JUNIT, JunitXml::render),
    HTML(ReportFiles.HTML, HtmlPage::render);

    private final String fileName;
    private final Function<FleetReport, String> renderer;

    ReportFormat(String fileName, Function<FleetReport, String> renderer) {
        this.fileName = fileName;
        this.renderer = renderer;
    }

    /** The name of this format's file in a {@code --report} directory. */
    public String fileName() {
        return fileName;
    }

    /** The file's whole text for {@code report}. */
    public String render(FleetReport report) {
        return renderer.apply(report);
    }
}
