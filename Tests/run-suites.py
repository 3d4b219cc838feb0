#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make test's Swift Testing runner: the test binary that `swift build --build-tests` made, run
once per top-level suite, JOBS suites at a time, each suite's tests one after the other.

Usage: run-suites.py [--jobs N] [--first SUITE]... [--only SUITE]... [--skip SUITE]...
                     [--only-matching REGEX] [--skip-matching REGEX] EVENTS BINARY

- Lists the tests (BINARY --testing-library swift-testing --list-tests) and groups them by their
  top-level suite ("ScanningTests.CorpusTests"); --only keeps the suites named, --skip leaves
  them out, --only-matching and --skip-matching do the same for the names a regular expression
  finds (re.search).
- Runs each suite with `--filter '^Suite/'`, SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 and
  its event stream in EVENTS/<suite>.jsonl; --first names suites to start before the others
  (the longest: a long suite started last keeps one core busy alone at the end).
- Prints each suite's whole output when it ends (a failure keeps its lines together), then a
  line of counts in Swift Testing's form; exits 1 when a suite failed, 0 otherwise.

Why not one `swift test`: Swift Testing queues every test at once and runs the queue on the
cooperative thread pool (one thread a core). When as many tests run as there are threads, the
work that posts "passed" waits behind the next test, so a two-core machine printed nothing for
half an hour and every "passed after" counted the whole wait. One test at a time in each of
JOBS processes leaves a thread free for that work, so each suite reports as it goes, each
test's time is its own, and a test that reads the peak memory of its children
(getrusage(RUSAGE_CHILDREN)) shares the process with its own suite only.
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time


def suite_of(test_id):
    return test_id.split("/")[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--first", action="append", default=[])
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--only-matching")
    parser.add_argument("--skip-matching")
    parser.add_argument("events")
    parser.add_argument("binary")
    options = parser.parse_args()

    listing = subprocess.run([options.binary, "--testing-library", "swift-testing", "--list-tests"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if listing.returncode != 0:
        sys.stdout.write(listing.stdout + listing.stderr)
        print(f"run-suites.py: {options.binary} --list-tests failed with status {listing.returncode}")
        return 1
    tests = [line.strip() for line in listing.stdout.splitlines() if line.strip()]
    suites = []
    for test_id in tests:
        suite = suite_of(test_id)
        if suite not in suites:
            suites.append(suite)
    unknown = [s for s in options.first + options.skip + options.only if s not in suites]
    if unknown:
        print(f"run-suites.py: no suite named {', '.join(unknown)} in {options.binary}")
        return 2
    if options.only:
        suites = [s for s in suites if s in options.only]
    suites = [s for s in suites if s not in options.skip]
    if options.only_matching is not None:
        suites = [s for s in suites if re.search(options.only_matching, s)]
    if options.skip_matching is not None:
        suites = [s for s in suites if not re.search(options.skip_matching, s)]
    first = [s for s in options.first if s in suites]
    suites = first + sorted(s for s in suites if s not in first)
    planned = [t for t in tests if suite_of(t) in suites]

    os.makedirs(options.events, exist_ok=True)
    for name in os.listdir(options.events):
        if name.endswith((".jsonl", ".log", ".tsv")):
            os.remove(os.path.join(options.events, name))
    # The progress line's denominator (Tests/test-events.py).
    with open(os.path.join(options.events, "plan.txt"), "w") as plan:
        plan.write("\n".join(planned) + "\n")

    # Per suite: seconds from start to end, and CPU seconds (user + system, its children's too).
    times = open(os.path.join(options.events, "suites.tsv"), "w")
    environment = dict(os.environ, SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="1")
    queue = list(suites)
    lock = threading.Lock()
    failed = []
    started = time.monotonic()

    def work():
        while True:
            with lock:
                if not queue:
                    return
                suite = queue.pop(0)
            log = os.path.join(options.events, suite + ".log")
            begun = time.monotonic()
            with open(log, "w") as output:
                process = subprocess.Popen(
                    [options.binary, "--testing-library", "swift-testing",
                     "--filter", "^" + re.escape(suite) + "/",
                     "--event-stream-output-path", os.path.join(options.events, suite + ".jsonl"),
                     "--event-stream-version", "0"],
                    stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment)
                # wait4: the suite's own CPU time, its children's included.
                _, code, usage = os.wait4(process.pid, 0)
                process.returncode = status = os.waitstatus_to_exitcode(code)
            with lock:
                times.write(f"{suite}\t{time.monotonic() - begun:.2f}\t{usage.ru_utime + usage.ru_stime:.2f}\n")
                times.flush()
            with open(log, encoding="utf-8", errors="replace") as output:
                text = output.read()
            with lock:
                if status != 0:
                    failed.append(suite)
                    if "Test run with" not in text:
                        text += f"✘ Test run of {suite} ended with status {status} before its end\n"
                sys.stdout.write(text)
                sys.stdout.flush()

    workers = [threading.Thread(target=work) for _ in range(max(1, options.jobs))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    seconds = time.monotonic() - started
    def count(number, noun):
        return f"{number} {noun}" + ("" if number == 1 else "s")
    summary = f"{count(len(planned), 'test')} in {count(len(suites), 'suite')}, {options.jobs} at a time,"
    if failed:
        print(f"✘ Test run with {summary} failed after {seconds:.3f} seconds: {', '.join(failed)}.")
        return 1
    print(f"✔ Test run with {summary} passed after {seconds:.3f} seconds.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
