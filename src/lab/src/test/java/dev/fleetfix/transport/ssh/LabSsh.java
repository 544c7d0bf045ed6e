package dev.fleetfix.transport.ssh;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.lab.LabFleet;
import dev.fleetfix.lab.LabHost;
import java.nio.file.Path;

/** The SSH ITs' view of a lab fleet: inventory hosts for its members, and how errors name them. */
record LabSsh(LabFleet fleet) {

    /** A lab host reached with the given key and known_hosts file. */
    Host host(String name, Path key, Path knownHosts) {
        LabHost lab = fleet.host(name);
        return TestHosts.ssh(name, lab.address(), lab.sshPort(), fleet.user(), key, knownHosts);
    }

    /** A lab host reached with the lab's own key and known_hosts. */
    Host host(String name) {
        return host(name, fleet.privateKey(), fleet.knownHostsFile());
    }

    /** The prefix of every transport error about this host: "host lab-1 (127.0.0.11:22): ". */
    String described(String name) {
        LabHost lab = fleet.host(name);
        return "host " + name + " (" + lab.address() + ":" + lab.sshPort() + "): ";
    }
}
