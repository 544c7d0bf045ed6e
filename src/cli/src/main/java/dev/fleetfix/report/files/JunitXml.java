package dev.fleetfix.report.files;

import dev.fleetfix.report.VerdictText;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostReport;
import dev.fleetfix.report.model.StepReport;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The report as JUnit XML for CI systems: one {@code testsuite} per play, one {@code testcase} per
 * host × step ({@code classname} = host, {@code name} = step). Failed and unreachable steps are
 * failures with the step's message; skipped steps are skipped; hosts the run never started get one
 * skipped testcase so they are not silently missing. A host that failed outside any step (refused
 * by another run's lock, unreachable before its first step) gets a failed testcase of its own: a
 * CI system must not read it as a skip. Text comes sanitized from the report model.
 */
final class JunitXml {
    private JunitXml() {}

    private record Case(String host, StepReport step) {}

    /** The steps by play, and the hosts with no step to stand for them: untouched, or failed outside any step. */
    private record Cases(Map<String, List<Case>> byPlay, List<String> untouched, List<HostReport> failedOutsideSteps) {}

    private static Cases cases(FleetReport report) {
        Map<String, List<Case>> byPlay = new LinkedHashMap<>();
        report.plays().forEach(p -> byPlay.put(p.name(), new ArrayList<>()));
        List<String> untouched = new ArrayList<>();
        List<HostReport> failedOutsideSteps = new ArrayList<>();
        for (HostReport host : report.hosts()) {
            if (failedOutsideSteps(host)) {
                failedOutsideSteps.add(host);
            } else if (host.steps().isEmpty()) {
                untouched.add(host.name());
            }
            for (StepReport step : host.steps()) {
                byPlay.computeIfAbsent(step.play(), k -> new ArrayList<>()).add(new Case(host.name(), step));
            }
        }
        return new Cases(byPlay, untouched, failedOutsideSteps);
    }

    static String render(FleetReport report) {
        Cases all = cases(report);
        try {
            StringWriter text = new StringWriter();
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(text);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuites");
            xml.writeAttribute("name", "fleetfix " + report.run().playbook());
            int total = 0;
            int failures = 0;
            for (List<Case> cases : all.byPlay().values()) {
                total += cases.size();
                failures += (int) cases.stream().filter(c -> failed(c.step())).count();
            }
            int benchmarks = report.benchmarks().comparisons().size()
                    + report.benchmarks().fleet().size();
            xml.writeAttribute(
                    "tests",
                    String.valueOf(total
                            + all.untouched().size()
                            + all.failedOutsideSteps().size()
                            + benchmarks));
            xml.writeAttribute(
                    "failures",
                    String.valueOf(failures + all.failedOutsideSteps().size()));
            xml.writeAttribute("time", seconds(report.run().elapsedMs()));
            for (Map.Entry<String, List<Case>> play : all.byPlay().entrySet()) {
                suite(xml, play.getKey(), play.getValue(), report.run().id());
            }
            if (!all.failedOutsideSteps().isEmpty()) {
                hostFailureSuite(xml, all.failedOutsideSteps());
            }
            if (!all.untouched().isEmpty()) {
                untouchedSuite(xml, all.untouched(), report.run().reason());
            }
            if (benchmarks > 0) {
                benchmarkSuite(xml, report);
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.close();
            return text + "\n";
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write JUnit XML: " + e.getMessage(), e);
        }
    }

    private static void suite(XMLStreamWriter xml, String play, List<Case> cases, String runId)
            throws XMLStreamException {
        xml.writeCharacters("\n  ");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", play);
        xml.writeAttribute("id", runId);
        xml.writeAttribute("tests", String.valueOf(cases.size()));
        xml.writeAttribute(
                "failures",
                String.valueOf(cases.stream().filter(c -> failed(c.step())).count()));
        xml.writeAttribute("errors", "0");
        xml.writeAttribute(
                "skipped",
                String.valueOf(cases.stream()
                        .filter(c -> c.step().status().equals("skipped"))
                        .count()));
        xml.writeAttribute(
                "time",
                seconds(cases.stream().mapToLong(c -> c.step().elapsedMs()).sum()));
        for (Case c : cases) {
            testcase(xml, c);
        }
        xml.writeCharacters("\n  ");
        xml.writeEndElement();
    }

    private static void testcase(XMLStreamWriter xml, Case c) throws XMLStreamException {
        StepReport step = c.step();
        xml.writeCharacters("\n    ");
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", c.host());
        xml.writeAttribute("name", step.index() + ". " + step.name());
        xml.writeAttribute("time", seconds(step.elapsedMs()));
        if (failed(step)) {
            xml.writeStartElement("failure");
            xml.writeAttribute("message", firstLine(step.message()));
            xml.writeAttribute("type", step.status());
            xml.writeCharacters(step.message());
            xml.writeEndElement();
        } else if (step.status().equals("skipped")) {
            xml.writeEmptyElement("skipped");
            xml.writeAttribute("message", firstLine(step.message()));
        }
        xml.writeStartElement("system-out");
        xml.writeCharacters(step.status() + ": " + step.message());
        for (var change : step.changes()) {
            xml.writeCharacters("\n" + change.what() + ": " + change.before() + " -> " + change.after());
        }
        xml.writeEndElement();
        xml.writeEndElement();
    }

    private static void untouchedSuite(XMLStreamWriter xml, List<String> hosts, String reason)
            throws XMLStreamException {
        xml.writeCharacters("\n  ");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", "untouched hosts");
        xml.writeAttribute("tests", String.valueOf(hosts.size()));
        xml.writeAttribute("failures", "0");
        xml.writeAttribute("errors", "0");
        xml.writeAttribute("skipped", String.valueOf(hosts.size()));
        for (String host : hosts) {
            xml.writeCharacters("\n    ");
            xml.writeStartElement("testcase");
            xml.writeAttribute("classname", host);
            xml.writeAttribute("name", "not started");
            xml.writeEmptyElement("skipped");
            xml.writeAttribute("message", reason.isEmpty() ? "the run never started this host" : reason);
            xml.writeEndElement();
        }
        xml.writeCharacters("\n  ");
        xml.writeEndElement();
    }

    /**
     * One testcase per before/after comparison and per fleet comparison, its verdict and reason in the words of
     * every other output (a property each, and the text as system-out). A verdict fails no test: the run's steps
     * decide that.
     */
    private static void benchmarkSuite(XMLStreamWriter xml, FleetReport report) throws XMLStreamException {
        var bench = report.benchmarks();
        xml.writeCharacters("\n  ");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", "benchmark verdicts");
        xml.writeAttribute(
                "tests",
                String.valueOf(bench.comparisons().size() + bench.fleet().size()));
        xml.writeAttribute("failures", "0");
        xml.writeAttribute("errors", "0");
        xml.writeAttribute("skipped", "0");
        for (var c : bench.comparisons()) {
            verdictCase(xml, c.host(), c.name() + " " + c.test(), c.verdict(), c.reason());
        }
        for (var f : bench.fleet()) {
            verdictCase(xml, "fleet", f.name() + " " + f.test(), f.verdict(), f.reason());
        }
        xml.writeCharacters("\n  ");
        xml.writeEndElement();
    }

    private static void verdictCase(XMLStreamWriter xml, String classname, String name, String verdict, String reason)
            throws XMLStreamException {
        xml.writeCharacters("\n    ");
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", classname);
        xml.writeAttribute("name", "benchmark " + name);
        xml.writeStartElement("properties");
        xml.writeEmptyElement("property");
        xml.writeAttribute("name", "verdict");
        xml.writeAttribute("value", verdict);
        if (reason != null) {
            xml.writeEmptyElement("property");
            xml.writeAttribute("name", "reason");
            xml.writeAttribute("value", reason);
        }
        xml.writeEndElement();
        xml.writeStartElement("system-out");
        xml.writeCharacters(VerdictText.of(verdict, reason));
        xml.writeEndElement();
        xml.writeEndElement();
    }

    /** Failed or unreachable, but no step of it failed: the reason lies outside the steps. */
    private static boolean failedOutsideSteps(HostReport host) {
        boolean hostFailed = host.outcome().equals("failed") || host.outcome().equals("unreachable");
        return hostFailed && host.steps().stream().noneMatch(JunitXml::failed);
    }

    private static void hostFailureSuite(XMLStreamWriter xml, List<HostReport> hosts) throws XMLStreamException {
        xml.writeCharacters("\n  ");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", "hosts");
        xml.writeAttribute("tests", String.valueOf(hosts.size()));
        xml.writeAttribute("failures", String.valueOf(hosts.size()));
        xml.writeAttribute("errors", "0");
        xml.writeAttribute("skipped", "0");
        for (HostReport host : hosts) {
            xml.writeCharacters("\n    ");
            xml.writeStartElement("testcase");
            xml.writeAttribute("classname", host.name());
            xml.writeAttribute("name", "host");
            xml.writeAttribute("time", seconds(host.elapsedMs()));
            xml.writeStartElement("failure");
            xml.writeAttribute("message", firstLine(host.reason()));
            xml.writeAttribute("type", host.outcome());
            xml.writeCharacters(host.reason());
            xml.writeEndElement();
            xml.writeEndElement();
        }
        xml.writeCharacters("\n  ");
        xml.writeEndElement();
    }

    private static boolean failed(StepReport step) {
        return step.status().equals("failed") || step.status().equals("unreachable");
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
    }
}
