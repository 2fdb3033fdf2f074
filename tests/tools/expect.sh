# Sourced by the tool test scripts. Counts in $total and $failures.
#
# expect NAME EXPECTED_EXIT PATTERN -- COMMAND...: runs COMMAND, checks its exit code and
# that its output (stdout and stderr) matches the extended regex PATTERN.
failures=0
total=0

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

# The closing line CTest and CI read; the exit status of the script.
report() {
  echo "$((total - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ]
}
