package dev.fleetfix.rollout.event;

import java.time.Instant;
import java.util.List;

/**
 * The change window is closed.
 *
 * @param window the window as written
 * @param localTime the time as the window's zone sees it ("Mon 10:42 Europe/Berlin")
 * @param beforeStart true when the run refused to start; false when the window closed mid-run
 * @param untouched the hosts that will not be started
 */
public record WindowClosed(
        Instant at, String play, String window, String localTime, boolean beforeStart, List<String> untouched)
        implements RunEvent {
    public WindowClosed {
        untouched = List.copyOf(untouched);
    }
}
