#!/usr/bin/env bash
# Regenerates the golden files from Ansible itself (ansible-core 2.14, Debian's ansible-core package):
#   FIXTURE.inventory.json   ansible-inventory -i FIXTURE.yaml --list
#   FIXTURE.list-hosts.txt   one line per pattern of FIXTURE.patterns: "PATTERN<TAB>host host ...",
#                            from ansible -i FIXTURE.yaml PATTERN --list-hosts
# The unit tests read these files; they never run Ansible.
set -euo pipefail
cd "$(dirname "$0")/.."
for yaml in *.yaml; do
  name="${yaml%.yaml}"
  ansible-inventory -i "$yaml" --list > "golden/$name.inventory.json"
  if [[ -f "$name.patterns" ]]; then
    : > "golden/$name.list-hosts.txt"
    while IFS= read -r pattern; do
      hosts=$(ansible -i "$yaml" "$pattern" --list-hosts | tail -n +2 | awk '{print $1}' | paste -sd' ')
      printf '%s\t%s\n' "$pattern" "$hosts" >> "golden/$name.list-hosts.txt"
    done < "$name.patterns"
  fi
done
