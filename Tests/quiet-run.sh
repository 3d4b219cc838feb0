#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test's runner: runs COMMAND (a `swift test`) with its whole output in LOG and prints what
# a reader needs. Passed: one line of counts. Failed: every line of the output but the progress
# ones (`[12/300] Compiling …`, Swift Testing's "started" and "passed"), so each failure keeps
# all its details and a build error all its context, then the counts. VERBOSE=1 also streams
# the whole output as it comes. Exits with COMMAND's status.
#   Tests/quiet-run.sh LOG LABEL COMMAND [ARGUMENT...]     (LABEL names the run in what it prints)
set -u
log=$1 label=$2
shift 2
mkdir -p "$(dirname "$log")"
echo "$label: running $* (whole output: $log)"
if [ -n "${VERBOSE:-}" ]; then
  { "$@" 2>&1; echo $? > "$log.status"; } | tee "$log"
  status=$(cat "$log.status")
  rm -f "$log.status"
else
  "$@" > "$log" 2>&1
  status=$?
fi

# Swift Testing's lines: "✔ Test name() passed after …", "✘ Test name() failed after …",
# "➜ Test name() skipped…"; a parameterised test counts once. XCTest's "Executed 0 tests" is the
# XCTest runner finding no XCTest case (the suites use Swift Testing).
passed=$(grep -E '^✔ Test ' "$log" | grep -c -v -E '^✔ Test run with ')
failed=$(grep -E '^✘ Test .* failed after ' "$log" | grep -c -v -E '^✘ Test run with ')
skipped=$(grep -c -E '^➜ Test .* skipped' "$log")
run=$(grep -E '^(✔|✘) Test run with ' "$log" | tail -1)

if [ "$status" -ne 0 ] && [ -z "${VERBOSE:-}" ]; then
  grep -v -E '^\[[0-9]+/[0-9]+\] |^◇ |^✔ |^↳ (Testing Library Version|Target Platform)|^Test Suite .* (started|passed) at |^[[:space:]]+Executed 0 tests' "$log"
fi
if [ -n "$run" ]; then
  echo "$label: $passed passed, $failed failed, $skipped skipped (${run#* Test run with })"
else
  echo "$label: no test ran (exit status $status); the output above, whole in $log"
fi
exit "$status"
