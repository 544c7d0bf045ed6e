/**
 * One class per step type ({@code thp}, {@code persist_thp}, {@code sysctl}, {@code redis_config}, {@code
 * benchmark}, {@code restart_redis}, ...), the {@code StepType} and {@code StepHandler} they implement, and the
 * {@code StepRegistry} that lists them; each reads the host's facts, decides, changes, and reports through {@code
 * steps/model}. What they share sits below, by concern: {@code facts} (gathering and conditions), {@code host} (files
 * and commands on the host), {@code persist} (what survives a reboot), {@code benchmark} (the step's arguments and
 * design), {@code restart} (the data-safe restart).
 */
package dev.fleetfix.steps;
