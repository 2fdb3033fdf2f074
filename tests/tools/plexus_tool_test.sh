#!/usr/bin/env bash
# Behaviour of the `plexus` tool as a user meets it: output, exit codes and error messages.
# usage: plexus_tool_test.sh PLEXUS_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plexus=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset PLEXUS_CONFIG PLEXUS_SCHEDULER PLEXUS_BACKENDS PLEXUS_PLUGIN_PATH PLEXUS_LOG_LEVEL
export XDG_CONFIG_HOME=$work/xdg XDG_CONFIG_DIRS=$work/system
export PLEXUS_CACHE_DIR=$work/cache   # the default config keeps a disk cache
source "$here/expect.sh"

expect "help lists the commands" 0 "plugins +list plugins" -- "$plexus" help
expect "no command is a usage error" 2 "usage: plexus" -- "$plexus"
expect "unknown command" 2 "unknown command 'frobnicate'" -- "$plexus" frobnicate
expect "info --help" 0 "usage: plexus info" -- "$plexus" info --help
expect "info -h prints the help" 0 "usage: plexus info" -- "$plexus" info -h
expect "help ab shows ab's help" 0 "usage: plexus ab" -- "$plexus" help ab
expect "help of an unknown command" 2 "no command 'frob' to show help for" -- "$plexus" help frob
expect "plugins --help" 0 "usage: plexus plugins" -- "$plexus" plugins --help
expect "unknown option" 2 "unknown option --colour" -- "$plexus" info --colour
expect "--version" 0 "^plexus [0-9]+\.[0-9]+\.[0-9]+" -- "$plexus" --version

expect "info on the built-in default" 0 "Config: <built-in default> \(built-in default\)" -- "$plexus" info
expect "info shows the dag scheduler (the built-in default) found and selected" 0 \
  "scheduler +dag +[0-9.]+ +/.*libplexus_scheduler_dag\.so" -- "$plexus" info
expect "info shows the host backend's device" 0 "host [0-9.]+: available" -- "$plexus" info
expect "info shows the code format each device loads" 0 \
  "loads: llvm-bitcode \(formats, most preferred first: llvm-bitcode\)" -- "$plexus" info
abi=$(sed -n 's/^#define PLEXUS_PLUGIN_ABI_TOKEN \([0-9]*\)$/\1/p' "$here/../../core/include/plexus/plugin_abi.h")
expect "plugins lists without loading" 0 "scheduler +inorder +$abi +build tree" -- "$plexus" plugins

cat > ok.toml <<'TOML'
[backends]
use = ["host"]
[scheduler]
use = "inorder"
TOML
expect "info --config names the file" 0 "Config: .*ok\.toml \(given explicitly\)" -- \
  "$plexus" info --config ok.toml
expect "info: a file that sets some keys leaves the others to the built-in default" 0 \
  "memory +paged" -- "$plexus" info --config ok.toml
expect "info: a value from the file says its file, line and column" 0 \
  "scheduler\.use +\"inorder\" +.*ok\.toml:4:7" -- "$plexus" info --config ok.toml
expect "info: a value from the built-in default says so" 0 \
  "memory\.use +\"paged\" +<built-in default>:[0-9]+:[0-9]+" -- "$plexus" info --config ok.toml
printf '[scheduler]\nuse = "inorder"\n' > scheduler-only.toml
expect "info: a project file with one key still has the built-in default's devices" 0 \
  "host [0-9.]+: available" -- "$plexus" info --config scheduler-only.toml
expect "info: ... and its compiler" 0 "compiler\.use +\"clang\" +<built-in default>" -- \
  "$plexus" info --config scheduler-only.toml
mkdir -p system/plexus
printf '[memory]\nuse = "exact"\n' > system/plexus/plexus.toml
expect "info lists the layers, a system file among them" 0 \
  "system/plexus/plexus\.toml \(system config directory\)" -- "$plexus" info --config ok.toml
expect "info: a system file's value, with its file and line" 0 \
  "memory\.use +\"exact\" +.*system/plexus/plexus\.toml:2:7" -- "$plexus" info --config ok.toml
rm -r system
printf '[config]\nbase = "none"\n[scheduler]\nuse = "inorder"\n' > nothing.toml
expect "info: base = none starts from nothing: no device is an error" 1 \
  "error: no device is available" -- "$plexus" info --config nothing.toml
expect "info: PLEXUS_SCHEDULER is blamed for its value" 1 \
  "PLEXUS_SCHEDULER=bogus: scheduler 'bogus' is not installed" -- \
  env PLEXUS_SCHEDULER=bogus "$plexus" info --config ok.toml
expect "info: a typo in a name gets a suggestion and a position" 1 \
  "typo-name\.toml:2:7: scheduler 'inordre' is not installed \(did you mean 'inorder'\?\)" -- \
  sh -c "printf '[scheduler]\nuse = \"inordre\"\n' > typo-name.toml; '$plexus' info --config typo-name.toml"
expect "info: a backend typo is an error with a suggestion, even with skip_missing" 1 \
  "backend 'cdua' is not installed \(did you mean 'cuda'\?\)" -- \
  env PLEXUS_BACKENDS=host,cdua "$plexus" info
printf '[scheduler]\nuse = "inorder"\n[scheduler.inorder]\nwrokers = 4\n' > typo-option.toml
expect "info: a warning is printed once" 0 "^1$" -- \
  sh -c "'$plexus' info --config typo-option.toml 2>&1 | grep -c 'wrokers is not an option'"
expect "info: an unknown PLEXUS_ variable is a warning with a suggestion" 0 \
  "PLEXUS_SHEDULER is not one Plexus reads \(ignored\); did you mean PLEXUS_SCHEDULER\?" -- \
  env PLEXUS_SHEDULER=heft "$plexus" info --config ok.toml
expect "PLEXUS_SCHEDULER override is shown" 1 "override: PLEXUS_SCHEDULER=nosuch" -- \
  env PLEXUS_SCHEDULER=nosuch "$plexus" info --config ok.toml
expect "unknown scheduler lists the available ones" 1 \
  "scheduler 'nosuch' is not installed; available: dag, heft, inorder" -- \
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
expect "compile -h prints the help" 0 "usage: plexus compile" -- "$plexus" compile -h
expect "compile -o - writes the binary to standard output" 0 "^03 02 23 07 ok$" -- \
  sh -c "'$plexus' compile src/saxpy.cl -o - -- -DOFFSET=0 2>/dev/null | od -An -tx1 -N4 | sed 's/^ //' | tr -d '\n'; \
    [ ! -e ./- ] && [ ! -e src/- ] && echo ' ok'"
expect "compile -o - says where it wrote on stderr" 0 "wrote standard output" -- \
  sh -c "'$plexus' compile src/saxpy.cl -o - -- -DOFFSET=0 2>&1 >/dev/null"
expect "compile of a directory says so" 1 "'.*src' is a directory, not a file" -- "$plexus" compile src
printf '\x10\xff\x10\xadrest of a wrapped syclbin' > prebuilt.syclbin
expect "compile of a SYCLBIN file says what it is" 1 \
  "prebuilt\.syclbin is a SYCLBIN file .*plexus syclbin dump prebuilt\.syclbin" -- \
  "$plexus" compile prebuilt.syclbin
printf 'abc\0\1\2' > binary.cl
expect "compile of a binary file says so instead of printing its bytes" 1 \
  "binary\.cl is a binary file, not OpenCL C source" -- "$plexus" compile binary.cl
printf 'float helper(float x) { return x * 2.0f; }\n' > src/nokernels.cl
expect "a file with no kernels is reported" 1 "nokernels\.cl defines no kernels" -- \
  "$plexus" compile src/nokernels.cl
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

# plexus syclbin and plexus compile --syclbin
expect "syclbin --help" 0 "usage: plexus syclbin dump FILE" -- "$plexus" syclbin --help
printf 'native code' > native.bin
expect "syclbin create from a SPIR-V file and a native image" 0 \
  "wrote made\.syclbin \([0-9]+ bytes, SYCLBIN, state object: 1 IR modules, 1 native images\)" -- \
  "$plexus" syclbin create -o made.syclbin --state object --kernel saxpy --kernel other \
  --ir spirv:spir64-unknown-unknown:src/saxpy.spv --native sm_80:native.bin
expect "syclbin dump: state, kernels, each image's type, target and size" 0 \
  "State: object.*SYCL/kernel names:.*saxpy: 1.*other: 1.*IR module 0: SPIR-V, target spir64-unknown-unknown, [0-9]+ bytes at byte [0-9]+.*Native device code image 0: arch sm_80, target nvptx64-nvidia-cuda, 11 bytes" -- \
  sh -c "'$plexus' syclbin dump made.syclbin | tr '\n' ' '"
expect "syclbin dump says the file is wrapped" 0 "in an OffloadBinary" -- "$plexus" syclbin dump made.syclbin
expect "syclbin create --bare" 0 "wrote bare\.syclbin" -- \
  "$plexus" syclbin create --bare -o bare.syclbin --ir ptx:nvptx64-nvidia-cuda:out.ptx
expect "a bare file dumps too" 0 "bare\).*IR module 0: PTX, target nvptx64-nvidia-cuda" -- \
  sh -c "'$plexus' syclbin dump bare.syclbin | tr '\n' ' '"
expect "syclbin extract gives back the same bytes" 0 "" -- \
  sh -c "'$plexus' syclbin extract made.syclbin --ir 0 -o back.spv && cmp back.spv src/saxpy.spv"
expect "syclbin extract -o - writes to standard output" 0 "" -- \
  sh -c "'$plexus' syclbin extract made.syclbin --ir 0 -o - 2>/dev/null | cmp - src/saxpy.spv"
expect "syclbin create: a mistake in the command line exits 2" 2 "needs -o OUT" -- \
  "$plexus" syclbin create --ir spirv:x:src/saxpy.spv
expect "syclbin create: an unknown IR type" 2 "unknown IR type 'dxil'" -- \
  "$plexus" syclbin create -o x.syclbin --ir dxil:x:native.bin
head -c 100 made.syclbin > cut.syclbin
expect "syclbin dump of a truncated file says what is wrong (a failure: exit 1)" 1 \
  "cut\.syclbin: OffloadBinary wrapper: size field [0-9]+ \(at byte 8\) does not fit the 100-byte file" -- \
  "$plexus" syclbin dump cut.syclbin
expect "syclbin dump of a file that is no SYCLBIN" 1 "src/saxpy.spv: malformed SYCLBIN: bad magic 03 02 23 07" -- \
  "$plexus" syclbin dump src/saxpy.spv
expect "compile --syclbin with three targets" 0 \
  "wrote .*src/saxpy\.syclbin \([0-9]+ bytes, SYCLBIN: spirv, ptx, host; kernels: saxpy, other\)" -- \
  "$plexus" compile src/saxpy.cl --syclbin --target spirv --target ptx --target host -- -DOFFSET=1.0f
expect "its dump lists the three IR modules and the kernels" 0 \
  "State: executable.*saxpy: 1.*other: 1.*Number of IR modules: 3.*IR module 0: SPIR-V, target spir64-unknown-unknown.*IR module 1: PTX, target nvptx64-nvidia-cuda.*IR module 2: LLVM bitcode, target x86_64" -- \
  sh -c "'$plexus' syclbin dump src/saxpy.syclbin | tr '\n' ' '"
expect "syclbin plan: the host device runs the host bitcode as it is" 0 \
  "device '.*' \(x86_64\):  *abstract module 0: IR module 2 \(LLVM bitcode, x86_64[^)]*\): the device loads llvm-bitcode as it is" -- \
  sh -c "'$plexus' syclbin plan src/saxpy.syclbin | tr '\n' ' '"
expect "syclbin plan --load loads it and lists the kernels" 0 "kernels: saxpy other" -- \
  "$plexus" syclbin plan src/saxpy.syclbin --load
expect "syclbin plan: a PTX-only file fits no host device" 1 \
  "no fit: no image of abstract module 0 fits: the device loads llvm-bitcode" -- \
  "$plexus" syclbin plan bare.syclbin
expect "the SPIR-V image extracted from it is valid" 0 "" -- \
  sh -c "'$plexus' syclbin extract src/saxpy.syclbin --ir 0 -o from_syclbin.spv && spirv-val --target-env opencl2.0 from_syclbin.spv"
expect "compile --syclbin with amdgcn makes a native image" 0 "SYCLBIN: amdgcn;" -- \
  "$plexus" compile src/saxpy.cl --syclbin --target amdgcn --arch gfx90a -o amd.syclbin -- -DOFFSET=0
expect "the amdgcn image is a native image for its arch" 0 "Native device code image 0: arch gfx90a, target amdgcn-amd-amdhsa" -- \
  "$plexus" syclbin dump amd.syclbin
expect "compile --syclbin refuses a target given twice" 2 "--target ptx is given twice" -- \
  "$plexus" compile src/saxpy.cl --syclbin --target ptx --target ptx

report
