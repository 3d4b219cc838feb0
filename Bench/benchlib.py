# SPDX-License-Identifier: Apache-2.0
"""Shared code for the isbnscan benchmarks (throughput.py, accuracy.py).

* truth: reading truth.tsv and expected texts (EAN digits followed directly by the add-on digits);
* tools: running isbnscan / zbarimg / zxing-cpp once over many files, measuring wall time and peak
  resident memory (os.wait4 ru_maxrss of the child), and parsing each tool's output into
  {real path of file: [Read, ...]};
* scoring and plain-text tables.
"""

import hashlib
import html
import json
import os
import re
import shlex
import subprocess
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------
# truth


def split_expected(text, addon_allowed=True):
    """'978073520044951299' -> ('9780735200449', '51299'); an 8- or 13-digit text has no add-on."""
    text = text.strip()
    if addon_allowed and len(text) in (15, 18):
        return text[:13], text[13:]
    return text, None


def read_truth(path):
    """truth.tsv -> list of dicts (file = real path, category, main, addon, expected; columns = every column
    of the line by name, for sets with more than these)."""
    root = os.path.dirname(os.path.abspath(path))
    rows = []
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if not line.strip():
                continue
            rec = dict(zip(header, line.rstrip("\n").split("\t")))
            main, addon = split_expected(rec["expected"])
            rows.append({"file": os.path.realpath(os.path.join(root, rec["file"])), "name": rec["file"],
                         "category": rec.get("category", ""), "main": main, "addon": addon,
                         "expected": rec["expected"], "columns": rec})
    return rows


# --------------------------------------------------------------------------
# running tools


@dataclass
class Read:
    data: str  # main EAN digits
    addon: str | None = None


@dataclass
class Run:
    tool: str
    cmd: list
    seconds: float
    peak_rss_mb: float
    status: int
    reads: dict  # real path -> [Read]
    note: str = ""
    verdicts: dict | None = None  # isbnscan only: real path -> {"isbns", "symbols"}


def run_measured(cmd, env=None):
    """Run `cmd` once; return (stdout bytes, stderr bytes, wall seconds, peak RSS MB, exit status).

    Peak RSS is ru_maxrss (KiB on Linux) from os.wait4 on the child, so the parent's memory is not mixed in.
    Output goes to temporary files (no pipe deadlock on big outputs).
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        _, status, ru = os.wait4(proc.pid, 0)
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return out.read(), err.read(), seconds, ru.ru_maxrss / 1024.0, proc.returncode


def isbnscan_has_jobs(binary):
    r = subprocess.run([binary, "scan", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return b"--jobs" in r.stdout


# Reasons for which isbnscan refuses a reading as untrustworthy (the reading is not counted as a read).
DISTRUSTED = ("ambiguous", "misread")


def parse_isbnscan(stdout, verdicts=None):
    """isbnscan --json (JSON Lines) -> {real path: [Read]}; readings refused as 'ambiguous' or 'misread' are
    not reads. With `verdicts` (a dict), also fills {real path: {"isbns": [...], "symbols": [(data, reason)]}}."""
    reads = {}
    for line in stdout.decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        path = os.path.realpath(obj["file"])
        lst = reads.setdefault(path, [])
        if verdicts is not None:
            verdicts[path] = {"isbns": [i["isbn13"] for i in obj.get("isbns") or []],
                              "symbols": [(s["data"], s.get("reason")) for s in obj.get("symbols") or []]}
        for s in obj.get("symbols") or []:
            if s.get("reason") in DISTRUSTED:
                continue
            lst.append(Read(s["data"], s.get("addon")))
    return reads


def is_isbn13(code):
    """A 978 EAN-13 with a valid check digit: what a reader would hand on as an ISBN."""
    return len(code) == 13 and code.isdigit() and code.startswith("978") and ean_check_digit(code[:-1]) == code[-1]


def ean_check_digit(body):
    total = sum(int(ch) * (3 if i % 2 == 0 else 1) for i, ch in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


def trust_counts(rows, run):
    """{'wrong': accepted ISBNs that are not the expected code, 'lost': images whose expected code some pass read
    but that was refused (isbnscan only), 'ambiguous': images with a reading refused as ambiguous (isbnscan only),
    'wrong_files': [...], 'lost_files': [...]}. For zbarimg and zxing-cpp every 978 reading is an accepted ISBN."""
    out = {"wrong": 0, "lost": 0, "ambiguous": 0, "wrong_files": [], "lost_files": []}
    for r in rows:
        f = r["file"]
        if run.verdicts is not None:
            v = run.verdicts.get(f, {"isbns": [], "symbols": []})
            accepted = v["isbns"]
            if any(reason == "ambiguous" for _, reason in v["symbols"]):
                out["ambiguous"] += 1
            if r["main"] not in accepted and any(d == r["main"] and reason in DISTRUSTED for d, reason in v["symbols"]):
                out["lost"] += 1
                out["lost_files"].append(r["name"])
        else:
            accepted = [x.data for x in run.reads.get(f, []) if is_isbn13(x.data)]
        bad = sorted({a for a in accepted if a != r["main"]})
        if bad:
            out["wrong"] += 1
            out["wrong_files"].append("%s (expected %s, accepted %s)" % (r["name"], r["main"], " ".join(bad)))
    return out


_SOURCE = re.compile(r"<source href='([^']*)'>(.*?)</source>", re.S)
_SYMBOL = re.compile(r"<symbol type='([^']*)'[^>]*>\s*<data(?: format='base64'(?: length='\d+')?)?><!\[CDATA\[(.*?)\]\]></data>", re.S)


def parse_zbarimg_xml(stdout):
    """zbarimg --xml -> {real path: [Read]}.  Each <source href> block is one file, so results are per file.

    zbar reports an add-on as a separate EAN-5/EAN-2 symbol; it is attached to the file's EAN-13 read(s).
    """
    reads = {}
    text = stdout.decode("utf-8", errors="replace")
    for href, body in _SOURCE.findall(text):
        path = os.path.realpath(html.unescape(href))
        mains, addons = [], []
        for typ, data in _SYMBOL.findall(body):
            if typ in ("EAN-5", "EAN-2"):
                addons.append(data)
            elif typ in ("EAN-13", "EAN-8", "UPC-A", "ISBN-13"):
                mains.append((typ, data))
        lst = reads.setdefault(path, [])
        for typ, data in mains:
            lst.append(Read(data, addons[0] if addons and typ != "EAN-8" else None))
    return reads


def parse_zxing(stdout):
    """Bench/zxing_read.py output (JSON Lines: file, codes[{format, text}]) -> {real path: [Read]}.

    With add-ons read, zxing-cpp appends the add-on digits to the EAN-13 text (13+2 or 13+5 digits).
    """
    reads = {}
    for line in stdout.decode("utf-8", errors="replace").splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        lst = reads.setdefault(os.path.realpath(obj["file"]), [])
        for c in obj["codes"]:
            text = c["text"]
            if len(text) in (15, 18):
                lst.append(Read(text[:13], text[13:]))
            else:
                lst.append(Read(text))
    return reads


def zxing_available(python):
    r = subprocess.run([python, "-c", "import zxingcpp, importlib.metadata as m; print(m.version('zxing-cpp'))"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return r.stdout.decode().strip() if r.returncode == 0 else None


def zbarimg_version():
    r = subprocess.run(["zbarimg", "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return r.stdout.decode().strip()


def run_zbarimg(files, addons):
    syms = ["-Sean13.enable", "-Sean8.enable"] + (["-Sean5.enable", "-Sean2.enable"] if addons else [])
    cmd = ["zbarimg", "-q", "-Sdisable"] + syms + ["--xml"] + list(files)
    out, err, secs, rss, status = run_measured(cmd)
    return Run("zbarimg", cmd, secs, rss, status, parse_zbarimg_xml(out))


def run_zxing(python, files, addons):
    cmd = [python, os.path.join(HERE, "zxing_read.py")] + (["--addons"] if addons else []) + ["--"] + list(files)
    out, err, secs, rss, status = run_measured(cmd)
    if status != 0:
        raise RuntimeError("zxing reader failed: " + err.decode(errors="replace")[-2000:])
    return Run("zxing-cpp", cmd, secs, rss, status, parse_zxing(out))


def run_isbnscan(binary, args, label="isbnscan"):
    cmd = [binary, "scan"] + list(args)
    out, err, secs, rss, status = run_measured(cmd)
    verdicts = {}
    run = Run(label, cmd, secs, rss, status, parse_isbnscan(out, verdicts), verdicts=verdicts)
    if status not in (0, 1, 4):
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd[:6]), status, err.decode(errors="replace")[-2000:]))
    if status == 1:
        run.note = "exit 1: some input unreadable: " + err.decode(errors="replace").strip().splitlines()[0][:200]
    return run


def score(rows, reads, judge_addon=False):
    """(correct, wrong, set of correct files): a file is correct when some read's main code equals the expected one
    (and, with judge_addon, its add-on equals the expected add-on); wrong when it has reads but none is correct."""
    ok, wrong, (files, _) = score_files(rows, reads, judge_addon)
    return ok, wrong, files


def score_files(rows, reads, judge_addon=False):
    """Like score, but the third item is (set of correct files, {wrong file: [readings]})."""
    ok, wrong = set(), {}
    for r in rows:
        rs = reads.get(r["file"], [])
        good = [x for x in rs if x.data == r["main"]]
        if judge_addon and r["addon"]:
            good = [x for x in good if x.addon == r["addon"]]
        if good:
            ok.add(r["file"])
        elif any(x.data != r["main"] for x in rs):
            wrong[r["file"]] = [x.data for x in rs]
    return len(ok), len(wrong), (ok, wrong)


def shell_join(cmd, limit=8):
    """A command line for printing, with long file lists shortened."""
    if len(cmd) > limit + 3:
        shown = cmd[:limit]
        return " ".join(shlex.quote(c) for c in shown) + " ... (%d more files)" % (len(cmd) - limit)
    return " ".join(shlex.quote(c) for c in cmd)


def table(headers, rows, left=1):
    """Plain-text table: the first `left` columns left-aligned, the others right-aligned."""
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for n, r in enumerate(cells):
        lines.append("  ".join((c.ljust(widths[i]) if i < left else c.rjust(widths[i])) for i, c in enumerate(r)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def fast_fft_size(n):
    """The smallest m >= n whose only prime factors are 2, 3 and 5 (sizes numpy's FFT is fast at)."""
    m = n
    while True:
        r = m
        for p in (2, 3, 5):
            while r % p == 0:
                r //= p
        if r == 1:
            return m
        m += 1


def sources_digest(*files):
    """sha1 over generator sources, stored in a set's stamp so that a changed generator regenerates.

    The licence line is left out: it changes no image."""
    h = hashlib.sha1()
    for f in files:
        with open(f, "rb") as fh:
            h.update(fh.read().replace(b"# SPDX-License-Identifier: Apache-2.0\n", b"", 1))
    return h.hexdigest()[:16]
