package dev.fleetfix.health;

/**
 * Told when the engine waits noticeably long on a host ({@link Wait#NOTICEABLE}); the engine turns
 * it into an event naming the host and step, and reporters print it. Gates and restart polls call
 * it when the wait has lasted that long and again at each look after (reporters pace what they show
 * of the repeats); blocking calls call it up front.
 */
@FunctionalInterface
public interface WaitListener {
    void waiting(Wait wait);

    static WaitListener none() {
        return wait -> {};
    }
}
