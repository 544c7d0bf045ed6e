/**
 * Reference text the commands print or install: {@code fleetfix doc} (the playbook manual, each step's keys, the
 * benchmark verdicts) and the man pages' extra sections. Plain text, from no run.
 */
package dev.fleetfix.report.manual;
