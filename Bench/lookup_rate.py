# SPDX-License-Identifier: Apache-2.0
"""Lookups per second each provider gets from `isbnscan lookup`, against the tests' local provider
server (Tests/ProviderServer/provider_server.py): the rate limiter's pace, never the internet.

    python3 Bench/lookup_rate.py [ISBNSCAN_BINARY]     (default .build/release/isbnscan)

For each provider (Open Library without and with a contact, Google Books, NDL Search) it looks up
N valid ISBNs no provider knows (so every provider answers at once) and reports, from the server's
log, requests/s between the first and last request, the smallest gap between two requests, and
lookups/s (ISBNs answered per second of the run).

Then the same through the catalogue: `catalog lookup --db` of a catalogue holding N such ISBNs
(every answer stored as it comes), and `scan --lookup` of a folder of photos against a provider
that answers nothing in time (one byte every 0.3 s), with the scan's own time from its summary
line beside the same scan without --lookup: the lookups must not slow the scan.
"""
import re
import shutil
import sqlite3
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/isbnscan")


def isbns(count, prefix="979123"):
    out = []
    for n in range(count):
        d12 = "%s%06d" % (prefix, n)
        s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d12))
        out.append(d12 + str((10 - s % 10) % 10))
    return out


def run(provider, count, contact):
    """Looks up `count` ISBNs at `provider` alone; returns requests, requests/s, smallest gap, lookups/s, exit status."""
    log = tempfile.mktemp(prefix="lookup-rate-")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/ProviderServer/provider_server.py"), log, "normal"],
                              stdout=subprocess.PIPE)
    port = int(server.stdout.readline())
    base = "http://127.0.0.1:%d" % port
    env = {"ISBNSCAN_OPENLIBRARY_URL": base, "ISBNSCAN_GOOGLE_BOOKS_URL": base, "ISBNSCAN_NDL_URL": base}
    if contact:
        env["ISBNSCAN_CONTACT"] = "bench@example.org"
    start = time.monotonic()
    result = subprocess.run([BINARY, "lookup", "--provider", provider] + isbns(count), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - start
    server.kill()
    server.wait()
    times = [float(line.split()[0]) for line in open(log)]
    os.unlink(log)
    answered = sum(1 for line in result.stdout.splitlines() if "not known to" in line)
    gaps = [b - a for a, b in zip(times, times[1:])]
    rate = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else float("nan")
    return len(times), rate, min(gaps) if gaps else float("nan"), answered / elapsed, result.returncode


def main():
    print("| provider | contact | ISBNs | requests | requests/s | smallest gap (s) | lookups/s | exit |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    # Open Library takes 20 ISBNs per request: 160 ISBNs are 8 requests, paced by the limiter.
    for provider, count, contact in [("openlibrary", 160, False), ("openlibrary", 160, True), ("google", 8, False),
                                     ("google", 8, True), ("ndl", 8, True)]:
        requests, rate, gap, lookups, status = run(provider, count, contact)
        print("| %s | %s | %d | %d | %.2f | %.3f | %.1f | %d |" % (provider, "yes" if contact else "no", count, requests,
                                                                     rate, gap, lookups, status))


def server(mode="normal"):
    log = tempfile.mktemp(prefix="lookup-rate-")
    process = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/ProviderServer/provider_server.py"), log, mode],
                               stdout=subprocess.PIPE)
    base = "http://127.0.0.1:%d" % int(process.stdout.readline())
    env = {"ISBNSCAN_OPENLIBRARY_URL": base, "ISBNSCAN_GOOGLE_BOOKS_URL": base, "ISBNSCAN_NDL_URL": base,
           "ISBNSCAN_CONTACT": "bench@example.org"}
    return process, log, env


def catalog_run(provider, count):
    """`catalog lookup --db` of a catalogue of `count` ISBNs at `provider`: requests, lookups/s, stored answers, exit."""
    folder = tempfile.mkdtemp(prefix="lookup-rate-db-")
    db = os.path.join(folder, "books.db")
    # The catalogue made by a scan of a picture without a barcode: the schema, no book yet.
    subprocess.run([BINARY, "scan", "--db", db, os.path.join(ROOT, "TestImages/negative/blank.png")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with sqlite3.connect(db) as connection:
        connection.executemany("INSERT INTO sightings (isbn13, source, polygon, seen_at) VALUES (?, 'bench', '[]', ?)",
                               [(isbn, "2026-12-02T00:00:%02d.%03dZ" % (n // 1000, n % 1000)) for n, isbn in enumerate(isbns(count))])
    process, log, env = server()
    start = time.monotonic()
    result = subprocess.run([BINARY, "catalog", "lookup", "--db", db, "--provider", provider], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - start
    process.kill()
    process.wait()
    requests = sum(1 for _ in open(log))
    os.unlink(log)
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT COUNT(*) FROM lookups").fetchone()[0]
    shutil.rmtree(folder)
    return requests, count / elapsed, stored, result.returncode


def scan_seconds(arguments, env):
    result = subprocess.run([BINARY, "scan"] + arguments, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    found = re.search(r"; ([0-9.]+) s, ([0-9.]+) files/s\)", result.stderr)
    return float(found.group(1)), result.returncode


def main_background():
    print()
    print("| catalog lookup: provider | ISBNs | requests | lookups/s | answers stored | exit |")
    print("| --- | --- | --- | --- | --- | --- |")
    for provider, count in [("openlibrary", 160), ("google", 8)]:
        requests, lookups, stored, status = catalog_run(provider, count)
        print("| %s | %d | %d | %.1f | %d | %d |" % (provider, count, requests, lookups, stored, status))
    folder = tempfile.mkdtemp(prefix="lookup-rate-shelf-")
    images = ["png-gray8.png", "jpeg-gray.jpg", "pgm-p5.pgm", "png-rgb8.png", "addon-ean5.png", "jpeg-rgb.jpg"]
    for n in range(48):
        name = images[n % len(images)]
        shutil.copy(os.path.join(ROOT, "TestImages/isbn", name), os.path.join(folder, "%02d-%s" % (n, name)))
    process, log, env = server("drip")
    plain, _ = scan_seconds(["-j", "2", folder], env)
    start = time.monotonic()
    background, status = scan_seconds(["-j", "2", "--lookup", "--provider", "openlibrary", folder], env)
    whole = time.monotonic() - start
    process.kill()
    process.wait()
    os.unlink(log)
    shutil.rmtree(folder)
    print()
    print("| scan of 48 photos, -j 2 | scan's own time (s) | whole run (s) | exit |")
    print("| --- | --- | --- | --- |")
    print("| without --lookup | %.2f | | |" % plain)
    print("| --lookup, provider dripping 1 byte / 0.3 s | %.2f | %.1f | %d |" % (background, whole, status))


if __name__ == "__main__":
    main()
    main_background()
