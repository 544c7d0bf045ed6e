/**
 * Every line, table, file and page a command produces: console progress and recaps, JSON, JUnit, HTML and SVG,
 * OpenMetrics, man page sections. Reads {@code rollout/event}s and the engine's results; the documented schema is
 * {@code report/model}.
 */
package dev.fleetfix.report;
