"""Parses an OpenMetrics file with the official Prometheus Python client and prints every sample as a JSON line.

Both of the client's parsers must accept the file: the OpenMetrics one (strict, wants '# EOF') and the classic
Prometheus text one, which is what node_exporter's textfile collector speaks. A file either rejects fails here.
"""
import json
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import text_string_to_metric_families as prometheus_families

text = open(sys.argv[1], encoding="utf-8").read()
classic = sum(1 for family in prometheus_families(text) for _ in family.samples)
for family in openmetrics_families(text):
    for sample in family.samples:
        print(json.dumps({"family": family.name, "type": family.type, "name": sample.name,
                          "labels": sample.labels, "value": sample.value}))
print(json.dumps({"classic_samples": classic}))
