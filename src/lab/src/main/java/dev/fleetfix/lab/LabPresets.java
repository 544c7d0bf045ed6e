package dev.fleetfix.lab;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code --preset} names, once or more, each a word or a comma list: one fleet preset alone ({@code mixed}), or
 * operator shapes together ({@code sysv,supervisord}; {@value #OPERATORS} is every shape), in the order given.
 *
 * @param presets the presets, without repeats
 */
public record LabPresets(List<LabPreset> presets) {
    /** The word for one host of each operator shape. */
    public static final String OPERATORS = "operators";

    public LabPresets {
        presets = List.copyOf(presets);
        if (presets.isEmpty()) {
            throw new IllegalArgumentException("no lab preset given");
        }
        if (presets.size() > 1 && !presets.stream().allMatch(LabPreset::operatorShape)) {
            throw new IllegalArgumentException("a fleet preset ("
                    + words(Arrays.stream(LabPreset.values()).filter(p -> !p.operatorShape()))
                    + ") stands alone; operator shapes combine (" + OPERATORS + ": "
                    + words(operatorShapes().stream()) + "), was " + words(presets.stream()));
        }
    }

    /**
     * Reads the words of {@code --preset}, each a preset or a comma list of them.
     *
     * @throws IllegalArgumentException naming an unknown preset and the valid ones, or a fleet preset not alone
     */
    public static LabPresets parse(List<String> words) {
        Set<LabPreset> out = new LinkedHashSet<>();
        for (String word : words) {
            for (String one : word.split(",", -1)) {
                String name = one.strip().toLowerCase(Locale.ROOT);
                if (name.equals(OPERATORS)) {
                    out.addAll(operatorShapes());
                } else {
                    out.add(LabPreset.parse(name));
                }
            }
        }
        return new LabPresets(new ArrayList<>(out));
    }

    /** Every operator shape, in the enum's order. */
    public static List<LabPreset> operatorShapes() {
        return Arrays.stream(LabPreset.values())
                .filter(LabPreset::operatorShape)
                .toList();
    }

    /** Every word {@code --preset} takes, with its line: each preset, then {@value #OPERATORS}. */
    public static List<String> helpLines() {
        List<String> lines = new ArrayList<>();
        for (LabPreset preset : LabPreset.values()) {
            lines.add(String.format("  %-14s %s", preset.cliName(), preset.summary()));
        }
        List<LabPreset> shapes = operatorShapes();
        lines.add(String.format(
                "  %-14s one host of each operator shape (%s to %s)",
                OPERATORS,
                shapes.get(0).cliName(),
                shapes.get(shapes.size() - 1).cliName()));
        return lines;
    }

    /** {@code sysv,supervisord}: as the command line would name them. */
    public String cliName() {
        return words(presets.stream()).replace(", ", ",");
    }

    /** Whether these are operator shapes (each gives {@code --hosts} hosts of its own). */
    public boolean shapes() {
        return presets.get(0).operatorShape();
    }

    /** The hosts without {@code --hosts}: the fleet preset's default; one of each operator shape. */
    public int defaultHosts() {
        return presets.get(0).defaultHosts();
    }

    /** The most {@code --hosts} can be: for shapes, of each, so that the lab stays within {@link LabFleet#MAX_HOSTS}. */
    public int maxHosts() {
        return shapes() ? LabFleet.MAX_HOSTS / presets.size() : presets.get(0).maxHosts();
    }

    /** The hosts' specs: the fleet preset's {@code hosts}, or {@code hosts} of each shape, shape by shape. */
    public List<LabHostSpec> specs(int hosts) {
        List<LabHostSpec> specs = new ArrayList<>();
        presets.forEach(preset -> specs.addAll(preset.specs(hosts)));
        return specs;
    }

    /** The preset that says how the lab starts: a scale lab in one container, any other as full hosts. */
    public LabPreset starter() {
        return presets.get(0);
    }

    private static String words(java.util.stream.Stream<LabPreset> presets) {
        return presets.map(LabPreset::cliName).collect(Collectors.joining(", "));
    }
}
