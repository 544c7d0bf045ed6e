package dev.fleetfix.report.html;

import static dev.fleetfix.report.html.Markup.attrs;
import static dev.fleetfix.report.html.Markup.el;
import static dev.fleetfix.report.html.Markup.empty;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * An inline SVG plot of a figure by value size: x is the value size on a log-2 axis (each size
 * doubling takes the same width), y the figure, linear from 0. One polyline per series, with a dot
 * per measured point. Built from {@link Markup}, so every label is escaped.
 */
final class SweepChart {
    static final int WIDTH = 600;
    static final int HEIGHT = 320;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 36;
    private static final int BOTTOM = 84;

    /** One line: legend, colour, and (value size, figure) points in increasing size. */
    record Line(String legend, String color, List<double[]> points) {
        Line {
            points = List.copyOf(points);
        }
    }

    private SweepChart() {}

    static Markup svg(String title, String yLabel, List<Line> lines) {
        List<Line> drawn = lines.stream().filter(l -> !l.points().isEmpty()).toList();
        TreeSet<Double> sizes = new TreeSet<>();
        drawn.forEach(l -> l.points().forEach(p -> sizes.add(p[0])));
        double max = drawn.stream()
                .flatMap(l -> l.points().stream())
                .mapToDouble(p -> p[1])
                .max()
                .orElse(0);
        double step = LatencyChart.niceStep(max > 0 ? max / 5 : 0.2);
        double top = Math.max(step, Math.ceil(max / step - 1e-9) * step);
        double lo = sizes.isEmpty() ? 1 : log2(sizes.first());
        double hi = sizes.isEmpty() ? 2 : Math.max(lo + 1, log2(sizes.last()));
        Axis axis = new Axis(lo, hi, top);
        List<Markup> parts = new ArrayList<>();
        parts.add(el("title", title));
        parts.add(label(LEFT, 20, "chart-title", "start", title));
        grid(parts, axis, step, sizes);
        axes(parts, yLabel);
        lines(parts, axis, drawn);
        if (drawn.isEmpty()) {
            parts.add(label(WIDTH / 2.0, HEIGHT / 2.0, "empty", "middle", "no figures"));
        }
        return el(
                "svg",
                attrs(
                        "class",
                        "chart",
                        "viewBox",
                        "0 0 " + WIDTH + " " + HEIGHT,
                        "width",
                        WIDTH,
                        "height",
                        HEIGHT,
                        "role",
                        "img",
                        "aria-label",
                        title),
                parts);
    }

    /** A horizontal grid line at each step of the figure, a vertical one at each value size, with their ticks. */
    private static void grid(List<Markup> parts, Axis axis, double step, TreeSet<Double> sizes) {
        for (double y = 0; y <= axis.top() + 1e-9; y += step) {
            parts.add(empty(
                    "line",
                    attrs(
                            "class",
                            "grid",
                            "x1",
                            LEFT,
                            "x2",
                            WIDTH - RIGHT,
                            "y1",
                            fmt(axis.y(y)),
                            "y2",
                            fmt(axis.y(y)))));
            parts.add(label(LEFT - 6, axis.y(y) + 4, "tick", "end", number(y)));
        }
        for (double size : sizes) {
            parts.add(empty(
                    "line",
                    attrs(
                            "class",
                            "grid",
                            "x1",
                            fmt(axis.x(size)),
                            "x2",
                            fmt(axis.x(size)),
                            "y1",
                            TOP,
                            "y2",
                            HEIGHT - BOTTOM)));
            parts.add(label(axis.x(size), HEIGHT - BOTTOM + 16, "tick", "middle", bytes(size)));
        }
    }

    /** The two axes and their labels. */
    private static void axes(List<Markup> parts, String yLabel) {
        parts.add(empty(
                "line",
                attrs("class", "axis", "x1", LEFT, "x2", WIDTH - RIGHT, "y1", HEIGHT - BOTTOM, "y2", HEIGHT - BOTTOM)));
        parts.add(empty("line", attrs("class", "axis", "x1", LEFT, "x2", LEFT, "y1", TOP, "y2", HEIGHT - BOTTOM)));
        parts.add(label((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - BOTTOM + 34, "axis-label", "middle", "value size"));
        parts.add(el(
                "text",
                attrs(
                        "class",
                        "axis-label",
                        "text-anchor",
                        "middle",
                        "transform",
                        "translate(16 " + fmt((TOP + HEIGHT - BOTTOM) / 2.0) + ") rotate(-90)"),
                yLabel));
    }

    /** Each line and its dots, and its legend, in rows below the plot. */
    private static void lines(List<Markup> parts, Axis axis, List<Line> drawn) {
        int legendX = LEFT;
        int legendY = HEIGHT - 28;
        for (Line l : drawn) {
            series(parts, axis, l);
            int width = 28 + 7 * l.legend().length();
            if (legendX > LEFT && legendX + width > WIDTH - RIGHT) {
                legendX = LEFT; // the next row: four legends do not fit in one
                legendY += 18;
            }
            int y = legendY;
            parts.add(empty(
                    "line",
                    attrs(
                            "x1",
                            legendX,
                            "x2",
                            legendX + 18,
                            "y1",
                            y - 4,
                            "y2",
                            y - 4,
                            "stroke",
                            l.color(),
                            "stroke-width",
                            3)));
            parts.add(label(legendX + 22, y, "legend-text", "start", l.legend()));
            legendX += width;
        }
    }

    /** One line through its points, with a dot and a tooltip at each. */
    private static void series(List<Markup> parts, Axis axis, Line l) {
        StringBuilder points = new StringBuilder();
        for (double[] p : l.points()) {
            points.append(fmt(axis.x(p[0])))
                    .append(',')
                    .append(fmt(axis.y(p[1])))
                    .append(' ');
        }
        parts.add(empty(
                "polyline",
                attrs(
                        "class",
                        "series",
                        "fill",
                        "none",
                        "stroke",
                        l.color(),
                        "stroke-width",
                        2,
                        "data-legend",
                        l.legend(),
                        "points",
                        points.toString().strip())));
        for (double[] p : l.points()) {
            parts.add(el(
                    "circle",
                    attrs("cx", fmt(axis.x(p[0])), "cy", fmt(axis.y(p[1])), "r", 3, "fill", l.color()),
                    el("title", l.legend() + " at " + bytes(p[0]) + ": " + number(p[1]))));
        }
    }

    private record Axis(double lo, double hi, double top) {
        double x(double size) {
            return LEFT + (log2(size) - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT);
        }

        double y(double v) {
            return HEIGHT - BOTTOM - v / top * (HEIGHT - TOP - BOTTOM);
        }
    }

    private static Markup label(double x, double y, String cls, String anchor, String text) {
        return el("text", attrs("x", fmt(x), "y", fmt(y), "class", cls, "text-anchor", anchor), text);
    }

    /** "512 B", "1 KiB", "8 KiB", "1.5 KiB". */
    static String bytes(double size) {
        if (size >= 1024) {
            double k = size / 1024;
            return (k == Math.rint(k) ? String.valueOf((long) k) : String.format(Locale.ROOT, "%.1f", k)) + " KiB";
        }
        return (long) size + " B";
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String number(double v) {
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
