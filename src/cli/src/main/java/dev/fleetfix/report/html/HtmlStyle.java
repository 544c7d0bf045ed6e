package dev.fleetfix.report.html;

/** The HTML report's inline stylesheet and scripts (nothing is loaded from anywhere). */
final class HtmlStyle {
    private HtmlStyle() {}

    static final String CSS =
            """
            :root { --ok: #2b8a3e; --changed: #e67700; --bad: #c92a2a; --muted: #868e96; --line: #dee2e6; }
            * { box-sizing: border-box; }
            body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif;
                   margin: 0 auto; padding: 24px 32px; max-width: 1320px; color: #212529; background: #f8f9fa;
                   font-size: 15px; line-height: 1.45; }
            h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 19px; margin: 28px 0 10px; }
            .muted { color: var(--muted); font-weight: normal; }
            .reason { color: var(--bad); font-weight: 600; }
            .note { color: #555; font-size: 0.9em; margin: 0.3em 0; }
            .cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
            .card { background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--muted);
                    border-radius: 8px; padding: 10px 18px; min-width: 120px; }
            .card .value { font-size: 26px; font-weight: 700; } .card .label { color: var(--muted); font-size: 13px; }
            .card.ok { border-left-color: var(--ok); } .card.changed { border-left-color: var(--changed); }
            .card.bad { border-left-color: var(--bad); } .card.bad .value { color: var(--bad); }
            table { border-collapse: collapse; background: #fff; width: 100%; }
            th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
            th { background: #f1f3f5; font-size: 13px; text-transform: uppercase; letter-spacing: .03em; }
            td.name { font-weight: 600; } td.failure { color: var(--bad); }
            code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
            code.ok { color: var(--ok); font-weight: 700; } code.bad { color: var(--bad); font-weight: 700; }
            .badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 700;
                     color: #fff; background: var(--muted); text-transform: uppercase; vertical-align: middle; }
            .badge.ok { background: var(--ok); } .badge.changed { background: var(--changed); }
            .badge.bad { background: var(--bad); }
            .badge.verdict { white-space: normal; }
            .badge .why { text-transform: none; font-weight: 600; }
            @media print {
              body { background: #fff; }
              .badge { color: #000; background: none; border: 1.5px solid var(--muted); }
              .badge.ok { border-color: var(--ok); } .badge.changed { border-color: var(--changed); }
              .badge.bad { border-color: var(--bad); }
            }
            .charts { display: flex; flex-wrap: wrap; gap: 16px; }
            figure.plot { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 0; padding: 8px;
                          width: 620px; }
            figcaption { font-size: 13px; padding: 6px; }
            table.metrics td, table.metrics th { padding: 3px 8px; font-size: 13px; }
            svg.chart { display: block; }
            svg .grid { stroke: #e9ecef; stroke-width: 1; } svg .axis { stroke: #495057; stroke-width: 1.2; }
            svg .tick { font-size: 11px; fill: #495057; } svg .axis-label { font-size: 12px; fill: #343a40; }
            svg .chart-title { font-size: 14px; font-weight: 700; fill: #212529; }
            svg .legend-text { font-size: 12px; fill: #212529; } svg .empty { fill: var(--muted); }
            details { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
            .facts { font-size: 12px; color: #495057; }
            footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
            """;

    /** Records errors and console.error calls into #console-errors, so a headless browser's DOM dump shows them. */
    static final String ERROR_HOOK =
            """
            (function () {
              var errors = [];
              function record(text) {
                errors.push(String(text));
                var el = document.getElementById('console-errors');
                if (el) { el.textContent = errors.join('\\n'); el.setAttribute('data-count', String(errors.length)); }
              }
              window.addEventListener('error', function (e) { record('error: ' + e.message); });
              var original = console.error;
              console.error = function () {
                record('console.error: ' + Array.prototype.join.call(arguments, ' '));
                return original.apply(console, arguments);
              };
              window.fleetfixRecordError = record;
            })();
            """;

    /** After rendering, writes what the browser made of each chart into data attributes (tests read them). */
    static final String CHART_CHECK =
            """
            (function () {
              var errors = document.getElementById('console-errors');
              if (!errors.hasAttribute('data-count')) { errors.setAttribute('data-count', '0'); }
              var charts = document.querySelectorAll('svg.chart');
              for (var i = 0; i < charts.length; i++) {
                var lines = charts[i].querySelectorAll('polyline.series');
                var points = 0, width = 0;
                for (var j = 0; j < lines.length; j++) {
                  points += lines[j].points.numberOfItems;
                  width = Math.max(width, lines[j].getBBox().width);
                }
                charts[i].setAttribute('data-rendered-points', String(points));
                charts[i].setAttribute('data-rendered-width', String(Math.round(width)));
              }
              document.body.setAttribute('data-charts', String(charts.length));
            })();
            """;
}
