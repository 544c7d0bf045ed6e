package dev.fleetfix.fake;

import dev.fleetfix.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand; its {@link #sleeper()} advances it instead of waiting. */
public final class TestClock extends Clock {
    private volatile Instant now;
    private final ZoneId zone;

    public TestClock(Instant start) {
        this(start, ZoneOffset.UTC);
    }

    public TestClock(Instant start, ZoneId zone) {
        this.now = start;
        this.zone = zone;
    }

    public synchronized void advance(Duration d) {
        now = now.plus(d);
    }

    public void set(Instant instant) {
        now = instant;
    }

    public Sleeper sleeper() {
        return this::advance;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId z) {
        return new TestClock(now, z);
    }

    @Override
    public Instant instant() {
        return now;
    }
}
