#!/usr/bin/env python3
"""Writes the Debian copyright file (DEP-5) of a fleetfix package: fleetfix's own licence, then one paragraph per
library its shaded jar bundles, with the licence its Maven pom declares (or its parent pom's, where the project declares it once).

Input: the output of 'mvn dependency:list' with absolute artifact paths (target/bundled-libraries.txt), so the list is
the build's own and cannot drift from the jar. A library whose licence cannot be found fails the build: an
unlicensed entry would be a false statement in the package.

Usage: copyright.py PACKAGE JAR BUNDLED-LIBRARIES.txt > copyright
  (JAR: the shaded jar's installed path without the leading /, e.g. usr/share/fleetfix/lib/fleetfix.jar)
"""
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

# Licence names as poms spell them -> DEP-5 short names (https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/)
SHORT = [
    (r"apache.*2", "Apache-2.0"),
    (r"lgpl.*2\.1.*(later|\+)|lesser general public license.*2\.1.*later", "LGPL-2.1+"),
    (r"lgpl.*2\.1|lesser general public license.*2\.1", "LGPL-2.1"),
    (r"epl.*2|eclipse public license.*2", "EPL-2.0"),
    (r"epl.*1|eclipse public license.*1", "EPL-1.0"),
    (r"cddl", "CDDL-1.0"),
    (r"\bmit\b", "Expat"),
    (r"bouncy castle", "Expat"),
    (r"bsd.*(3|new|revised)|revised bsd|new bsd", "BSD-3-clause"),
    (r"bsd.*2|simplified bsd", "BSD-2-clause"),
    (r"public domain|cc0", "public-domain"),
    (r"json license", "JSON"),
    (r"eclipse public license.*2|epl.*2", "EPL-2.0"),
    (r"eclipse public license|epl", "EPL-1.0"),
]

TEXT = {
    "Apache-2.0": "On Debian systems the full text of the Apache License 2.0 is in\n"
    "/usr/share/common-licenses/Apache-2.0.",
    "LGPL-2.1+": "On Debian systems the full text of the GNU Lesser General Public License 2.1 is in\n"
    "/usr/share/common-licenses/LGPL-2.1.",
    "LGPL-2.1": "On Debian systems the full text of the GNU Lesser General Public License 2.1 is in\n"
    "/usr/share/common-licenses/LGPL-2.1.",
    "public-domain": "The authors dedicate this work to the public domain.",
    "Expat": "The full text of the MIT (Expat) licence is at https://opensource.org/license/mit.",
    "BSD-2-clause": "The full text is at https://opensource.org/license/bsd-2-clause.",
    "BSD-3-clause": "The full text is at https://opensource.org/license/bsd-3-clause.",
}


def short(name, url):
    for pattern, short_name in SHORT:
        if re.search(pattern, name, re.IGNORECASE):
            return short_name
    if url and "unlicense" in url.lower():
        return "public-domain"
    raise SystemExit(f"copyright.py: no DEP-5 name for the licence '{name}' ({url}); add it to SHORT")


def local(tag):
    return tag.rsplit("}", 1)[-1]


def child(element, name):
    return next((c for c in element if local(c.tag) == name), None)


def licences(pom, repo):
    """(name, url) pairs of the pom's licences, looked up through its parents in the local repository."""
    while pom is not None and pom.is_file():
        root = ET.parse(pom).getroot()
        found = child(root, "licenses")
        if found is not None and len(found):
            return [((child(l, "name").text or "").strip(), (getattr(child(l, "url"), "text", "") or "").strip())
                    for l in found]
        parent = child(root, "parent")
        if parent is None:
            return []
        g, a, v = (child(parent, n).text.strip() for n in ("groupId", "artifactId", "version"))
        pom = repo / g.replace(".", "/") / a / v / f"{a}-{v}.pom"
    return []


def main(package, jar_path, listing):
    libraries = []
    for line in Path(listing).read_text().splitlines():
        m = re.match(r"\s+([^:\s]+):([^:]+):jar:([^:]+):(?:compile|runtime):(/\S+\.jar)", line)
        if m:
            libraries.append(m.groups())
    if not libraries:
        raise SystemExit(f"copyright.py: no libraries in {listing}")
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        f"Upstream-Name: {package}",
        f"Comment: {jar_path} bundles (shades) the libraries below; this list is made from",
        " the build's dependency list, and each licence from the library's Maven pom.",
        "",
        "Files: *",
        "Copyright: 2026 fleetfix developers",
        "License: Apache-2.0",
        "",
    ]
    used = {"Apache-2.0"}
    urls = {}
    for group, artifact, version, jar in libraries:
        jar = Path(jar)
        repo = jar.parents[len(group.split(".")) + 2]
        found = licences(jar.with_suffix(".pom"), repo)
        if not found:
            raise SystemExit(f"copyright.py: the pom of {group}:{artifact}:{version} declares no licence")
        names = []
        for name, url in found:
            s = short(name, url)
            used.add(s)
            urls.setdefault(s, url)
            names.append(s)
        out += [
            f"Files: {jar_path}",
            f"Copyright: the authors of {artifact}",
            "License: " + " or ".join(dict.fromkeys(names)),
            f"Comment: bundled library {group}:{artifact}:{version}",
            "",
        ]
    for s in sorted(used):
        body = TEXT.get(s, f"The full text is at {urls.get(s) or 'the library project site'}.")
        out.append(f"License: {s}")
        out += [" " + (l if l else ".") for l in body.splitlines()]
        out.append("")
    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit("usage: copyright.py PACKAGE JAR BUNDLED-LIBRARIES.txt > copyright")
    main(*sys.argv[1:])
