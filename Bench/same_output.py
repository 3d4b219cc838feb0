#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Do two isbnscan binaries scan alike? Byte-for-byte comparison of `scan --json -r` per effort.

    same_output.py --before OLD_BIN --after NEW_BIN [--effort fast,normal,thorough] [FOLDER ...]

For a change meant to make isbnscan faster without changing what it reads (the decoder's hot
loops, start-up, loading libraries on demand): each binary scans the folders (default
TestImages and ../shared/corpus) with `scan --json -r --effort E` for each effort, and the two
outputs (stdout, stderr, exit status) must be identical. Prints one line per effort and the
first differing lines; exit status 0 when every effort matches, 1 otherwise. `--save DIR` keeps
the outputs (DIR/<effort>.before.jsonl, .after.jsonl), `--reuse` takes the before outputs from
there instead of running OLD_BIN again. `--verdicts`: for a change to how readings are weighed
(the arbiter), compare what each file was judged instead — each code with its verdict and
reason, not the wording of the reason — and count the files that differ only in wording.
Standard library only.
"""

import argparse
import difflib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FOLDERS = [os.path.join(HERE, "..", "TestImages"), os.path.join(HERE, "..", "..", "shared", "corpus")]


# The summary's elapsed time and rate ("15 s, 10.4 files/s") are the only parts that may differ.
TIMING = re.compile(rb"\b[0-9.]+ (?:ms|s), [0-9.]+ files/s")


def scan(binary, effort, folders):
    """stdout, stderr (timing masked) and exit status of one run; paths as given."""
    run = subprocess.run([binary, "scan", "--json", "-r", "--effort", effort] + folders,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    return run.stdout, TIMING.sub(b"<time>", run.stderr), run.returncode


def verdicts(out):
    """Per file: its codes with their verdicts and reasons, sorted; and the whole line."""
    judged = {}
    for line in out.decode("utf-8", "replace").splitlines():
        record = json.loads(line)
        codes = sorted((s["data"], s["verdict"], s.get("reason") or "") for s in record.get("symbols", []))
        judged[record["file"]] = (codes, line)
    return judged


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--effort", default="fast,normal,thorough")
    ap.add_argument("--save")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--verdicts", action="store_true")
    ap.add_argument("folders", nargs="*")
    a = ap.parse_args()
    folders = [os.path.relpath(f) for f in (a.folders or DEFAULT_FOLDERS)]
    if a.save:
        os.makedirs(a.save, exist_ok=True)
    same = True
    for effort in a.effort.split(","):
        outputs = []
        for label, binary in (("before", a.before), ("after", a.after)):
            path = os.path.join(a.save, "%s.%s" % (effort, label)) if a.save else None
            if label == "before" and a.reuse and path and os.path.exists(path + ".jsonl"):
                with open(path + ".jsonl", "rb") as f:
                    out = f.read()
                with open(path + ".stderr", "rb") as f:
                    err = f.read()
                with open(path + ".status") as f:
                    status = int(f.read())
            else:
                out, err, status = scan(binary, effort, folders)
                if path:
                    with open(path + ".jsonl", "wb") as f:
                        f.write(out)
                    with open(path + ".stderr", "wb") as f:
                        f.write(err)
                    with open(path + ".status", "w") as f:
                        f.write(str(status))
            outputs.append((out, err, status))
        (out_a, err_a, st_a), (out_b, err_b, st_b) = outputs
        lines = out_a.count(b"\n")
        if a.verdicts:
            before, after = verdicts(out_a), verdicts(out_b)
            changed = sorted(f for f in set(before) | set(after) if before.get(f, ([], ""))[0] != after.get(f, ([], ""))[0])
            worded = sum(1 for f in before if f in after and f not in changed and before[f][1] != after[f][1])
            print("%-9s %s: %d files, %d with other verdicts, %d with other wording only"
                  % (effort, "same verdicts" if not changed else "VERDICTS DIFFER", len(before), len(changed), worded))
            for f in changed[:12]:
                print("    %s: %s -> %s" % (f, before.get(f, ([], ""))[0], after.get(f, ([], ""))[0]))
            same = same and not changed
            continue
        if outputs[0] == outputs[1]:
            print("%-9s identical: %d files, exit %d" % (effort, lines, st_a))
            continue
        same = False
        print("%-9s DIFFERENT (exit %d vs %d, %d vs %d lines)" % (effort, st_a, st_b, lines, out_b.count(b"\n")))
        for name, x, y in (("stdout", out_a, out_b), ("stderr", err_a, err_b)):
            diff = list(difflib.unified_diff(x.decode("utf-8", "replace").splitlines(),
                                             y.decode("utf-8", "replace").splitlines(),
                                             "before " + name, "after " + name, lineterm="", n=0))
            for line in diff[:12]:
                print("    " + line[:300])
    print("SAME" if same else "DIFFERENT")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
