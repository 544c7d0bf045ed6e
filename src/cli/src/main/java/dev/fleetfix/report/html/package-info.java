/**
 * {@code report.html}: one self-contained page rendered from the {@link dev.fleetfix.report.model} ({@link
 * dev.fleetfix.report.html.HtmlPage#render}), with its inline SVG charts (latency curves on a percentile axis,
 * sweeps) and its stylesheet. Renders only: where the page is written is {@code report.files}' business.
 */
package dev.fleetfix.report.html;
