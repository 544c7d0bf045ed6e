package dev.fleetfix.checks;

import dev.fleetfix.transport.ScriptResource;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** {@code discovery.sh} (next to this class) with its parameters, for {@link ServiceDiscovery}. */
final class DiscoveryScript {
    private static final String BODY = ScriptResource.read(DiscoveryScript.class, "discovery.sh");
    private static final Pattern PATH = Pattern.compile("/[A-Za-z0-9_.@+=,/-]{1,1024}");

    private DiscoveryScript() {}

    /**
     * The script ({@code discovery.sh} next to this class) after a preamble of quoted parameters: read-only, as root;
     * bounded output for each port, in which the sockets at {@code address} (when it is an IP) or a wildcard come
     * first.
     */
    static String of(String address, List<Integer> ports, RedisSelf self) {
        String pid = self.pid().isPresent() ? Long.toString(self.pid().getAsLong()) : "";
        return ServiceDiscovery.FIRST_LINE + "\n"
                + ScriptResource.assign(
                        "fx_addr",
                        Listener.ip(address).isPresent() ? address.strip().toLowerCase(Locale.ROOT) : "")
                + ScriptResource.assign(
                        "fx_conf",
                        self.config().filter(c -> PATH.matcher(c).matches()).orElse(""))
                + ScriptResource.assign(
                        "fx_ports",
                        String.join(" ", ports.stream().map(String::valueOf).toList()))
                + ScriptResource.assign("fx_info_port", Integer.toString(self.port()))
                + ScriptResource.assign("fx_info_pid", pid)
                + ScriptResource.assign(
                        "fx_info_exe",
                        self.executable().filter(e -> PATH.matcher(e).matches()).orElse(""))
                + BODY;
    }
}
