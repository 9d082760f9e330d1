#!/usr/bin/python3
"""Docs that match the program (issue 12).

    cli_docs.py MODE NFSSCOPE REPO_DIR [--update]

MODE options: every option --help lists is described in doc/nfsscope.1 and
    every option the man page describes is in --help (read generically from
    both: option lines of --help, .TP items of the man page).
MODE kinds: the finding kinds --fail-on accepts (its error message lists
    them) are the man page's list and each has its rule in doc/findings.md.
MODE deps: scripts/sample.sh installs only the program's packages
    (scripts/deps.sh --run: RUN_PKGS), none of the test tools (TEST_PKGS),
    and scripts/test.sh installs both.
MODE readme: every README block preceded by a line
    <!-- output: COMMAND -->
    equals what COMMAND prints now (run by bash in REPO_DIR, with the
    nfsscope under test first on PATH). --update rewrites those blocks.
"""
import os
import re
import subprocess
import sys

OPT = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")


def help_options(n):
    out = subprocess.run([n, "--help"], capture_output=True, text=True, check=True).stdout
    opts = set()
    for line in out.splitlines():
        if re.match(r"^  -", line):  # an option line, not a description's continuation
            head = re.split(r"\s{2,}", line.strip())[0]
            opts.update(OPT.findall(head))
    return opts


def roff_plain(s):
    s = s.replace("\\-", "-")
    return re.sub(r"\\f[BIRP]", "", s)


def man_options(path):
    lines = open(path).read().splitlines()
    opts = set()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == ".TP" and lines[i + 1].startswith((".B", ".BI")):
            item = roff_plain(lines[i + 1].split(" ", 1)[1] if " " in lines[i + 1] else "")
            item = item.split('"')[0]  # .BI \-r " FILE": the argument is not an option
            opts.update(o for o in OPT.findall(item) if o.startswith("-"))
    return opts


def check_options(n, repo):
    h, m = help_options(n), man_options(os.path.join(repo, "doc/nfsscope.1"))
    errors = []
    if not h or not m:
        errors.append("no options read: --help %d, man page %d" % (len(h), len(m)))
    for o in sorted(h - m):
        errors.append("%s is in --help but not described in doc/nfsscope.1" % o)
    for o in sorted(m - h):
        errors.append("%s is described in doc/nfsscope.1 but not in --help" % o)
    print("options in --help and the man page: %d, %s" % (len(h & m), " ".join(sorted(h & m))))
    return errors


def check_kinds(n, repo):
    r = subprocess.run([n, "-r", "/dev/null", "--fail-on", "NO_SUCH_KIND"], capture_output=True, text=True)
    mm = re.search(r"valid kinds: (.*)$", r.stderr.strip())
    if r.returncode != 1 or not mm:
        return ["--fail-on NO_SUCH_KIND: exit %d, stderr %r" % (r.returncode, r.stderr)]
    prog = set(mm.group(1).split())
    man = roff_plain(open(os.path.join(repo, "doc/nfsscope.1")).read())
    ml = re.search(r"The kinds \(doc/findings.md says when each fires\):(.*?)\n\.", man, re.S)
    man_kinds = set(re.findall(r"[A-Z][A-Z_]+[A-Z]", ml.group(1))) if ml else set()
    errors = []
    if prog != man_kinds:
        errors.append("--fail-on kinds %s != man page %s" % (sorted(prog), sorted(man_kinds)))
    doc = open(os.path.join(repo, "doc/findings.md")).read()
    storm = re.search(r"`<K>_STORM` for K in ([A-Z_, ]+)", doc)
    storms = {k.strip() + "_STORM" for k in storm.group(1).split(",")} if storm else set()
    for k in sorted(prog):
        if "| `%s` |" % k not in doc and k not in storms:
            errors.append("finding kind %s has no row in doc/findings.md" % k)
    print("finding kinds (program = man page = doc/findings.md): %d" % len(prog))
    return errors


def check_deps(repo):
    deps = os.path.join(repo, "scripts/deps.sh")
    sets = {}
    for which in ("RUN_PKGS", "TEST_PKGS"):
        r = subprocess.run(["bash", "-c", 'eval "$(grep "^%s=" "$1")"; echo "${%s[@]}"' % (which, which), "x", deps],
                           capture_output=True, text=True)
        sets[which] = set(r.stdout.split())
    run, test = sets["RUN_PKGS"], sets["TEST_PKGS"]
    errors = []
    if not run or not test:
        errors.append("RUN_PKGS or TEST_PKGS missing in scripts/deps.sh")
    for tool in ("tshark", "clang", "tmux", "tcpreplay", "python3"):
        if tool in run:
            errors.append("%s is in RUN_PKGS: sample.sh would install a test tool" % tool)
        if tool not in test:
            errors.append("%s is not in TEST_PKGS" % tool)
    for need in ("libpcap-dev", "cmake", "build-essential", "pkg-config"):
        if need not in run:
            errors.append("%s, which the build needs, is not in RUN_PKGS" % need)
    sample = open(os.path.join(repo, "scripts/sample.sh")).read()
    testsh = open(os.path.join(repo, "scripts/test.sh")).read()
    if not re.search(r"^scripts/deps.sh --run$", sample, re.M):
        errors.append("scripts/sample.sh does not call scripts/deps.sh --run")
    if not re.search(r"^scripts/deps.sh$", testsh, re.M):
        errors.append("scripts/test.sh does not call scripts/deps.sh (everything)")
    print("sample.sh installs %s; test.sh adds %s" % (" ".join(sorted(run)), " ".join(sorted(test))))
    return errors


BLOCK = re.compile(r"(<!-- output: (.*?) -->\n```\n)(.*?)(```\n)", re.S)


def run_cmd(cmd, n, repo):
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(n)) + os.pathsep + os.environ["PATH"])
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=repo, env=env, capture_output=True, text=True)
    return r.stdout


def check_readme(n, repo, update):
    path = os.path.join(repo, "README.md")
    text = open(path).read()
    errors, count = [], 0

    def sub(m):
        nonlocal count
        count += 1
        got = run_cmd(m.group(2), n, repo)
        if got != m.group(3):
            if not update:
                a, b = m.group(3).splitlines(), got.splitlines()
                first = next((i for i in range(max(len(a), len(b)))
                              if i >= len(a) or i >= len(b) or a[i] != b[i]), 0)
                errors.append("README block of `%s` differs from the program's output at line %d:\n  README:  %r\n  program: %r"
                              % (m.group(2), first + 1, a[first] if first < len(a) else None,
                                 b[first] if first < len(b) else None))
        return m.group(1) + got + m.group(4)

    new = BLOCK.sub(sub, text)
    if count == 0:
        errors.append("README has no <!-- output: ... --> block")
    if update and new != text:
        open(path, "w").write(new)
        print("README.md: blocks rewritten")
    print("README blocks generated by the program: %d" % count)
    return errors


def main():
    mode, n, repo = sys.argv[1], sys.argv[2], sys.argv[3]
    update = "--update" in sys.argv[4:]
    errors = {"options": lambda: check_options(n, repo), "kinds": lambda: check_kinds(n, repo),
              "readme": lambda: check_readme(n, repo, update), "deps": lambda: check_deps(repo)}[mode]()
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
