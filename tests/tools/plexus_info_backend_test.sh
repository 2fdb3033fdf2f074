#!/usr/bin/env bash
# `plexus info` on a backend whose hardware may be missing here (level_zero, hip): it is
# listed, and either available with its devices or unavailable with the reason its loader
# or runtime gave (or, without a device node, the reason it was not loaded), matching
# UNAVAILABLE_PATTERN (an extended regex).
# usage: plexus_info_backend_test.sh PLEXUS_BINARY BACKEND UNAVAILABLE_PATTERN
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plexus=$1 backend=$2 unavailable=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset PLEXUS_CONFIG PLEXUS_SCHEDULER PLEXUS_PLUGIN_PATH PLEXUS_LOG_LEVEL
export XDG_CONFIG_HOME=$work/xdg XDG_CONFIG_DIRS=$work/system PLEXUS_CACHE_DIR=$work/cache
source "$here/expect.sh"

out=$(PLEXUS_BACKENDS=host,$backend "$plexus" info 2>&1)
if grep -Eq "^  $backend [0-9.]+: available" <<<"$out"; then
  expect "info lists the $backend devices" 0 "^  $backend [0-9.]+: available.*device" -- \
    env PLEXUS_BACKENDS=host,$backend "$plexus" info
  expect "... and what they load" 0 "loads: " -- env PLEXUS_BACKENDS=host,$backend "$plexus" info
else
  expect "info says why $backend is unavailable" 0 \
    "^  $backend [0-9.]+: unavailable \(.*$unavailable" -- \
    env PLEXUS_BACKENDS=host,$backend "$plexus" info
fi
# The backend's own reason, whatever this machine has: a library that does not exist.
mkdir -p conf
printf '[backends]\nuse = ["host", "%s"]\n[backends.%s]\nlibrary = "/nonexistent/lib%s.so"\n%s\n' \
  "$backend" "$backend" "$backend" "device_node_check = false" > conf/missing.toml
expect "info names a $backend library that does not exist" 0 \
  "^  $backend [0-9.]+: unavailable \(.*/nonexistent/lib$backend\.so.*No such file" -- \
  "$plexus" info --config conf/missing.toml
report
