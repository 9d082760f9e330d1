#!/usr/bin/python3
"""Every file an installed doc links to is installed: follows the relative
links of README.md and of every .md installed beside it (the ones README
only names in its text, doc/findings.md, as well), from where they are
installed, as a reader's viewer resolves them; and every doc/NAME.md or
doc/NAME.png a doc names in its text (paths from the top of the tree, as
README writes them) is installed under the README's folder.

    doc_links.py INSTALLED_README

Prints each link target it checked; exit 0 all present, 1 one is missing
(printed with the doc that links to it)."""
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
NAMED = re.compile(r"(?<![\w/.-])((?:doc|monitoring)/[\w.-]+\.(?:md|png|yml|json))")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    readme = os.path.abspath(sys.argv[1])
    top = os.path.dirname(readme)
    todo, seen, missing = [readme], set(), []
    for d, _, files in sorted(os.walk(top)):
        todo += sorted(os.path.join(d, f) for f in files if f.endswith(".md"))
    todo.reverse()
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
        for named in sorted(set(NAMED.findall(text))):
            if not os.path.exists(os.path.join(top, named)):
                missing.append("%s names %s: not installed (%s)" % (os.path.basename(doc), named, os.path.join(top, named)))
            else:
                print("ok: %s names %s" % (os.path.basename(doc), named))
    for m in missing:
        print("FAIL: " + m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
