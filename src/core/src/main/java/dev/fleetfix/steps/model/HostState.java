package dev.fleetfix.steps.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the engine remembers about one host during a run: its facts (from {@code audit} and from
 * what steps set, in check mode what they would set), and whether anything changed in the current
 * play ({@code restart_redis} restarts only then). In check mode also its predicted state: what
 * an action that check mode skipped would have produced where that differs from what is observed
 * ({@link Predicted#REDIS}: Redis restarted), so that later steps judge the host as apply would
 * leave it. Used by one worker thread at a time.
 *
 * <p>The instances of one machine share a {@link Machine}: a change one of them made (THP, its
 * persistence) counts for every instance in the same play, so each of their Redis restarts.
 */
public final class HostState {
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final Map<String, String> predicted = new LinkedHashMap<>();
    private final Machine machine;
    private final HeldServices services;
    private boolean changedInPlay;
    private String play;

    /** What the instances of one machine share: the play in which the machine last changed. */
    public static final class Machine {
        private volatile String changedIn;
    }

    public HostState() {
        this(new Machine());
    }

    public HostState(Machine machine) {
        this(machine, new HeldServices());
    }

    /** A state that holds {@code services}, shared with another (the preflight's copy holds the run's). */
    public HostState(Machine machine, HeldServices services) {
        this.machine = machine;
        this.services = services;
    }

    /** What runs the host's Redis, as the run last read it ({@link HeldServices}). */
    public HeldServices services() {
        return services;
    }

    public Optional<String> fact(String key) {
        return Optional.ofNullable(facts.get(key));
    }

    public Map<String, String> facts() {
        return Collections.unmodifiableMap(facts);
    }

    public void learn(Map<String, String> more) {
        facts.putAll(more);
    }

    /** Check mode: the state skipped actions would have produced, by name ({@link Predicted}). */
    public Map<String, String> predicted() {
        return Collections.unmodifiableMap(predicted);
    }

    public Optional<String> predicted(String key) {
        return Optional.ofNullable(predicted.get(key));
    }

    public void predict(Map<String, String> more) {
        predicted.putAll(more);
    }

    /** Whether this host, or another instance of its machine, changed in the current play. */
    public boolean changedInPlay() {
        return changedInPlay || (play != null && play.equals(machine.changedIn));
    }

    public void markChanged() {
        changedInPlay = true;
        machine.changedIn = play;
    }

    public void startPlay() {
        startPlay(null);
    }

    /** A new play begins on this host; {@code playName} tells the machine's changes of this play apart. */
    public void startPlay(String playName) {
        changedInPlay = false;
        play = playName;
    }
}
