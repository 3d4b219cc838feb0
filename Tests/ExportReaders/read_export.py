#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads an isbnscan export with the parser the program it is meant for follows, and prints
what that parser saw as one JSON object on stdout, for the Swift tests to compare.

    read_export.py bibtex FILE   pybtex (BibTeX's brace rules): {"entries": [{"key", "type",
                                 "title", "url", "authors": [name, ...]}]}, the title's LaTeX
                                 escapes isbnscan writes turned back into text
    read_export.py ris FILE      rispy, on the lines str.splitlines() finds: {"entries": [{"title",
                                 "authors", "url", "isbn"}]}
    read_export.py csv FILE      Python's csv module: {"rows": [[field, ...], ...]}

A file the parser refuses ends with exit status 1 and the parser's message on stderr.
Run by the tests with the venv that `make test-deps` creates (.build/test-venv).
"""
import csv
import json
import re
import sys

# The inverse of isbnscan's BibTeX escaping (BookExport.bibtexEscaped), in one pass.
LATEX = {r"{\textbraceleft}": "{", r"{\textbraceright}": "}", r"\textbackslash{}": "\\",
         r"\textasciitilde{}": "~", r"\textasciicircum{}": "^", r"\&": "&", r"\%": "%", r"\$": "$",
         r"\#": "#", r"\_": "_"}
LATEX_PATTERN = re.compile("|".join(re.escape(k) for k in sorted(LATEX, key=len, reverse=True)))


def text(latex):
    return LATEX_PATTERN.sub(lambda m: LATEX[m.group(0)], latex)


def bibtex(path):
    from pybtex.database import parse_file
    data = parse_file(path, bib_format="bibtex")
    entries = []
    for key, entry in data.entries.items():
        entries.append({"key": key, "type": entry.type, "title": text(entry.fields.get("title", "")),
                        "url": entry.fields.get("url", ""),
                        "authors": [str(person) for person in entry.persons.get("author", [])]})
    return {"entries": entries}


def ris(path):
    from rispy import RisParser
    # Lines as str.splitlines() finds them (CR, LF, VT, FF, U+001C-U+001E, NEL, U+2028, U+2029):
    # a value must not end its line for any reader that splits that way either.
    with open(path, encoding="utf-8", newline="") as f:
        records = RisParser().parse_lines(iter(f.read().splitlines()))
    return {"entries": [{"title": r.get("title", ""), "authors": r.get("authors", []), "url": (r.get("urls") or [""])[0],
                         "isbn": r.get("issn", "")} for r in records]}


def rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return {"rows": list(csv.reader(f))}


def main():
    kind, path = sys.argv[1], sys.argv[2]
    try:
        result = {"bibtex": bibtex, "ris": ris, "csv": rows}[kind](path)
    except Exception as error:  # the parser's refusal is the finding: say it and fail
        print(f"{kind} {path}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
