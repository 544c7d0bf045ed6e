package dev.fleetfix.report.model;

/** One thing a step changed: {@code what} went from {@code before} to {@code after}. */
public record ChangeReport(String what, String before, String after) {}
