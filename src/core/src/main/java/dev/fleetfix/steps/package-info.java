/**
 * One class per step type ({@code thp}, {@code persist_thp}, {@code sysctl}, {@code redis_config}, {@code
 * benchmark}, {@code restart_redis}, ...), registered in {@code StepRegistry}; each reads the host's facts,
 * decides, changes, and reports through {@code steps/model}.
 */
package dev.fleetfix.steps;
