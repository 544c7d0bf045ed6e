#!/bin/sh
# An inventory script with _meta: called only with --list.
if [ "$1" != "--list" ]; then echo "unexpected $*" >&2; exit 1; fi
cat <<'JSON'
{
  "redis": {"hosts": ["m1", "m2"], "vars": {"redis_port": 6380, "tls": false}, "children": ["replicas"]},
  "replicas": ["m3"],
  "shorthand": {"only_var": "x"},
  "all": {"vars": {"ansible_user": "deploy", "pi": 3.14, "nil": null}},
  "_meta": {"hostvars": {"m1": {"ansible_host": "10.0.0.1", "list": [1, {"a": "b"}]}, "m3": {"ansible_port": 2222}}}
}
JSON
