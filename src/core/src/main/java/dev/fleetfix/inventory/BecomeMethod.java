package dev.fleetfix.inventory;

import java.util.Locale;
import java.util.Optional;

/**
 * How a host's commands that need root get it ({@code ansible_become_method}): {@code sudo}, the default, or {@code
 * su}, which asks for root's own password. Other methods of Ansible's are refused where they are written.
 */
public enum BecomeMethod {
    SUDO,
    SU;

    /** The method a value names, when it is one fleetfix has ({@code sudo}, {@code su}, any case). */
    public static Optional<BecomeMethod> named(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "sudo", "ansible.builtin.sudo" -> Optional.of(SUDO);
            case "su", "ansible.builtin.su" -> Optional.of(SU);
            default -> Optional.empty();
        };
    }

    /** The name Ansible gives it: {@code sudo}, {@code su}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
