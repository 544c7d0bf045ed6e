/**
 * The {@code benchmark} step's arguments turned into a plan ({@code BenchmarkArgs}) and its design checked when the
 * playbook is read ({@code BenchDesign}).
 */
package dev.fleetfix.steps.benchmark;
