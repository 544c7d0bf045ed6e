package dev.fleetfix.inventory.ansible;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.InputException;
import dev.fleetfix.yaml.YamlValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Inventories in the JSON of Ansible's script protocol, which is also what {@code ansible-inventory
 * --list} prints: {@code {"group": {"hosts": [...], "vars": {...}, "children": [...]}, "_meta":
 * {"hostvars": {...}}}}. The JSON comes from an executable (run with {@code --list}, and with
 * {@code --host NAME} per host when {@code _meta} is missing), from {@code ansible-inventory}
 * itself, or from a file.
 */
final class ScriptInventory {
    static final Duration TIMEOUT = Duration.ofMinutes(2);
    /**
     * Made when a script's output is first read: an ObjectMapper's class set-up (its date formats' locale data) was 5 %
     * of the CPU of a 20-host audit whose inventory is no script.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private static final int STDERR_SHOWN = 2000;

    private ScriptInventory() {}

    /** Whether Ansible would run {@code file} as a script: executable, and starting with {@code #!}. */
    static boolean isScript(Path file) {
        if (!Files.isRegularFile(file) || !Files.isExecutable(file)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(2);
            return head.length == 2 && head[0] == '#' && head[1] == '!';
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs {@code script --list} (and {@code --host} per host without {@code _meta}). */
    static InventorySource run(Path script) {
        String name = "inventory script " + script;
        YamlValue root = parseJson(name, script, runProgram(name, List.of(script.toString(), "--list")));
        return fromList(script, root, host -> {
            String out = runProgram(name, List.of(script.toString(), "--host", host));
            YamlValue vars = parseJson(name + " --host " + host, script, out);
            if (!vars.isNull() && !vars.isMapping()) {
                throw new InputException(script, 0, 0, name + " --host " + host + " must print a JSON object");
            }
            return vars;
        });
    }

    /** {@code ansible-inventory -i SOURCE --list}: any source or plugin Ansible reads. */
    static InventorySource fromAnsible(String ansibleInventory, List<Path> sources) {
        List<String> command = new ArrayList<>(List.of(ansibleInventory));
        sources.forEach(source -> command.addAll(List.of("-i", source.toString())));
        command.add("--list");
        String name = String.join(" ", command);
        Path source = sources.get(0);
        String out = runProgram(name, command);
        return fromList(source, parseJson(name, source, out), host -> new YamlValue.Scalar(null, 0, 0));
    }

    /** A file holding {@code ansible-inventory --list} JSON (or YAML of the same shape). */
    static InventorySource fromFile(Path file, YamlValue root) {
        // A file cannot be asked --host: without _meta.hostvars its hosts have only group variables.
        return fromList(file, root, host -> new YamlValue.Scalar(null, 0, 0));
    }

    /** Whether a parsed document is in the {@code --list} shape rather than a YAML inventory's. */
    static boolean isListShape(YamlValue root) {
        if (!root.isMapping()) {
            return false;
        }
        if (root.fields().containsKey("_meta")) {
            return true;
        }
        for (YamlValue.Entry group : root.fields().values()) {
            YamlValue body = group.value();
            if (body.value() instanceof List) {
                return true;
            }
            if (body.isMapping()) {
                for (String section : List.of("hosts", "children")) {
                    YamlValue.Entry f = body.fields().get(section);
                    if (f != null && f.value().value() instanceof List) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    interface HostVars {
        YamlValue of(String host);
    }

    private static InventorySource fromList(Path file, YamlValue root, HostVars missingMeta) {
        if (!root.isMapping()) {
            throw new InputException(
                    file, root.line(), root.column(), "inventory JSON must be an object of groups, was " + kind(root));
        }
        List<YamlValue> docs = new ArrayList<>();
        Map<String, String> firstGroup = new LinkedHashMap<>();
        YamlValue hostvars = null;
        for (YamlValue.Entry group : root.fields().values()) {
            if (group.key().equals("_meta")) {
                YamlValue meta = group.value();
                if (meta.isMapping() && meta.fields().containsKey("hostvars")) {
                    hostvars = meta.fields().get("hostvars").value();
                    if (!hostvars.isMapping() && !hostvars.isNull()) {
                        throw new InputException(
                                file, hostvars.line(), hostvars.column(), "_meta.hostvars must be an object");
                    }
                }
                continue;
            }
            docs.add(group(file, group, firstGroup));
        }
        for (Map.Entry<String, String> host : firstGroup.entrySet()) {
            YamlValue vars;
            if (hostvars == null) {
                vars = missingMeta.of(host.getKey());
            } else {
                YamlValue.Entry f = hostvars.isNull() ? null : hostvars.fields().get(host.getKey());
                vars = f == null ? new YamlValue.Scalar(null, 0, 0) : f.value();
            }
            if (vars.isNull()) {
                continue;
            }
            if (!vars.isMapping()) {
                throw new InputException(
                        file, vars.line(), vars.column(), "variables of host " + host.getKey() + " must be an object");
            }
            docs.add(doc(
                    host.getValue(),
                    vars.line(),
                    Map.of(
                            "hosts",
                            new YamlValue.Entry(
                                    "hosts",
                                    vars.line(),
                                    0,
                                    new YamlValue.Mapping(map(host.getKey(), vars), vars.line(), 0)))));
        }
        return new InventorySource(file, docs);
    }

    /** One group as the script plugin reads it, into a YAML-inventory document. */
    private static YamlValue group(Path file, YamlValue.Entry group, Map<String, String> firstGroup) {
        YamlValue body = group.value();
        Map<String, YamlValue> sections = new LinkedHashMap<>();
        if (!body.isMapping()) {
            sections.put("hosts", body);
        } else if (!body.fields().keySet().stream().anyMatch(Set.of("hosts", "vars", "children")::contains)) {
            // Ansible's shorthand: a group object without those keys is a host of that name with vars.
            YamlValue.Entry self =
                    new YamlValue.Entry(group.key(), group.line(), group.column(), new YamlValue.Scalar(null, 0, 0));
            sections.put(
                    "hosts",
                    new YamlValue.Sequence(
                            List.of(new YamlValue.Scalar(self.key(), self.line(), self.column())), 0, 0));
            sections.put("vars", body);
        } else {
            body.fields().forEach((k, f) -> sections.put(k, f.value()));
        }
        Map<String, YamlValue.Entry> out = new LinkedHashMap<>();
        YamlValue hosts = sections.get("hosts");
        if (hosts != null && !hosts.isNull()) {
            out.put(
                    "hosts",
                    new YamlValue.Entry("hosts", hosts.line(), hosts.column(), names(file, group, hosts, "hosts")));
            for (YamlValue h : items(hosts)) {
                firstGroup.putIfAbsent(String.valueOf(h.value()), group.key());
            }
        }
        YamlValue vars = sections.get("vars");
        if (vars != null && !vars.isNull()) {
            if (!vars.isMapping()) {
                throw new InputException(
                        file,
                        vars.line(),
                        vars.column(),
                        "group " + group.key() + ": vars must be an object, was " + kind(vars));
            }
            out.put("vars", new YamlValue.Entry("vars", vars.line(), vars.column(), vars));
        }
        YamlValue children = sections.get("children");
        if (children != null && !children.isNull()) {
            out.put(
                    "children",
                    new YamlValue.Entry(
                            "children", children.line(), children.column(), names(file, group, children, "children")));
        }
        return doc(group.key(), group.line(), out.isEmpty() ? null : out);
    }

    private static YamlValue names(Path file, YamlValue.Entry group, YamlValue list, String what) {
        if (!(list.value() instanceof List)) {
            throw new InputException(
                    file,
                    list.line(),
                    list.column(),
                    "group " + group.key() + ": " + what + " must be a list, was " + kind(list));
        }
        Map<String, YamlValue.Entry> out = new LinkedHashMap<>();
        for (YamlValue item : items(list)) {
            if (!(item.value() instanceof String) && !(item.value() instanceof Number)) {
                throw new InputException(
                        file,
                        item.line(),
                        item.column(),
                        "group " + group.key() + ": " + what + " must hold names, found " + kind(item));
            }
            String name = String.valueOf(item.value());
            out.putIfAbsent(
                    name,
                    new YamlValue.Entry(
                            name, item.line(), item.column(), new YamlValue.Scalar(null, item.line(), item.column())));
        }
        return new YamlValue.Mapping(out, list.line(), list.column());
    }

    @SuppressWarnings("unchecked")
    private static List<YamlValue> items(YamlValue list) {
        return list.value() instanceof List ? (List<YamlValue>) list.value() : List.of();
    }

    private static Map<String, YamlValue.Entry> map(String key, YamlValue value) {
        Map<String, YamlValue.Entry> m = new LinkedHashMap<>();
        m.put(key, new YamlValue.Entry(key, value.line(), value.column(), value));
        return m;
    }

    private static YamlValue doc(String group, int line, Map<String, YamlValue.Entry> body) {
        Map<String, YamlValue.Entry> inner = body == null ? Map.of() : body;
        YamlValue value = inner.isEmpty() ? new YamlValue.Scalar(null, line, 0) : new YamlValue.Mapping(inner, line, 0);
        Map<String, YamlValue.Entry> top = new LinkedHashMap<>();
        top.put(group, new YamlValue.Entry(group, line, 0, value));
        return new YamlValue.Mapping(top, line, 0);
    }

    private static String kind(YamlValue node) {
        return InventoryLoader.describe(node);
    }

    private static YamlValue parseJson(String program, Path file, String out) {
        try {
            Object value = Json.MAPPER.readValue(out, Object.class);
            return YamlValue.of(value, 0, 0);
        } catch (JsonProcessingException e) {
            throw new InputException(
                    file,
                    0,
                    0,
                    program + " printed no valid JSON: " + e.getOriginalMessage() + " (line "
                            + e.getLocation().getLineNr() + " of its output)");
        }
    }

    /** Runs a program; a failure names it and shows its stderr. */
    static String runProgram(String name, List<String> command) {
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(devNull()))
                    .start();
        } catch (IOException e) {
            throw new InputException(name + ": cannot run: " + e.getMessage());
        }
        CompletableFuture<byte[]> out = drain(process.getInputStream());
        CompletableFuture<byte[]> err = drain(process.getErrorStream());
        try {
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new InputException(name + ": no answer within " + TIMEOUT.toSeconds() + " s, stopped");
            }
            String stderr = new String(err.join(), StandardCharsets.UTF_8).strip();
            if (process.exitValue() != 0) {
                throw new InputException(name + " exited with " + process.exitValue()
                        + (stderr.isEmpty() ? " and printed nothing on stderr" : ": " + shorten(stderr)));
            }
            return new String(out.join(), StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new InputException(name + ": interrupted");
        }
    }

    private static java.io.File devNull() {
        return new java.io.File("/dev/null");
    }

    private static String shorten(String stderr) {
        String oneLine = stderr.replace('\n', ' ').replaceAll("\\p{Cntrl}", "?");
        return oneLine.length() <= STDERR_SHOWN ? oneLine : oneLine.substring(0, STDERR_SHOWN) + "...";
    }

    private static CompletableFuture<byte[]> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                in.transferTo(buffer);
                return buffer.toByteArray();
            } catch (IOException e) {
                return new byte[0];
            }
        });
    }
}
