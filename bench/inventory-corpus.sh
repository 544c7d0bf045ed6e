#!/usr/bin/env bash
# fleetfix against the real ansible-inventory / ansible-playbook on a corpus of public projects' inventories
# (docs/inventory-parity.md#inventories-of-public-ansible-projects). The corpus is not part of the project: lay its
# files out as src/lab/src/test/resources/inventory-corpus-sources.tsv lists them (the folder's NOTICE), then
#
#   bench/inventory-corpus.sh DIR            # DIR: the corpus folder, holding NOTICE
#   MVN_ARGS="-o" bench/inventory-corpus.sh DIR
#
# Prints the table of agreements and differences and fails when fewer than 95 % of the checks agree, or when a
# difference is not listed in src/lab/src/test/resources/inventory-corpus-differences.tsv. Needs ansible-core
# (src/lab/src/lab/prepare.sh installs it), not Docker.
#
# The same comparison (InventoryComparer) runs in the build on the inventories Debian's ansible package ships
# (InventoryCorpusParityIT, the whole of that corpus; docs/inventory-parity.md#inventories-debians-ansible-package-ships-in-the-build).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 1 ] || { echo "usage: bench/inventory-corpus.sh CORPUS_DIR" >&2; exit 2; }
corpus="$(cd "$1" && pwd)"
[ -f "$corpus/NOTICE" ] || { echo "inventory-corpus: $corpus has no NOTICE: not a corpus folder" >&2; exit 2; }
cd "$repo"
# shellcheck disable=SC2086
exec mvn -B ${MVN_ARGS:-} -pl src/lab -am verify -Drelease.skip=true -DskipITs=false -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=InventoryCorpusParity -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dfleetfix.inventory.corpus="$corpus"
