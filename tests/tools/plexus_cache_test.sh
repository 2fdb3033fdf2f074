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
expect "a cache root its group may write is not used, with a warning" 0 "shared' is writable by its group .*chmod go-w.*in-memory cache" -- \
  env PLEXUS_CACHE_DIR="$work/shared" "$plexus" cache stats
expect "... and a compile goes on" 0 "wrote " -- env PLEXUS_CACHE_DIR="$work/shared" "$plexus" compile k.cl -- -DN=1
expect "... and clear says why it cannot, without 'removed'" 1 "error.*cannot clear .*writable by its group" -- \
  env PLEXUS_CACHE_DIR="$work/shared" "$plexus" cache clear
expect "... nothing was written there" 0 "^0$" -- sh -c "find \"$work/shared\" -mindepth 1 | wc -l"
expect "the root is created private" 0 "^drwx------" -- sh -c "ls -ld \"$PLEXUS_CACHE_DIR\""
expect "the root is tagged (CACHEDIR.TAG)" 0 "^Signature: 8a477f597d28d172789f06886806bc55" -- \
  cat "$PLEXUS_CACHE_DIR/CACHEDIR.TAG"

# A cache directory that is somebody's home: nothing written, removed or cleared there.
mkdir -p home/Documents/empty home/$(printf 'a%.0s' {1..32})/$(printf 'b%.0s' {1..32})
echo "mine" > home/notes.txt
echo "not an entry" > home/$(printf 'a%.0s' {1..32})/$(printf 'b%.0s' {1..32})/0.bin
chmod 0700 home
listing() { (cd "$work/home" && find . -printf '%p %s %T@\n' | sort); }
before=$(listing)
expect "home: a compile goes on with a warning" 0 "not created by Plexus and holds other files.*CACHEDIR.TAG" -- \
  env PLEXUS_CACHE_DIR="$work/home" "$plexus" compile k.cl -- -DN=1
expect "home: stats works read-only" 0 "mode +read-only" -- env PLEXUS_CACHE_DIR="$work/home" "$plexus" cache stats
expect "home: ls works read-only" 0 "^0 entries$" -- env PLEXUS_CACHE_DIR="$work/home" "$plexus" cache ls
expect "home: clear refuses, and prints no 'removed'" 1 "error.*cannot clear .*not created by Plexus" -- \
  env PLEXUS_CACHE_DIR="$work/home" "$plexus" cache clear
expect "home: clear's output has no 'removed'" 0 "^0$" -- \
  sh -c "env PLEXUS_CACHE_DIR=\"$work/home\" \"$plexus\" cache clear 2>&1 | grep -c '^removed' || true"
expect "home: prune refuses" 1 "cannot prune" -- env PLEXUS_CACHE_DIR="$work/home" "$plexus" cache prune --max-age 0
expect "home: nothing changed" 0 "^same$" -- sh -c "[ \"\$(cd \"$work/home\" && find . -printf '%p %s %T@\\n' | sort)\" = \"$before\" ] && echo same"

# An uncreatable cache directory (below a regular file: fails for root too).
echo "a file" > plain-file
expect "uncreatable: a compile goes on with a warning" 0 "cannot create .*plain-file/cache.*in-memory cache" -- \
  env PLEXUS_CACHE_DIR="$work/plain-file/cache" "$plexus" compile k.cl -- -DN=1
expect "uncreatable: stats works" 0 "mode +in memory only" -- \
  env PLEXUS_CACHE_DIR="$work/plain-file/cache" "$plexus" cache stats

# A cache that cannot be written (every write of data fails: RLIMIT_FSIZE = 0, for root
# too): stats and ls read it; a compile goes on.
"$plexus" compile k.cl -- -DN=3 >/dev/null 2>&1
unwritable() { (trap '' XFSZ; ulimit -f 0; "$@"); }
expect "unwritable: stats works read-only" 0 "entries +[1-9]" -- unwritable "$plexus" cache stats
expect "unwritable: ls works read-only" 0 "^[1-9][0-9]* entries$" -- unwritable "$plexus" cache ls
expect "unwritable: a compile goes on with one warning" 0 "wrote " -- \
  unwritable "$plexus" compile k.cl -o /dev/null -- -DN=4

# A FIFO in place of an entry: compile and verify neither hang nor fail.
"$plexus" cache clear >/dev/null
"$plexus" compile k.cl -- -DN=5 >/dev/null 2>&1
for bin in $(find "$PLEXUS_CACHE_DIR" -name '*.bin'); do rm "$bin" && mkfifo "$bin"; done
expect "FIFO entries: compile does not hang" 0 "wrote " -- timeout 60 "$plexus" compile k.cl -- -DN=5
for bin in $(find "$PLEXUS_CACHE_DIR" -name '*.bin'); do rm "$bin" && mkfifo "$bin"; done
expect "FIFO entries: verify does not hang, reports them" 1 "FIFO" -- timeout 60 "$plexus" cache verify
"$plexus" compile k.cl -- -DN=6 >/dev/null 2>&1
mkdir -p "$(dirname "$(find "$PLEXUS_CACHE_DIR" -name '*.src' | head -1)")/9.bin"
expect "a directory entry: verify does not fail" 1 "directory in place of an entry" -- timeout 60 "$plexus" cache verify

report
