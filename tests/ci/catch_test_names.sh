#!/usr/bin/env bash
# CTest registers each Catch2 test case under its name (catch_discover_tests), and CMake
# splits a name at each ';' (its list separator): the parts are two CTest tests that match no
# test case, so the case never runs and CTest reports two passes (eight cases were lost that
# way). Fails naming every TEST_CASE of tests/ whose name has a ';'.
# Usage: catch_test_names.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: catch_test_names.sh SOURCE_DIR}
# Each TEST_CASE( with its name's string literals (split over lines or not), one per record.
found=$(grep -rPzo --include='*.cpp' 'TEST_CASE\((\s*"([^"\\]|\\.)*")+' "$root/tests" |
          tr '\n\0' ' \n' | grep ';' || true)
if [ -n "$found" ]; then
  echo "test case names with ';' (CTest splits them and they never run; use ',' instead):"
  echo "$found"
  exit 1
fi
echo "ok: no test case name has a ';'"
