/**
 * The report files and their writers: one {@link dev.fleetfix.report.files.ReportCollector} folds a run's events into
 * the {@link dev.fleetfix.report.model} once, and the file reporter hands that model to the JSON, JUnit XML and HTML
 * renderers; {@code report merge} writes the same three files for several runs. Also the audit's JSON and OpenMetrics
 * and how every report file is written (through a temporary file and a rename). Uses {@code report.html} for the
 * page; nothing here prints on a terminal.
 */
package dev.fleetfix.report.files;
