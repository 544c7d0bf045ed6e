#!/bin/sh
# An inventory script without _meta: asked with --host for each host.
case "$1" in
  --list) echo '{"redis": {"hosts": ["n1", "n2"], "vars": {"g": 1}}, "ungrouped": ["n3"]}' ;;
  --host)
    case "$2" in
      n1) echo '{"ansible_host": "10.0.0.11", "g": 2}' ;;
      n3) echo '{"solo": true}' ;;
      *) echo '{}' ;;
    esac ;;
  *) echo "usage: $0 --list | --host NAME" >&2; exit 2 ;;
esac
