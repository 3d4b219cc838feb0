#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make test's runner: runs COMMAND (the test build, Tests/run-suites.py or a `swift test`) with
# its whole output in LOG and prints what a reader needs. Passed: one line of counts. Failed:
# every line of the output but the progress ones (`[12/300] Compiling …`, Swift Testing's
# "started" and "passed"), so each failure keeps all its details and a build error all its
# context, then the counts. Meanwhile, a line of progress every QUIET_RUN_EVERY seconds (default
# 20). VERBOSE=1 streams the whole output as it comes instead. Exits with COMMAND's status.
#   Tests/quiet-run.sh LOG LABEL COMMAND [ARGUMENT...]     (LABEL names the run in what it prints)
# QUIET_RUN_EVENTS=PATH: COMMAND writes Swift Testing's event streams there (a folder of them from
# Tests/run-suites.py, or one file); then the progress counts the tests done of all and names
# the tests running with their time so far, and the end lists the QUIET_RUN_SLOWEST (default 20)
# tests that took longest (Tests/test-events.py).
set -u
log=$1 label=$2
shift 2
events=${QUIET_RUN_EVENTS:-}
every=${QUIET_RUN_EVERY:-20}
slowest_count=${QUIET_RUN_SLOWEST:-20}
# The settings are this script's: a quiet-run.sh that COMMAND runs (MakefileTests) gets its own.
unset QUIET_RUN_EVENTS QUIET_RUN_EVERY QUIET_RUN_SLOWEST
helper="$(dirname "$0")/test-events.py"
# The event stream is read only when python3 can read it (make test-deps installs python3).
[ -n "$events" ] && command -v python3 >/dev/null 2>&1 && [ -f "$helper" ] || events=""
mkdir -p "$(dirname "$log")"
echo "$label: running $* (whole output: $log)"
if [ -n "${VERBOSE:-}" ]; then
  { "$@" 2>&1; echo $? > "$log.status"; } | tee "$log"
  status=$(cat "$log.status")
  rm -f "$log.status"
else
  # A line of progress every QUIET_RUN_EVERY seconds, so that a long run is not taken for a hung
  # one: the build's step, then the tests done and failed so far and the ones running. The
  # command runs in the foreground, where Ctrl-C reaches it; the progress loop, in the
  # background, stops when the command ends or this script is gone.
  (
    start=$(date +%s) next=$every
    # This script is alive while /proc has it, and not as a zombie (not yet reaped).
    while read -r _ _ state _ < /proc/$$/stat 2>/dev/null && [ "$state" != Z ]; do
      sleep 1
      waited=$(($(date +%s) - start))
      [ "$waited" -ge "$next" ] || continue
      next=$((next + every))
      if [ -n "$events" ] && [ -e "$events" ]; then
        echo "$label: $waited s: $(python3 "$helper" progress "$events" 2>/dev/null)"
      elif grep -q -E '^◇ Test run started' "$log"; then
        echo "$label: $waited s: $(grep -E '^✔ Test ' "$log" | grep -c -v -E '^✔ Test run with ') passed," \
             "$(grep -E '^✘ Test .* failed after ' "$log" | grep -c -v -E '^✘ Test run with ') failed so far"
      else
        # "[77/84] Compiling ISBNScanCLITests A.swift, …": the step and what it builds (one
        # module can take minutes in an optimised build).
        last=$(grep -E '^\[[0-9]+/[0-9]+\] ' "$log" | tail -1)
        step=$(printf '%s' "$last" | sed -E 's/^\[([0-9]+\/[0-9]+)\] ([A-Za-z]+ [^ ,]+).*/\1: \2/')
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
slowest=""
[ -z "$events" ] || [ ! -e "$events" ] || slowest=$(python3 "$helper" slowest "$events" "$slowest_count")
if [ -n "$slowest" ]; then
  echo "$label: the slowest tests (seconds each ran; $events):"
  echo "$slowest"
fi
if [ -n "$run" ]; then
  echo "$label: $passed passed, $failed failed, $skipped skipped (${run#* Test run with })"
elif [ "$status" -eq 0 ] && ! grep -q -E '^◇ Test run started' "$log"; then
  echo "$label: done (whole output: $log)"
else
  echo "$label: no test ran (exit status $status); the output above, whole in $log"
fi
exit "$status"
