package dev.fleetfix.inventory.ansible;

import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.yaml.YamlValue;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A vault-encrypted variables file (group_vars, host_vars) that was not decrypted: no vault password was given, or
 * none fits. Its variables are unknown, so it is a layer without any; the hosts it applies to can still be listed and
 * selected by name and group, as {@code ansible-inventory --graph} and {@code ansible-playbook --list-hosts} do, but
 * printing their variables or running on them refuses with {@link #problem()}, which names the file.
 */
final class SealedVars extends AbstractMap<String, YamlValue> {
    private final VaultException problem;

    SealedVars(VaultException problem) {
        this.problem = Objects.requireNonNull(problem, "problem");
    }

    VaultException problem() {
        return problem;
    }

    @Override
    public Set<Map.Entry<String, YamlValue>> entrySet() {
        return Set.of();
    }

    /** Identity: two files sealed alike are still two layers. */
    @Override
    public boolean equals(Object o) {
        return o == this;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
