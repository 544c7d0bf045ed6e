/**
 * Health gates ({@code HealthGate}, {@code Gates} factories, composites) and the one polling loop ({@code Poll}):
 * wait for a condition with an injected clock and sleeper, and say what was seen.
 */
package dev.fleetfix.health;
