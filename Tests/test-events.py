#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads the event stream of a Swift Testing run (JSON Lines, `swift test
--event-stream-output-path FILE --event-stream-version 0`) for make test's runner.

Usage:
  test-events.py progress EVENTS    one line: tests done of all, failed, and what runs now
  test-events.py slowest EVENTS N   the N tests that ran longest, one a line
  test-events.py suites EVENTS      seconds per suite and tests (tab-separated), longest first

EVENTS is one stream, or a folder of them (Tests/run-suites.py: one a suite, run with a width of
1, and plan.txt listing every test of the run). A stream's width is the run's
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH (unlimited when unset): at most that many test cases
run at once; the others wait in a first-in first-out queue (Swift Testing's Serializer). The stream
cannot tell when a test began to run: Swift Testing posts "testStarted" for every test when it
queues it (at the start of the run for most), and "testCaseStarted" only for the cases of
parameterised tests. So "passed after N seconds" counts the time a test waited for a slot, and
this script replays the queue instead: a test that is not parameterised starts when a slot frees
(a test or case ends) and it is the first still waiting, in the order of its "testStarted"; the
cases of a parameterised test start where the stream says. A test's time is the time its cases
held a slot (their sum, when they ran side by side). On a busy machine a slot is not a core.
The replay holds only while the events come when they happen: at a width of as many test cases
as the cooperative pool has threads (one a core), "testEnded" itself waits behind the next test
(Tests/run-suites.py says why), so only a width of 1, as in the folder form, gives true times.
"""
import collections
import json
import os
import sys
import time


def load(path):
    """The run's tests (id → record) and events (time order), from a stream perhaps still being
    written (a last line cut short is left out)."""
    tests, events = {}, []
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for line in stream:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                payload = record.get("payload", {})
                if record.get("kind") == "test":
                    tests[payload.get("id")] = payload
                elif record.get("kind") == "event":
                    events.append(payload)
    except OSError:
        pass
    events.sort(key=lambda event: event.get("instant", {}).get("absolute", 0))
    return tests, events


class Replay:
    """The run replayed through a queue of WIDTH slots: when each test held a slot, and what
    holds one at the end of the events read."""

    def __init__(self, tests, events, width):
        self.tests = tests
        self.width = max(1, width)
        self.held = collections.defaultdict(float)   # test id → seconds its cases held a slot
        self.cases = collections.Counter()           # test id → cases started (parameterised)
        self.ended, self.failed, self.skipped = set(), set(), set()
        self.running = {}                            # unit → (test id, start); unit: id or (id, n)
        self.first = self.last = None
        waiting = collections.deque()                # tests not parameterised, in queue order
        granted = []                                 # those given a slot, latest last

        def function(test_id):
            return self.tests.get(test_id, {}).get("kind") == "function"

        def parameterised(test_id):
            return self.tests.get(test_id, {}).get("isParameterized", False)

        def grant(now):
            while len(self.running) < self.width and waiting:
                test_id = waiting.popleft()
                self.running[test_id] = (test_id, now)
                granted.append(test_id)

        def release(unit, now):
            test_id, start = self.running.pop(unit)
            self.held[test_id] += max(0.0, now - start)

        for event in events:
            kind, test_id = event.get("kind"), event.get("testID")
            now = event.get("instant", {}).get("absolute", 0.0)
            if self.first is None:
                self.first = now
            self.last = now
            if kind == "testStarted" and function(test_id) and not parameterised(test_id):
                waiting.append(test_id)
                grant(now)
            elif kind == "testCaseStarted" and parameterised(test_id):
                self.cases[test_id] += 1
                if len(self.running) >= self.width:
                    # The slot went to this case: the latest test given one still waits.
                    taken = next((t for t in reversed(granted) if t in self.running), None)
                    if taken is not None:
                        self.running.pop(taken)
                        granted.remove(taken)
                        waiting.appendleft(taken)
                self.running[(test_id, self.cases[test_id])] = (test_id, now)
            elif kind == "testCaseEnded" and parameterised(test_id):
                unit = next((u for u in self.running if isinstance(u, tuple) and u[0] == test_id), None)
                if unit is not None:
                    release(unit, now)
                grant(now)
            elif kind == "issueRecorded" and test_id and not event.get("issue", {}).get("isKnown", False):
                self.failed.add(test_id)
            elif kind == "testSkipped" and function(test_id):
                self.skipped.add(test_id)
            elif kind == "testEnded" and function(test_id):
                self.ended.add(test_id)
                if not parameterised(test_id):
                    if test_id not in self.running and test_id in waiting:
                        # It ran although the replay kept it waiting: it had the latest slot given.
                        waiting.remove(test_id)
                        taken = next((t for t in reversed(granted) if t in self.running), None)
                        start = self.running.pop(taken)[1] if taken is not None else now
                        if taken is not None:
                            granted.remove(taken)
                            waiting.appendleft(taken)
                        self.running[test_id] = (test_id, start)
                    if test_id in self.running:
                        release(test_id, now)
                grant(now)

    def name(self, test_id):
        """ "Module.Suite/test()" without the source location."""
        parts = (test_id or "").split("/")
        if len(parts) > 2 and ".swift:" in parts[-1]:
            parts = parts[:-1]
        return "/".join(parts)

    def suite(self, test_id):
        return (test_id or "").split("/")[0]

    def functions(self):
        return [t for t, record in self.tests.items() if record.get("kind") == "function"]


def replays(path):
    """(tests, events, replay) for each stream at PATH, and the tests planned (None: unknown)."""
    if os.path.isdir(path):
        streams = sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(".jsonl"))
        width = 1
        try:
            with open(os.path.join(path, "plan.txt"), encoding="utf-8") as plan:
                planned = [line.strip() for line in plan if line.strip()]
        except OSError:
            planned = None
    else:
        streams = [path]
        width = int(os.environ.get("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH") or 1_000_000_000)
        planned = None
    result = []
    for stream in streams:
        tests, events = load(stream)
        result.append((tests, events, Replay(tests, events, width)))
    return result, planned


def progress(path):
    runs, planned = replays(path)
    done = failed = discovered = 0
    running = []
    now = time.time()
    for tests, events, replay in runs:
        discovered += len(replay.functions())
        done += len(replay.ended | replay.skipped)
        failed += len(replay.failed & set(replay.functions()))
        if not events or events[-1].get("kind") == "runEnded":
            continue
        # The stream's instants are on the monotonic clock ("absolute") and the wall clock
        # ("since1970"); the time running is counted on the wall clock from the last event.
        offset = now - events[-1].get("instant", {}).get("since1970", now)
        # One entry a test: the cases of a parameterised test that run side by side count once.
        started = {}
        for unit, (test_id, start) in replay.running.items():
            started[test_id] = min(start, started.get(test_id, start))
        for test_id, start in started.items():
            what = replay.name(test_id)
            if tests.get(test_id, {}).get("isParameterized"):
                count = len(tests.get(test_id, {}).get("_testCases") or []) or "?"
                what += f" (case {replay.cases[test_id]} of {count})"
            running.append((start - replay.last - offset, f"{what} {replay.last - start + offset:.0f} s"))
    if not runs or not any(events for _, events, _ in runs):
        return "no test has started yet"
    total = len(planned) if planned is not None else discovered
    line = f"{done} of {total} tests done, {failed} failed"
    if running:
        line += "; running " + ", ".join(text for _, text in sorted(running))
    return line


def slowest(path, count):
    runs, _ = replays(path)
    ranked = []
    for tests, events, replay in runs:
        for test_id, seconds in replay.held.items():
            ranked.append((seconds, test_id, replay))
    ranked.sort(key=lambda item: -item[0])
    lines = []
    for seconds, test_id, replay in ranked[:count]:
        cases = replay.cases.get(test_id)
        lines.append(f"{seconds:8.1f} s  {replay.name(test_id)}" + (f" ({cases} cases)" if cases else ""))
    return "\n".join(lines)


def suites(path):
    runs, _ = replays(path)
    per_suite = collections.defaultdict(float)
    count = collections.Counter()
    for tests, events, replay in runs:
        for test_id in replay.functions():
            per_suite[replay.suite(test_id)] += replay.held.get(test_id, 0.0)
            count[replay.suite(test_id)] += 1
    return "\n".join(f"{seconds:.1f}\t{count[suite]}\t{suite}"
                     for suite, seconds in sorted(per_suite.items(), key=lambda item: -item[1]))


def main(arguments):
    usage = "usage: test-events.py progress|slowest|suites EVENTS [N]"
    if len(arguments) < 2 or arguments[0] not in ("progress", "slowest", "suites"):
        print(usage, file=sys.stderr)
        return 2
    try:
        count = int(arguments[2]) if len(arguments) > 2 else 20
    except ValueError:
        print(usage, file=sys.stderr)
        return 2
    if arguments[0] == "progress":
        print(progress(arguments[1]))
    elif arguments[0] == "slowest":
        print(slowest(arguments[1], count))
    else:
        print(suites(arguments[1]))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        # make test's runner stops its progress line when the tests end, perhaps mid-line.
        sys.exit(1)
