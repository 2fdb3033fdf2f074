# Sourced by scripts/test.sh, scripts/sanitize.sh and .ci/run: `phase NAME COMMAND...` runs
# COMMAND and prints how long it took: wall seconds, the CPU seconds of the processes it ran
# (user + system, from bash's `times`: on a shared machine the figure that does not depend on
# the others' load) and the load average when it ended. With PLEXUS_PHASE_LOG set, the line
# is also appended to that file (.ci/run prints the file as CI's breakdown). COMMAND's exit
# status is returned; a failed phase is logged too, marked FAILED.

# The CPU seconds used so far by this shell's finished children (user + system: cutime and
# cstime of /proc/<pid>/stat, fields 16 and 17, in clock ticks; $$ is this shell even where
# the read runs in a subshell).
phase_child_cpu() {
  local fields
  read -r -a fields <"/proc/$$/stat"
  echo $(((fields[15] + fields[16]) / $(getconf CLK_TCK)))
}

phase() {
  local name=$1 start=$SECONDS cpu_before cpu_after status=0 line
  shift
  cpu_before=$(phase_child_cpu)
  "$@" || status=$?
  cpu_after=$(phase_child_cpu)
  line=$(printf '%-14s %5d s wall %6d CPU s  load %s' "$name" "$((SECONDS - start))" \
           "$((cpu_after - cpu_before))" "$(cut -d' ' -f1-3 /proc/loadavg)")
  [ "$status" -eq 0 ] || line="$line  FAILED (exit status $status)"
  echo "phase: $line"
  if [ -n "${PLEXUS_PHASE_LOG:-}" ]; then echo "$line" >>"$PLEXUS_PHASE_LOG"; fi
  return "$status"
}
