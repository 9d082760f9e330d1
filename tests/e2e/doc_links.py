#!/usr/bin/python3
"""Every file an installed doc links to is installed: follows the relative
links of README.md (and of every .md it reaches) from where they are
installed, as a reader's viewer resolves them.

    doc_links.py INSTALLED_README

Prints each link target it checked; exit 0 all present, 1 one is missing
(printed with the doc that links to it)."""
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    todo, seen, missing = [os.path.abspath(sys.argv[1])], set(), []
    while todo:
        doc = todo.pop()
        if doc in seen:
            continue
        seen.add(doc)
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
                continue
            path = os.path.normpath(os.path.join(os.path.dirname(doc), target))
            if not os.path.exists(path):
                missing.append("%s links to %s: not installed (%s)" % (os.path.basename(doc), target, path))
                continue
            print("ok: %s -> %s" % (os.path.basename(doc), target))
            if path.endswith(".md"):
                todo.append(path)
    for m in missing:
        print("FAIL: " + m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
