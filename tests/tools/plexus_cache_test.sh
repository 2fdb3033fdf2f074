#!/usr/bin/env bash
# `plexus cache` as a user meets it, on the disk, sqlite and memory stores: stats, ls, show,
# verify (with a damaged entry), prune, clear, their errors, and a root others may write.
# usage: plexus_cache_test.sh PLEXUS_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plexus=$1
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
unset PLEXUS_CONFIG PLEXUS_SCHEDULER PLEXUS_BACKENDS PLEXUS_PLUGIN_PATH PLEXUS_LOG_LEVEL PLEXUS_CACHE
export XDG_CONFIG_HOME=$work/xdg
export PLEXUS_CACHE_DIR=$work/cache
source "$here/expect.sh"

expect "help lists cache" 0 "cache +inspect and maintain" -- "$plexus" help
expect "cache --help" 0 "usage: plexus cache <subcommand>" -- "$plexus" cache --help
for sub in stats ls show verify prune clear; do
  expect "cache $sub --help" 0 "usage: plexus cache" -- "$plexus" cache $sub --help
done
expect "cache without a subcommand is a usage error" 2 "usage: plexus cache" -- "$plexus" cache
expect "unknown subcommand" 2 "unknown subcommand 'list'.*stats, ls, show" -- "$plexus" cache list
expect "unknown store lists the installed ones" 1 "--store nosuch: cache 'nosuch' is not installed; available: .*disk.*memory.*sqlite" -- \
  "$plexus" cache stats --store nosuch
expect "a misspelt store gets a suggestion" 1 "cache 'sqlit' is not installed \(did you mean 'sqlite'\?\)" -- \
  "$plexus" cache stats --store sqlit
expect "prune needs a limit" 2 "needs --max-size and/or --max-age" -- "$plexus" cache prune
expect "prune refuses a bad size" 2 "--max-size expects a size" -- "$plexus" cache prune --max-size lots
expect "prune refuses a bad age" 2 "--max-age expects a number of days" -- "$plexus" cache prune --max-age -3
expect "show needs a prefix" 2 "takes one ID-PREFIX" -- "$plexus" cache show

printf '__kernel void k(__global int* p) { p[0] = N; }\n' > k.cl
printf '[cache]\nuse = "sqlite"\n[cache.sqlite]\npath = "%s/db/cache.sqlite"\n[compiler]\nuse = "clang"\n' "$work" > sqlite.toml

# The same story on each persistent store: the default config's disk store, and sqlite.
for store in disk sqlite; do
  if [ $store = disk ]; then pick=(); else pick=(--config sqlite.toml); fi
  expect "$store: empty stats" 0 "entries +0" -- "$plexus" cache stats "${pick[@]}"
  expect "$store: compile fills the cache" 0 "wrote " -- "$plexus" compile k.cl "${pick[@]}" -- -DN=1
  expect "$store: a second compile hits" 0 "wrote " -- "$plexus" compile k.cl "${pick[@]}" -- -DN=1
  expect "$store: stats counts the entries and the hit" 0 "entries +3.*" -- "$plexus" cache stats "${pick[@]}"
  expect "$store: stats shows lifetime hits" 0 "lifetime hits +[1-9]" -- "$plexus" cache stats "${pick[@]}"
  expect "$store: stats names the store" 0 "store +cache/$store" -- "$plexus" cache stats "${pick[@]}"
  expect "$store: ls lists both levels" 0 "frontend/spir64.*binary/spirv|binary/spirv.*frontend/spir64" -- \
    sh -c "\"$plexus\" cache ls ${pick[*]} | tr '\n' ' '"
  # frontend bitcode, binary, and compiler/clang's direct-mode manifest
  expect "$store: ls counts" 0 "^3 entries$" -- "$plexus" cache ls "${pick[@]}"
  id=$("$plexus" cache ls "${pick[@]}" | awk 'NR == 2 { print substr($1, 1, 8) }')
  expect "$store: show by id prefix" 0 "^id: +$id[0-9a-f]{56}$" -- "$plexus" cache show "$id" "${pick[@]}"
  expect "$store: show prints the key" 0 "build options: +.*" -- "$plexus" cache show "$id" "${pick[@]}"
  expect "$store: show with an unknown prefix finds nothing (a failure, exit 1)" 1 "no cache entry has an id or image starting with 'zzzz'" -- \
    "$plexus" cache show zzzz "${pick[@]}"
  expect "$store: verify passes" 0 "checked 3 entries: 3 good, 0 problems" -- "$plexus" cache verify "${pick[@]}"
  # Damage one entry's value behind the store's back.
  if [ $store = disk ]; then
    bin=$(find "$PLEXUS_CACHE_DIR" -name '*.bin' | head -1)
    printf 'XXXXXXXX' | dd of="$bin" bs=1 seek=100 conv=notrunc status=none
  else
    sqlite3 "$work/db/cache.sqlite" \
      "UPDATE entries SET value = substr(value, 1, 99) || x'5858585858' || substr(value, 105) WHERE id = (SELECT min(id) FROM entries)" \
      2>/dev/null || python3 -c "
import sqlite3; c = sqlite3.connect('$work/db/cache.sqlite')
c.execute(\"UPDATE entries SET value = substr(value, 1, 99) || x'5858585858' || substr(value, 105) WHERE id = (SELECT min(id) FROM entries)\")
c.commit()"
  fi
  expect "$store: verify finds, removes and reports the damage" 1 "removed .*checksum mismatch" -- \
    "$plexus" cache verify "${pick[@]}"
  expect "$store: the good entries remain" 0 "checked 2 entries: 2 good, 0 problems" -- "$plexus" cache verify "${pick[@]}"
  expect "$store: compile again refills" 0 "wrote " -- "$plexus" compile k.cl "${pick[@]}" -- -DN=1
  expect "$store: prune by age keeps recent entries" 0 "removed 0 entries .*[1-9] entries .* remain" -- \
    "$plexus" cache prune --max-age 1 "${pick[@]}"
  expect "$store: prune by size" 0 "removed [1-9] entries .*; 0 entries \(0 B\) remain" -- \
    "$plexus" cache prune --max-size 0 "${pick[@]}"
  expect "$store: compile once more" 0 "wrote " -- "$plexus" compile k.cl "${pick[@]}" -- -DN=2
  expect "$store: clear" 0 "removed 3 entries" -- "$plexus" cache clear "${pick[@]}"
  expect "$store: empty after clear" 0 "^0 entries$" -- "$plexus" cache ls "${pick[@]}"
done

expect "memory store: --store picks it, empty in a fresh process" 0 "store +cache/memory" -- \
  "$plexus" cache stats --store memory
expect "memory store: ls" 0 "^0 entries$" -- "$plexus" cache ls --store memory
expect "memory store: verify" 0 "checked 0 entries" -- "$plexus" cache verify --store memory
expect "PLEXUS_CACHE picks the store" 0 "store +cache/memory" -- env PLEXUS_CACHE=memory "$plexus" cache stats

mkdir -p shared && chmod 0770 shared
expect "a cache root its group may write is refused" 1 "shared' is writable by its group .*chmod go-w" -- \
  env PLEXUS_CACHE_DIR="$work/shared" "$plexus" cache stats
expect "the root is created private" 0 "^drwx------" -- sh -c "ls -ld \"$PLEXUS_CACHE_DIR\""

report
