package dev.fleetfix.report.html;

import dev.fleetfix.report.model.LatencyPointReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An inline SVG plot of latency by percentile: x on {@link PercentileAxis} (log of 1/(1-p)), y in
 * milliseconds, linear from 0. One polyline per series; series sharing a legend share a colour.
 */
final class LatencyChart {
    static final int WIDTH = 600;
    static final int HEIGHT = 330;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 36;
    private static final int BOTTOM = 52;

    /** One line: its legend entry, colour and points (percentile, ms). */
    record Series(String legend, String color, List<LatencyPointReport> points) {
        Series {
            points = List.copyOf(points);
        }
    }

    private LatencyChart() {}

    static String svg(String title, List<Series> series) {
        List<Series> drawn = series.stream().filter(s -> !s.points().isEmpty()).toList();
        int span = PercentileAxis.span(drawn.stream()
                .flatMap(s -> s.points().stream())
                .map(LatencyPointReport::percent)
                .toList());
        double maxMs = drawn.stream()
                .flatMap(s -> s.points().stream())
                .mapToDouble(LatencyPointReport::ms)
                .max()
                .orElse(0);
        double step = niceStep(maxMs > 0 ? maxMs / 5 : 0.2);
        double top = Math.max(step, Math.ceil(maxMs / step - 1e-9) * step);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\""
                        + " role=\"img\" aria-label=\"%s\">\n",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT,
                Html.escape(title)));
        svg.append("<title>").append(Html.escape(title)).append("</title>\n");
        svg.append(text(LEFT, 20, "chart-title", "start", title));
        grid(svg, span, top, step);
        for (Series s : drawn) {
            svg.append("<polyline class=\"series\" fill=\"none\" stroke=\"")
                    .append(s.color())
                    .append("\" stroke-width=\"2\" stroke-linejoin=\"round\" data-legend=\"")
                    .append(Html.escape(s.legend()))
                    .append("\" points=\"")
                    .append(points(s.points(), span, top))
                    .append("\"/>\n");
        }
        legend(svg, drawn);
        if (drawn.isEmpty()) {
            svg.append(text(WIDTH / 2.0, HEIGHT / 2.0, "empty", "middle", "no latency figures"));
        }
        return svg.append("</svg>\n").toString();
    }

    private static void grid(StringBuilder svg, int span, double top, double step) {
        double bottom = HEIGHT - BOTTOM;
        for (int n = 0; n <= span; n++) {
            double x = x(n, span);
            svg.append(line(x, TOP, x, bottom, "grid"));
            String anchor = n == 0 ? "start" : n == span ? "end" : "middle";
            svg.append(text(x, bottom + 16, "tick", anchor, PercentileAxis.label(n)));
        }
        for (double v = 0; v <= top + step / 2; v += step) {
            double y = y(v, top);
            svg.append(line(LEFT, y, WIDTH - RIGHT, y, "grid"));
            svg.append(text(LEFT - 6, y + 4, "tick", "end", number(v)));
        }
        svg.append(line(LEFT, bottom, WIDTH - RIGHT, bottom, "axis"));
        svg.append(line(LEFT, TOP, LEFT, bottom, "axis"));
        svg.append(text(
                (LEFT + WIDTH - RIGHT) / 2.0,
                HEIGHT - 10,
                "axis-label",
                "middle",
                "percentile (log scale of 1/(1−p); max at the right end)"));
        svg.append(String.format(
                Locale.ROOT,
                "<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(16 %.1f) rotate(-90)\">latency (ms)</text>\n",
                (TOP + bottom) / 2));
    }

    private static void legend(StringBuilder svg, List<Series> drawn) {
        Map<String, String> entries = new LinkedHashMap<>();
        drawn.forEach(s -> entries.putIfAbsent(s.legend(), s.color()));
        double y = TOP + 8;
        for (Map.Entry<String, String> e : entries.entrySet()) {
            double x = LEFT + 14;
            svg.append(String.format(
                    Locale.ROOT,
                    "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/>",
                    x,
                    y - 4,
                    e.getValue()));
            svg.append(text(x + 20, y + 1, "legend-text", "start", e.getKey()).strip());
            svg.append("</g>\n");
            y += 18;
        }
    }

    static String points(List<LatencyPointReport> points, int span, double top) {
        List<String> xy = new ArrayList<>();
        for (LatencyPointReport p : points) {
            double x = x(PercentileAxis.position(p.percent(), span), span);
            xy.add(String.format(Locale.ROOT, "%.1f,%.1f", x, y(p.ms(), top)));
        }
        return String.join(" ", xy);
    }

    private static double x(double nines, int span) {
        return LEFT + nines / span * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double ms, double top) {
        return HEIGHT - BOTTOM - Math.min(ms, top) / top * (HEIGHT - BOTTOM - TOP);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        double exp = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / exp;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
        return nice * exp;
    }

    private static String number(double v) {
        if (v == Math.rint(v)) {
            return String.valueOf((long) v);
        }
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }

    private static String line(double x1, double y1, double x2, double y2, String cls) {
        return String.format(
                Locale.ROOT,
                "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                cls,
                x1,
                y1,
                x2,
                y2);
    }

    private static String text(double x, double y, String cls, String anchor, String content) {
        return String.format(
                Locale.ROOT,
                "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
                cls,
                x,
                y,
                anchor,
                Html.escape(content));
    }
}
