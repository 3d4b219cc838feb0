"""Lookups per second each provider gets from `isbnscan lookup`, against the tests' local provider
server (Tests/ProviderServer/provider_server.py): the rate limiter's pace, never the internet.

    python3 Bench/lookup_rate.py [ISBNSCAN_BINARY]     (default .build/release/isbnscan)

For each provider (Open Library without and with a contact, Google Books, NDL Search) it looks up
N valid ISBNs no provider knows (so every provider answers at once) and reports, from the server's
log, requests/s between the first and last request, the smallest gap between two requests, and
lookups/s (ISBNs answered per second of the run).
"""
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


if __name__ == "__main__":
    main()
