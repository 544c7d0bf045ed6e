package dev.fleetfix.inventory.ansible;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.Unevaluated;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.yaml.YamlValue;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A host's become method and password from its variable layers, the most specific layer first ({@link
 * HostResolver}'s rule): {@code ansible_become_method} (or {@code become_method}), {@code sudo} or {@code su}, and
 * {@code ansible_become_password} (or {@code ansible_become_pass}), kept a {@link Secret} and never revealed here, so
 * a vaulted one needs no vault password until a run uses it. A method fleetfix does not have, and a value that cannot
 * be evaluated, is the host's {@link Host#unusable()} error (at its file:line:column): a run that contacts the host
 * refuses it before touching any host, a listing shows the value as {@code ansible-inventory} does.
 */
final class BecomeVars {
    private static final List<String> METHOD = List.of("ansible_become_method", "become_method");
    private static final List<String> PASSWORD = List.of("ansible_become_password", "ansible_become_pass");

    private BecomeVars() {}

    /** {@code host} with the method and password its layers set. */
    static Host apply(Host host, List<Map<String, YamlValue>> layers, Function<YamlValue, Path> fileOf) {
        try {
            Optional<BecomeMethod> method = find(layers, METHOD).map(v -> method(host.name(), v, fileOf));
            Optional<Secret> password = find(layers, PASSWORD).flatMap(v -> password(host.name(), v, fileOf));
            return host.toBuilder()
                    .becomeMethod(method.orElse(BecomeMethod.SUDO))
                    .becomePassword(password)
                    .build();
        } catch (VaultException e) {
            return unusable(host, e);
        } catch (Deferred e) {
            return unusable(host, e.problem);
        }
    }

    /** The host keeps the first setting it could not evaluate, for a run to refuse it. */
    private static Host unusable(Host host, InputException problem) {
        return host.unusable().isPresent()
                ? host
                : host.toBuilder().unusable(Optional.of(problem)).build();
    }

    private record Found(String name, YamlValue node) {}

    /** A value that cannot be evaluated now. */
    private static final class Deferred extends RuntimeException {
        private final InputException problem;

        Deferred(InputException problem) {
            super(problem.getMessage(), null, false, false);
            this.problem = problem;
        }
    }

    private static Optional<Found> find(List<Map<String, YamlValue>> layers, List<String> names) {
        for (int i = layers.size() - 1; i >= 0; i--) {
            for (String name : names) {
                YamlValue node = layers.get(i).get(name);
                if (node != null) {
                    if (node.value() instanceof Unevaluated unusable) {
                        throw new Deferred(unusable.problem());
                    }
                    return Optional.of(new Found(name, node));
                }
            }
        }
        return Optional.empty();
    }

    private static BecomeMethod method(String host, Found v, Function<YamlValue, Path> fileOf) {
        Object value = v.node().value();
        String text = value instanceof Secret vaulted ? vaulted.revealAsSetting() : String.valueOf(value);
        // the host's error, for a run that contacts it: a listing (inventory --list) shows the value as Ansible does
        return BecomeMethod.named(text)
                .orElseThrow(() -> new Deferred(error(
                        host, v, fileOf, v.name() + " is " + text + "; fleetfix becomes root with sudo or su only")));
    }

    private static Optional<Secret> password(String host, Found v, Function<YamlValue, Path> fileOf) {
        Object value = v.node().value();
        if (value instanceof Secret secret) {
            return Optional.of(secret);
        }
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof String || value instanceof Number) {
            return Optional.of(Secret.of(String.valueOf(value)));
        }
        throw error(host, v, fileOf, v.name() + " must be a string, was " + InventoryLoader.describe(v.node()));
    }

    private static InputException error(String host, Found v, Function<YamlValue, Path> fileOf, String message) {
        return new InputException(
                fileOf.apply(v.node()), v.node().line(), v.node().column(), "host " + host + ": " + message);
    }
}
