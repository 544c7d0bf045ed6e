#!/usr/bin/env bash
# Regenerates the golden files from Ansible itself (ansible-core 2.14, Debian's ansible-core package):
#   FIXTURE.inventory.json   ansible-inventory -i FIXTURE.yaml --list
#   FIXTURE.list-hosts.txt   one line per pattern of FIXTURE.patterns: "PATTERN<TAB>host host ...",
#                            from ansible -i FIXTURE.yaml PATTERN --list-hosts
# The unit tests read these files; they never run Ansible. AnsibleInventoryIT runs these same commands and fails
# when what Ansible prints is not the committed file.
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

# Other Ansible sources under ansible/ (INI, a directory with group_vars/host_vars, scripts, --list JSON):
#   ansible-NAME.inventory.json   ansible-inventory -i ansible/NAME --list
#   ansible-NAME.inventory.yaml   ansible-inventory -i ansible/NAME --list --yaml
#   ansible-NAME.graph.txt        ansible-inventory -i ansible/NAME --graph
#   ansible-NAME.list-hosts.txt   patterns of ansible/NAME.patterns, as above
# Ansible reads --list JSON only from a program, so list.json goes through a script that prints it.
wrapper_dir=$(mktemp -d)
trap 'rm -rf "$wrapper_dir"' EXIT
for source in ansible/fleet.ini ansible/dir ansible/script-meta.sh ansible/script-nometa.sh ansible/list.json; do
  name=$(basename "$source")
  inventory="$source"
  if [[ "$name" == *.json ]]; then
    inventory="$wrapper_dir/$name.sh"
    printf '#!/bin/sh\ncat %q\n' "$PWD/$source" > "$inventory"
    chmod +x "$inventory"
  fi
  ansible-inventory -i "$inventory" --list 2>/dev/null > "golden/ansible-$name.inventory.json"
  ansible-inventory -i "$inventory" --list --yaml 2>/dev/null > "golden/ansible-$name.inventory.yaml"
  ansible-inventory -i "$inventory" --graph 2>/dev/null > "golden/ansible-$name.graph.txt"
  if [[ -f "$source.patterns" ]]; then
    : > "golden/ansible-$name.list-hosts.txt"
    while IFS= read -r pattern; do
      hosts=$(ansible -i "$inventory" "$pattern" --list-hosts 2>/dev/null | tail -n +2 | awk '{print $1}' | paste -sd' ')
      printf '%s\t%s\n' "$pattern" "$hosts" >> "golden/ansible-$name.list-hosts.txt"
    done < "$source.patterns"
  fi
done
