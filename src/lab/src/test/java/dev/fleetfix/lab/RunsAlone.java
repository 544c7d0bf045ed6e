package dev.fleetfix.lab;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A lab test that measures latency or throughput (a benchmark, a verdict, a latency gate under load), or that acts on
 * this machine itself (its own Redis, whose port other fleets' hosts share): the build runs it after the others, with
 * no other lab test beside it, so that no other fleet's work shows in its figures or beside its processes. Lab
 * tests without it run two at a time (the {@code it.forks} property of the build).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("alone")
public @interface RunsAlone {}
