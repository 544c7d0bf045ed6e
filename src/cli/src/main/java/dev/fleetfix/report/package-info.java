/**
 * Every line, table, file and page a command produces, by concern: {@code console/} (what prints on the terminal),
 * {@code files/} (the report files: one collector, the JSON, JUnit and HTML renderers, OpenMetrics, merge),
 * {@code html/} (the HTML page and its SVG charts), {@code manual/} (reference text) and {@code model/} (the
 * documented schema of {@code report.json}). This package holds what they all share: how the engine's results become
 * the model ({@link dev.fleetfix.report.ReportModelMapper}) and the words every output uses for host text, verdicts,
 * effects and durations. Layers, top first: console, files, html, this package, model; manual stands apart.
 */
package dev.fleetfix.report;
