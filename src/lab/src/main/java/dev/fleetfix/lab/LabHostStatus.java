package dev.fleetfix.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code fleetfix lab status} shows for one host.
 *
 * @param state the container's state as Docker names it ({@code running}, {@code exited}), or {@code missing}
 * @param redisUp whether its (first) Redis answers
 * @param role what Redis's ROLE says ({@code master}, {@code slave}); empty when it does not answer or wants a
 *     password
 * @param sentinelUp whether the host's Sentinel answers; false when it runs none
 * @param instances each Redis instance, in port order (one for most hosts)
 */
public record LabHostStatus(
        LabHost host,
        String state,
        boolean sshUp,
        boolean redisUp,
        Optional<String> role,
        boolean sentinelUp,
        List<Instance> instances) {
    public LabHostStatus {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(role, "role");
        instances = List.copyOf(instances);
    }

    /**
     * What the host answers now: whether its sshd, each Redis instance and its Sentinel answer, and its Redis role.
     *
     * @param state its container's state
     * @param password its Redis password, to read INFO and ROLE with
     */
    static LabHostStatus probe(LabHost host, String state, Optional<String> password) {
        List<Instance> instances = new ArrayList<>();
        for (int i = 0; i < host.redisPorts().size(); i++) {
            int port = host.redisPorts().get(i);
            boolean up = LabProbe.redisUp(host.address(), port);
            instances.add(new Instance(
                    port,
                    host.services().get(i),
                    up,
                    up ? LabProbe.server(host.address(), port, password) : Optional.empty()));
        }
        boolean redisUp = instances.get(0).up();
        return new LabHostStatus(
                host,
                state,
                LabProbe.sshUp(host.address(), host.sshPort()),
                redisUp,
                redisUp ? LabProbe.role(host.address(), host.redisPort()) : Optional.empty(),
                host.sentinelPort().isPresent()
                        && LabProbe.redisUp(host.address(), host.sentinelPort().getAsInt()),
                instances);
    }

    /**
     * One Redis instance of the host.
     *
     * @param service the unit (or SysV script) that runs it
     * @param up whether it answers
     * @param server what INFO says it is, {@code redis 2.8.19}, {@code valkey 8.1.1}; empty when it does not
     *     answer
     */
    public record Instance(int port, String service, boolean up, Optional<String> server) {
        public Instance {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(server, "server");
        }
    }
}
