#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A local stand-in for Open Library, Google Books and NDL Search, for the lookup tests.

Usage: provider_server.py LOG MODE [ARG]   (prints the port it listens on, then serves until killed)

It answers the three providers' paths (/api/books, /books/v1/volumes, /api/opensearch) from the
fixtures beside this file, shaped as each provider documents its answers:
  openlibrary/<isbn13>.json  one Books API entry (jscmd=data), keyed "ISBN:<isbn13>" in the answer
  google/<isbn13>.json       a whole volume list; an ISBN without a file gets {"kind", "totalItems": 0}
  ndl/<isbn13>.xml           a whole OpenSearch RSS; an ISBN without a file gets an RSS without items
                             (ndl/9784101010014.xml lists only another book, 9784060000002)
MODE chooses a fault instead of the normal answer:
  normal                 the fixtures
  status CODE[:SECONDS]  every request answered with HTTP CODE (and Retry-After: SECONDS)
  flaky CODE[:SECONDS]   the first request answered with CODE (and Retry-After), then normal
  redirect-loop          302 to the same URL, forever
  redirect-file          302 to file:///etc/passwd
  truncated              Content-Length 4000 and 40 bytes, then the connection closed
  oversized              Content-Length 50 MB announced
  oversized-stream       5 MB of JSON sent without Content-Length (close-delimited)
  malformed              a JSON or XML answer cut in the middle
  wrong-type             an HTML page (text/html)
  drip                   one byte every 0.3 s
  stall                  the request read, then nothing sent, the connection held open until killed
  tls                    the normal answers over HTTPS with a self-signed certificate
                         (self-signed.crt/.key beside this file, for 127.0.0.1, a test key only)
  tls-redirect BASE      over HTTPS as tls, every request answered 302 to BASE + the same path
  hostile NAME           a hostile answer, 200 with the provider's content type, for the ISBNs asked:
                           ndl-entities      an internal entity of 10,000 characters used 10,000
                                             times in dc:title (40 KB that expand to 100 MB)
                           ndl-nested        250 nested elements of 15,600 characters each (3.9 MB)
                                             inside the item, whose dc:title is "Nested"
                           long              a title of 1,000,000 characters (本), a subtitle of 3,000,
                                             a publisher of 20,000 and an author of 12,000 (a):
                                             NDL's RSS, Open Library's entry and Google's volume
                           control           Open Library: a title with ESC, BEL and a newline as
                                             character references, an author with U+202E, U+2028, U+0085
                           openlibrary-batch Open Library: every ISBN asked found, each entry padded
                                             with 200,000 characters (4 MB for 20)
Each request is appended to the file LOG as it arrives: one line, "<monotonic seconds> <path>
<User-Agent>".
"""
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
LOG = sys.argv[1]
MODE = sys.argv[2] if len(sys.argv) > 2 else "normal"
ARG = sys.argv[3] if len(sys.argv) > 3 else ""
LOCK = threading.Lock()
FIRST = [True]


def fixture(provider, isbn, ext):
    path = os.path.join(HERE, provider, isbn + ext)
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


EMPTY_RSS = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/" xmlns:dcndl="http://ndl.go.jp/dcndl/terms/" version="2.0">
<channel><title>NDL Search OpenSearch</title><openSearch:totalResults>0</openSearch:totalResults></channel></rss>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def normal(self, url):
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/api/books":
            answer = {}
            for key in query.get("bibkeys", [""])[0].split(","):
                entry = fixture("openlibrary", key.removeprefix("ISBN:"), ".json")
                if entry is not None:
                    answer[key] = json.loads(entry)
            return self.send(200, json.dumps(answer, ensure_ascii=False).encode(), "application/json")
        if url.path == "/books/v1/volumes":
            isbn = query.get("q", [""])[0].removeprefix("isbn:")
            body = fixture("google", isbn, ".json") or b'{"kind": "books#volumes", "totalItems": 0}'
            return self.send(200, body, "application/json; charset=UTF-8")
        if url.path == "/api/opensearch":
            body = fixture("ndl", query.get("isbn", [""])[0], ".xml") or EMPTY_RSS
            return self.send(200, body, "application/rss+xml; charset=UTF-8")
        self.send(404, b"not found\n", "text/plain")

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        with LOCK, open(LOG, "a") as log:
            log.write("%.6f %s %s\n" % (time.monotonic(), self.path, self.headers.get("User-Agent", "-")))
            first = FIRST[0]
            FIRST[0] = False
        xml = url.path == "/api/opensearch"
        if MODE in ("normal", "tls") or (MODE == "flaky" and not first):
            return self.normal(url)
        if MODE == "hostile":
            body, content_type = hostile(ARG, url)
            return self.send(200, body, content_type)
        if MODE == "tls-redirect":
            return self.send(302, b"", "text/plain", [("Location", ARG + self.path)])
        if MODE in ("status", "flaky"):
            code, _, seconds = ARG.partition(":")
            extra = [("Retry-After", seconds)] if seconds else []
            return self.send(int(code), b"slow down\n", "text/plain", extra)
        if MODE == "redirect-loop":
            return self.send(302, b"", "text/plain", [("Location", self.path)])
        if MODE == "redirect-file":
            return self.send(302, b"", "text/plain", [("Location", "file:///etc/passwd")])
        if MODE == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "4000")
            self.end_headers()
            self.wfile.write(b'{"ISBN:9780306406157": {"title": "The cut')
            self.wfile.flush()
            self.close_connection = True
            return
        if MODE == "oversized":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(50 * 1000 * 1000))
            self.end_headers()
            self.wfile.write(b"{" + b" " * 65536)
            self.close_connection = True
            return
        if MODE == "oversized-stream":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                self.wfile.write(b'{"pad": "')
                for _ in range(80):
                    self.wfile.write(b"x" * 65536)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if MODE == "malformed":
            if xml:
                return self.send(200, b"<rss><channel><item><dc:title>\xe6\x9c\xac</item>", "application/rss+xml")
            return self.send(200, b'{"ISBN:9780306406157": {"title": "Half', "application/json")
        if MODE == "wrong-type":
            return self.send(200, b"<html><body>Service temporarily down</body></html>", "text/html; charset=utf-8")
        if MODE == "stall":
            while True:
                time.sleep(3600)
        if MODE == "drip":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.3)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        self.send(500, b"unknown mode\n", "text/plain")


NS = ('xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcndl="http://ndl.go.jp/dcndl/terms/" '
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2.0"')


def hostile(name, url):
    """(body, content type) of the hostile answer NAME to the request URL."""
    query = urllib.parse.parse_qs(url.query)
    if url.path == "/api/opensearch":
        isbn = query.get("isbn", [""])[0]
        ident = '<dc:identifier xsi:type="dcndl:ISBN">%s</dc:identifier>' % isbn
        if name == "ndl-entities":
            body = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE rss [<!ENTITY e "%s">]>\n'
                    '<rss %s><channel><item><dc:title>%s</dc:title>%s</item></channel></rss>\n'
                    % ("x" * 10000, NS, "&e;" * 10000, ident))
        elif name == "ndl-nested":
            text = "y" * 15600
            body = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss %s><channel><item><dc:title>Nested</dc:title>%s%s%s'
                    '</item></channel></rss>\n' % (NS, ident, ("<x>" + text) * 250, "</x>" * 250))
        else:
            body = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss %s><channel><item><dc:title>%s</dc:title>'
                    '<dc:creator>%s</dc:creator><dc:publisher>%s</dc:publisher>%s</item></channel></rss>\n'
                    % (NS, "本" * 1000000, "a" * 12000, "p" * 20000, ident))
        return body.encode(), "application/rss+xml; charset=UTF-8"
    long_entry = {"title": "本" * 1000000, "subtitle": "s" * 3000, "publishers": [{"name": "p" * 20000}],
                  "authors": [{"name": "a" * 12000}]}
    if url.path == "/books/v1/volumes":
        isbn = query.get("q", [""])[0].removeprefix("isbn:")
        info = {"title": long_entry["title"], "subtitle": long_entry["subtitle"], "publisher": "p" * 20000,
                "authors": ["a" * 12000], "industryIdentifiers": [{"type": "ISBN_13", "identifier": isbn}]}
        body = json.dumps({"kind": "books#volumes", "totalItems": 1, "items": [{"volumeInfo": info}]}, ensure_ascii=False)
        return body.encode(), "application/json; charset=UTF-8"
    keys = query.get("bibkeys", [""])[0].split(",")
    if name == "control":
        entry = {"title": "Evil&#27;]0;pwned&#7; title&#10;9784000000000: forged (ndl)",
                 "authors": [{"name": "A\u202eB\u2028C\u0085D"}]}
        answer = {key: entry for key in keys}
    elif name == "openlibrary-batch":
        answer = {key: {"title": "Padded " + key, "notes": "z" * 200000} for key in keys}
    else:
        answer = {key: long_entry for key in keys}
    return json.dumps(answer, ensure_ascii=False).encode(), "application/json"


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if MODE.startswith("tls"):
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(HERE, "self-signed.crt"), os.path.join(HERE, "self-signed.key"))
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
