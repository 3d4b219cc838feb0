#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test's runner: runs COMMAND (a `swift test`) with its whole output in LOG and prints what
# a reader needs. Passed: one line of counts. Failed: every line of the output but the progress
# ones (`[12/300] Compiling …`, Swift Testing's "started" and "passed"), so each failure keeps
# all its details and a build error all its context, then the counts. Meanwhile, a line of
# progress a minute. VERBOSE=1 streams the whole output as it comes instead. Exits with
# COMMAND's status.
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
  # A line of progress every QUIET_RUN_EVERY seconds (default 60), so that a long run is not
  # taken for a hung one: the build's step, then the tests passed and failed so far. The
  # command runs in the foreground, where Ctrl-C reaches it; the progress loop, in the
  # background, stops when the command ends or this script is gone.
  every=${QUIET_RUN_EVERY:-60}
  (
    waited=0
    # This script is alive while /proc has it, and not as a zombie (not yet reaped).
    while read -r _ _ state _ < /proc/$$/stat 2>/dev/null && [ "$state" != Z ]; do
      sleep 1
      waited=$((waited + 1))
      [ $((waited % every)) -eq 0 ] || continue
      if grep -q -E '^◇ Test run started' "$log"; then
        echo "$label: $waited s: $(grep -E '^✔ Test ' "$log" | grep -c -v -E '^✔ Test run with ') passed," \
             "$(grep -E '^✘ Test .* failed after ' "$log" | grep -c -v -E '^✘ Test run with ') failed so far"
      else
        step=$(grep -o -E '^\[[0-9]+/[0-9]+\]' "$log" | tail -1 | tr -d '[]')
        echo "$label: $waited s: building${step:+ (step $step)}"
      fi
    done
  ) &
  progress=$!
  "$@" > "$log" 2>&1
  status=$?
  kill "$progress" 2>/dev/null
  wait "$progress" 2>/dev/null
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
