package dev.fleetfix.inventory;

import java.util.Set;

/**
 * The variables whose values are passwords: kept as {@code Secret} in {@link Host#vars()}, so that every output that
 * shows variables (inventory --list/--host, -v traces, reports, journals) shows "******". Ansible's own connection
 * and become passwords are among them: fleetfix does not use them, but an inventory shared with Ansible holds them.
 */
public final class PasswordVariables {
    /** The password variables by name; every {@code vault_*} variable is one too ({@link #isPassword}). */
    public static final Set<String> NAMES = Set.of(
            "redis_password",
            "sentinel_password",
            "ansible_password",
            "ansible_ssh_pass",
            "ansible_ssh_password",
            "ansible_become_password",
            "ansible_become_pass",
            "ansible_sudo_pass",
            "ansible_sudo_password");

    private PasswordVariables() {}

    /** A password: one of {@link #NAMES}, or named {@code vault_*} as Ansible's vaulted values are. */
    public static boolean isPassword(String key) {
        return NAMES.contains(key) || key.startsWith("vault_");
    }
}
