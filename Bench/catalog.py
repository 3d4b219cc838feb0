#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make bench-catalog: several `isbnscan scan --db` writers on one catalogue, killed at random.

A generated shelf (copies of the bundled test images, each made a distinct file by trailing
bytes that no decoder reads) in eight folders. First one clean single-process run gives the
reference: the files, their status and sightings. Then, for each number of writers:

* concurrent runs: N writers start together on a new catalogue, the folders shared out among them
  (separate) or each writer also taking the next one's share (overlapping: every folder scanned
  by two writers at once); while they run, writers are killed with SIGKILL at random moments and
  started again until each has finished normally;
* then PRAGMA integrity_check, and the catalogue compared with the reference: every file recorded
  exactly once with the same status, the same sightings per file, the same books.

Then kill-and-resume trials: one writer killed at a random moment, resumed until it ends; the
same checks. And `scan --json --db | head -1`: how long until the pipe's close stops the run.

Figures: files recorded / files in the reference, files scanned (sum over the writers' summary
lines: files scanned, not taken from the catalogue), lock waits and retries (the summary's
"waited ... (W times, R retries)"), kills, errors (any `Error:` line or an exit status other than
0), time. Standard library only (sqlite3, subprocess).
"""

import argparse
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = ["png-gray8.png", "png-rgb8.png", "addon-ean5.png", "addon-ean2.png", "gif-zint.gif", "jpeg-gray.jpg"]
FOLDERS = 8
SUMMARY = re.compile(r"^scanned (\d+) files?:", re.M)
UNCHANGED = re.compile(r"; (\d+) files? unchanged since an earlier run")
WAITED = re.compile(r"waited ([\d.]+) s for other writers of the catalogue \((\d+) times?, (\d+) retries\)")


def make_shelf(root, count, seed):
    rng = random.Random(seed)
    images = os.path.join(HERE, "..", "TestImages", "isbn")
    shutil.rmtree(root, ignore_errors=True)
    for folder in range(FOLDERS):
        os.makedirs(os.path.join(root, f"f{folder}"))
    for n in range(count):
        source = FIXTURES[n % len(FIXTURES)]
        with open(os.path.join(images, source), "rb") as f:
            data = f.read()
        # Distinct bytes after the image: another file (another hash), the same barcode.
        data += bytes(rng.randrange(256) for _ in range(16 + rng.randrange(64)))
        with open(os.path.join(root, f"f{n % FOLDERS}", f"IMG_{n:04d}" + os.path.splitext(source)[1]), "wb") as f:
            f.write(data)


def remove_db(db):
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass


def snapshot(db):
    """(integrity_check, {path: (status, sorted sighting ISBNs)}, number of files rows, books)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        check = con.execute("PRAGMA integrity_check").fetchone()[0]
        rows = con.execute("SELECT path, status, id FROM files").fetchall()
        sightings = {}
        for file_id, isbn in con.execute("SELECT file_id, isbn13 FROM sightings WHERE file_id IS NOT NULL"):
            sightings.setdefault(file_id, []).append(isbn)
        files = {bytes(path).decode(errors="replace"): (status, sorted(sightings.get(i, []))) for path, status, i in rows}
        books = con.execute("SELECT COUNT(DISTINCT isbn13) FROM sightings").fetchone()[0]
        return check, files, len(rows), books
    finally:
        con.close()


class Figures:
    def __init__(self):
        self.scanned = self.lock_waits = self.retries = self.kills = self.errors = self.runs = 0
        self.waited = 0.0
        self.error_lines = []

    def add_output(self, status, stderr):
        self.runs += 1
        if status != 0 or "Error:" in stderr:
            self.errors += 1
            self.error_lines += [line for line in stderr.splitlines() if "Error:" in line][:3] or [f"exit status {status}"]
        m = SUMMARY.search(stderr)
        if m:
            unchanged = UNCHANGED.search(stderr)
            self.scanned += int(m.group(1)) - (int(unchanged.group(1)) if unchanged else 0)
        w = WAITED.search(stderr)
        if w:
            self.waited += float(w.group(1))
            self.lock_waits += int(w.group(2))
            self.retries += int(w.group(3))


def start(binary, db, folders, jobs):
    return subprocess.Popen([binary, "scan", "-r", "-j", str(jobs), "--db", db] + folders,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def run_writers(binary, db, assignments, kill_rate, rng, figures, jobs=1):
    """Runs one writer per folder list, killing each with probability `kill_rate` at a random
    moment and starting it again, until every writer has finished normally."""
    pending = list(assignments)
    while pending:
        procs = [(folders, start(binary, db, folders, jobs)) for folders in pending]
        pending = []
        victims = [p for p in procs if rng.random() < kill_rate]
        deadline = time.monotonic() + rng.uniform(0.05, 1.0)
        for folders, proc in procs:
            if (folders, proc) in victims:
                time.sleep(max(0.0, deadline - time.monotonic()))
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    figures.kills += 1
                    pending.append(folders)
                    continue
        for folders, proc in procs:
            if proc.returncode == -signal.SIGKILL:
                continue
            _, stderr = proc.communicate()
            figures.add_output(proc.returncode, stderr)


def compare(db, reference, figures, problems, label):
    check, files, rows, books = snapshot(db)
    if check != "ok":
        problems.append(f"{label}: integrity_check {check}")
    missing = set(reference[1]) - set(files)
    extra = set(files) - set(reference[1])
    wrong = [p for p in set(files) & set(reference[1]) if files[p] != reference[1][p]]
    if missing or extra or wrong or books != reference[3]:
        problems.append(f"{label}: {len(missing)} missing, {len(extra)} extra, {len(wrong)} different, books {books}/{reference[3]}")
    return len(files), check == "ok"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--files", type=int, default=240)
    parser.add_argument("--writers", default="4,8")
    parser.add_argument("--concurrent-runs", type=int, default=4, help="per number of writers (the issue's target: 50)")
    parser.add_argument("--kill-trials", type=int, default=10, help="kill-and-resume trials (the issue's target: 100)")
    parser.add_argument("--kill-rate", type=float, default=0.5, help="chance that a writer is killed in each round")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    binary = os.path.abspath(args.bin)
    root = os.path.abspath(os.path.join(args.out, "shelf"))
    make_shelf(root, args.files, args.seed)
    folders = [os.path.join(root, f"f{n}") for n in range(FOLDERS)]
    problems = []

    db = os.path.join(os.path.abspath(args.out), "reference.db")
    remove_db(db)
    began = time.monotonic()
    result = subprocess.run([binary, "scan", "-r", "-j", "1", "--db", db, root], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    reference_seconds = time.monotonic() - began
    reference = snapshot(db)
    print(f"reference: 1 writer, {reference[2]} files, {reference[3]} books, {reference_seconds:.1f} s "
          f"(exit {result.returncode})")
    if reference[2] != args.files:
        problems.append(f"reference: {reference[2]} files recorded of {args.files}")

    lines = ["| writers | folders | runs | files recorded / in the shelf | files scanned | kills | lock waits | retries "
             "| waited s | errors | corrupt | s per run |", "| --- " * 12 + "|"]
    for writers in [int(w) for w in args.writers.split(",")]:
        for layout in ("overlapping", "separate"):
            figures = Figures()
            recorded = corrupt = 0
            began = time.monotonic()
            for run in range(args.concurrent_runs):
                db = os.path.join(os.path.abspath(args.out), f"w{writers}-{layout}-{run}.db")
                remove_db(db)
                # Separate: the folders shared out; overlapping: each writer also takes the next one's share,
                # so every folder is scanned by two writers at once.
                share = [folders[i::writers] for i in range(writers)]
                if layout == "overlapping":
                    assignments = [share[i] + share[(i + 1) % writers] for i in range(writers)]
                else:
                    assignments = share
                run_writers(binary, db, assignments, args.kill_rate, rng, figures)
                count, ok = compare(db, reference, figures, problems, f"{writers} writers {layout} run {run}")
                recorded += count
                corrupt += 0 if ok else 1
                remove_db(db)
            seconds = (time.monotonic() - began) / max(1, args.concurrent_runs)
            lines.append(f"| {writers} | {layout} | {args.concurrent_runs} | {recorded}/{args.files * args.concurrent_runs} "
                         f"| {figures.scanned} | {figures.kills} | {figures.lock_waits} | {figures.retries} | {figures.waited:.1f} "
                         f"| {figures.errors} | {corrupt} | {seconds:.1f} |")
            problems += [f"{writers} writers {layout}: {line}" for line in figures.error_lines[:3]]

    figures = Figures()
    recorded = corrupt = 0
    began = time.monotonic()
    for trial in range(args.kill_trials):
        db = os.path.join(os.path.abspath(args.out), f"kill-{trial}.db")
        remove_db(db)
        run_writers(binary, db, [[root]], 0.8, rng, figures, jobs=2)
        count, ok = compare(db, reference, figures, problems, f"kill trial {trial}")
        recorded += count
        corrupt += 0 if ok else 1
        remove_db(db)
    seconds = (time.monotonic() - began) / max(1, args.kill_trials)
    lines.append(f"| 1 (kill and resume) | all | {args.kill_trials} | {recorded}/{args.files * args.kill_trials} | {figures.scanned} "
                 f"| {figures.kills} | {figures.lock_waits} | {figures.retries} | {figures.waited:.1f} | {figures.errors} "
                 f"| {corrupt} | {seconds:.1f} |")

    # A closed pipe: the run stops at the first commit that finds the reader gone.
    db = os.path.join(os.path.abspath(args.out), "head.db")
    remove_db(db)
    began = time.monotonic()
    head = subprocess.run(f"'{binary}' scan --json -r --db '{db}' '{root}' | head -1 > /dev/null", shell=True,
                          stderr=subprocess.DEVNULL)
    head_seconds = time.monotonic() - began
    head_recorded = snapshot(db)[2]
    remove_db(db)

    print("\n".join(lines))
    print(f"scan --json --db | head -1: {head_seconds:.2f} s, {head_recorded} of {args.files} files recorded "
          f"(exit of the pipeline {head.returncode})")
    if problems:
        print("PROBLEMS:\n  " + "\n  ".join(problems))
        sys.exit(1)
    print("every file recorded exactly once, 0 errors, 0 corrupt catalogues")


if __name__ == "__main__":
    main()
