#!/usr/bin/env bash
# On the GPU machine, inside bench/gpu/run.sh: runs COMMAND in alternating rounds with the
# pack's plugins ("before") and with the plugins in NEW_DIR put in their place ("after"),
# so that a plugin change is measured against its baseline on the same machine and run.
#   bash bench/gpu/run.sh PACK -- 'bash bench/gpu/plugin_ab.sh NEW_DIR ROUNDS COMMAND...'
set -euo pipefail
new=$(cd "${1:?usage: $0 NEW_DIR ROUNDS COMMAND...}" && pwd)
rounds=${2:?usage: $0 NEW_DIR ROUNDS COMMAND...}
shift 2
plugins=$(dirname "$(command -v plexus)")
before=$(mktemp -d)
for f in "$new"/*.so; do cp "$plugins/$(basename "$f")" "$before/"; done
for round in $(seq "$rounds"); do
  for variant in before after; do
    if [ $variant = before ]; then cp "$before"/*.so "$plugins/"; else cp "$new"/*.so "$plugins/"; fi
    echo "== $variant (round $round): $*"
    "$@"
  done
done
cp "$before"/*.so "$plugins/"
