#!/usr/bin/env bash
# Behaviour of the `plexus` tool as a user meets it: output, exit codes and error messages.
# usage: plexus_tool_test.sh PLEXUS_BINARY
set -uo pipefail
plexus=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset PLEXUS_CONFIG PLEXUS_SCHEDULER PLEXUS_BACKENDS PLEXUS_PLUGIN_PATH PLEXUS_LOG_LEVEL
export XDG_CONFIG_HOME=$work/xdg
export PLEXUS_CACHE_DIR=$work/cache   # the default config keeps a disk cache
failures=0
total=0

# expect NAME EXPECTED_EXIT PATTERN -- COMMAND...: runs COMMAND, checks its exit code and
# that its output (stdout and stderr) matches the extended regex PATTERN.
expect() {
  local name=$1 want=$2 pattern=$3
  shift 4
  local out rc
  total=$((total + 1))
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL: $name (exit $rc, wanted $want; pattern: $pattern)"
    echo "$out" | sed 's/^/    /' | head -40
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

expect "help lists the commands" 0 "plugins +list plugins" -- "$plexus" help
expect "no command is a usage error" 2 "usage: plexus" -- "$plexus"
expect "unknown command" 2 "unknown command 'frobnicate'" -- "$plexus" frobnicate
expect "info --help" 0 "usage: plexus info" -- "$plexus" info --help
expect "plugins --help" 0 "usage: plexus plugins" -- "$plexus" plugins --help
expect "unknown option" 2 "unknown option --colour" -- "$plexus" info --colour
expect "--version" 0 "^plexus [0-9]+\.[0-9]+\.[0-9]+" -- "$plexus" --version

expect "info on the built-in default" 0 "Config: <built-in default> \(built-in default\)" -- "$plexus" info
expect "info shows the inorder scheduler found and selected" 0 \
  "scheduler +inorder +[0-9.]+ +/.*libplexus_scheduler_inorder\.so" -- "$plexus" info
expect "info shows the host backend's device" 0 "host [0-9.]+: available" -- "$plexus" info
expect "plugins lists without loading" 0 "scheduler +inorder +1 +build tree" -- "$plexus" plugins

cat > ok.toml <<'TOML'
[backends]
use = ["host"]
[scheduler]
use = "inorder"
TOML
expect "info --config names the file" 0 "Config: .*ok\.toml \(given explicitly\)" -- \
  "$plexus" info --config ok.toml
expect "PLEXUS_SCHEDULER override is shown" 1 "override: PLEXUS_SCHEDULER=nosuch" -- \
  env PLEXUS_SCHEDULER=nosuch "$plexus" info --config ok.toml
expect "unknown scheduler lists the available ones" 1 \
  "scheduler 'nosuch' is not installed; available: inorder" -- \
  env PLEXUS_SCHEDULER=nosuch "$plexus" info --config ok.toml

printf '[scheduler]\nuse = = "x"\n' > broken.toml
expect "malformed config: file, line and column" 1 "broken\.toml:2:[0-9]+: malformed TOML" -- \
  "$plexus" info --config broken.toml
expect "missing config file" 1 "cannot read config file 'missing\.toml': no such file" -- \
  "$plexus" info --config missing.toml

mkdir plugins
printf 'junk' > plugins/libplexus_backend_junk.so
expect "a corrupt plugin file is reported, the rest still listed" 0 \
  "libplexus_backend_junk\.so: too short.*" -- "$plexus" plugins --path plugins
expect "a corrupt plugin does not stop info" 0 "scheduler +inorder" -- \
  env PLEXUS_PLUGIN_PATH="$work/plugins" "$plexus" info --config ok.toml

# plexus compile, through the default config's compiler (clang, in process)
mkdir -p src
printf '#define SCALE(a) (2.0f * (a))\n' > src/scale.h
cat > src/saxpy.cl <<'CL'
#include "scale.h"
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = SCALE(a) * x[i] + y[i] + OFFSET;
}
__kernel void other(__global int* p) { p[0] = 1; }
CL
printf '__kernel void bad(__global int* p) {\n  p[0] = undefined_thing;\n}\n' > src/bad.cl
expect "compile --help" 0 "usage: plexus compile" -- "$plexus" compile --help
expect "compile to SPIR-V with an include beside the file and a -D option" 0 \
  "wrote .*src/saxpy\.spv \([0-9]+ bytes, spirv; kernels: saxpy, other\)" -- \
  "$plexus" compile src/saxpy.cl -- -DOFFSET=1.0f
expect "the SPIR-V it wrote is valid" 0 "" -- spirv-val --target-env opencl2.0 src/saxpy.spv
expect "compile to PTX keeping one kernel" 0 "wrote out\.ptx .*kernels: other\)" -- \
  "$plexus" compile src/saxpy.cl --target ptx --kernel other -o out.ptx -- -DOFFSET=0
expect "the PTX has only that kernel" 0 "^1$" -- sh -c "grep -c '.entry' out.ptx"
expect "a compile error is printed like a compiler's" 1 \
  "src/bad\.cl:2:10: error: use of undeclared identifier 'undefined_thing'" -- \
  "$plexus" compile src/bad.cl
expect "a missing macro is a compile error, not a crash" 1 "use of undeclared identifier 'OFFSET'" -- \
  "$plexus" compile src/saxpy.cl
expect "an unknown kernel lists the kernels" 1 "nope.*saxpy.*other" -- \
  "$plexus" compile src/saxpy.cl --kernel nope -- -DOFFSET=0
expect "an unknown target lists the targets" 2 "unknown target 'gpu' \(expected one of: spirv, spir-bc, ptx, amdgcn, host\)" -- \
  "$plexus" compile src/saxpy.cl --target gpu
expect "a missing input file" 1 "cannot read .*nothere\.cl" -- "$plexus" compile nothere.cl

echo "$((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
