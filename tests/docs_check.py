#!/usr/bin/env python3
"""docs_check.py SOURCE_DIR WALLBENCH - keeps the README and docs/ honest where
a machine can tell: the README stays a front door (at most 200 lines), every
relative link of README.md, docs/*.md and results/**/*.md resolves (file and
#anchor), every repository path they name in backticks
exists, the schema version docs/results-format.md states is the code's
(WB_SCHEMA_VERSION, WB_SCHEMA_OLDEST), CITATION.cff's version is WB_VERSION,
and the README's subcommand table lists exactly the commands of
`wallbench --help`. Prints one line per problem;
exit 1 if any, 0 otherwise. Run by tests/sh_docs.sh."""
import os
import re
import subprocess
import sys

README_MAX_LINES = 200
# Named in the docs but delivered by another branch of the same release (empty
# now: `wallbench profile` and docs/adding-a-family.md have landed). Each must
# still be missing: once it exists this check fails and asks for its line here
# to go, so the list cannot rot.
PENDING_COMMANDS = set()
PENDING_FILES = set()
# Top folders whose paths the docs name in backticks (a path outside them,
# or with a placeholder such as <profile> or a glob, is not checked).
TOP = ("harness/", "micro/", "kernels/", "plots/", "results/", "tests/", "docs/", "examples/", "cmake/")
# Words that mark a path as an example of what a user would create.
EXAMPLE_WORDS = ("foo", "h800", "mykernel")

problems = []


def problem(msg):
    problems.append(msg)
    print("FAIL: " + msg)


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces to -."""
    h = re.sub(r"`", "", heading.strip().lower())
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(path):
    out, seen = set(), {}
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if m:
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def markdown_files(src):
    files = [os.path.join(src, "README.md")]
    for sub in ("docs", "results"):
        for root, _, names in os.walk(os.path.join(src, sub)):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".md")]
    return files


def strip_code(text):
    """The text outside fenced blocks (links inside code are examples)."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def check_links(src, path):
    text = strip_code(open(path, encoding="utf-8").read())
    rel = os.path.relpath(path, src)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        dest_rel = os.path.relpath(dest, src)
        if dest_rel in PENDING_FILES:
            continue
        if not os.path.exists(dest):
            problem(f"{rel}: link '{target}' names {dest_rel}, which does not exist")
            continue
        if anchor and dest.endswith(".md") and anchor not in anchors(dest):
            problem(f"{rel}: link '{target}': {dest_rel} has no heading with the anchor #{anchor}")


# A restore line names a file that left the tree (results/HISTORY.md): `git show REV:PATH` or
# `git archive REV PATH`. Such a path must exist at REV instead; where REV is not in this clone (a
# shallow one) it cannot be checked and is let through.
HISTORY_REV = re.compile(r"git (?:show|archive) ([0-9a-f]{7,40})\b")


def in_history(src, rev, word):
    if subprocess.run(["git", "-C", src, "cat-file", "-e", rev + "^{commit}"], capture_output=True).returncode:
        return True
    return subprocess.run(["git", "-C", src, "cat-file", "-e", f"{rev}:{word.rstrip('/')}"],
                          capture_output=True).returncode == 0


def check_paths(src, path):
    rel = os.path.relpath(path, src)
    for line in open(path, encoding="utf-8").read().split("\n"):
        revs = HISTORY_REV.findall(line)
        for span in re.findall(r"`([^`\n]+)`", line):
            for word in span.replace(":", " ").split():
                word = word.rstrip(".,;:)")
                if not word.startswith(TOP) or re.search(r"[<>{}*?\[\]$|=]", word) or "..." in word:
                    continue
                if word in PENDING_FILES or any(w in word for w in EXAMPLE_WORDS):
                    continue
                if os.path.exists(os.path.join(src, word)):
                    continue
                if revs and any(in_history(src, rev, word) for rev in revs):
                    continue
                problem(f"{rel}: names `{word}`, which is not in the repository"
                        + (f" nor at {', '.join(revs)}" if revs else ""))


def check_schema(src):
    header = open(os.path.join(src, "harness/store/schema.h"), encoding="utf-8").read()
    version = int(re.search(r"#define WB_SCHEMA_VERSION (\d+)", header).group(1))
    oldest = int(re.search(r"#define WB_SCHEMA_OLDEST (\d+)", header).group(1))
    doc = open(os.path.join(src, "docs/results-format.md"), encoding="utf-8").read()
    m = re.search(r"writes `schema_version` = (\d+)", doc)
    if not m:
        problem("docs/results-format.md: no sentence 'writes `schema_version` = N' to check")
    elif int(m.group(1)) != version:
        problem(f"docs/results-format.md states schema_version {m.group(1)}; the code writes {version} "
                "(WB_SCHEMA_VERSION, harness/store/schema.h)")
    m = re.search(r"reads files of version (\d+) to (\d+)", doc)
    if not m or (int(m.group(1)), int(m.group(2))) != (oldest, version):
        problem(f"docs/results-format.md: 'reads files of version {oldest} to {version}' expected "
                f"(WB_SCHEMA_OLDEST..WB_SCHEMA_VERSION), found {m.group(0) if m else 'none'}")


def check_version(src):
    code = open(os.path.join(src, "harness/commands.h"), encoding="utf-8").read()
    cff = open(os.path.join(src, "CITATION.cff"), encoding="utf-8").read()
    v = re.search(r'#define WB_VERSION "([^"]+)"', code)
    c = re.search(r'^version: "([^"]+)"', cff, flags=re.M)
    if not v or not c or v.group(1) != c.group(1):
        problem(f"CITATION.cff states version {c.group(1) if c else 'none'}, `wallbench --version` "
                f"{v.group(1) if v else 'none'} (WB_VERSION, harness/commands.h)")


def check_commands(src, wallbench):
    out = subprocess.run([wallbench, "--help"], capture_output=True, text=True).stdout
    block = out.split("commands:", 1)[1].split("\n\n", 1)[0]
    code = {line.split()[0] for line in block.splitlines() if line.strip()}
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    section = readme.split("## Subcommands", 1)
    if len(section) < 2:
        problem("README.md: no '## Subcommands' section")
        return
    table = section[1].split("\n## ", 1)[0]
    docs = set(re.findall(r"^\| `([a-z]+)` \|", table, flags=re.M))
    for c in sorted(code - docs):
        problem(f"README.md: the subcommand table lacks `{c}` (in `wallbench --help`)")
    for c in sorted(docs - code - PENDING_COMMANDS):
        problem(f"README.md: the subcommand table lists `{c}`, which `wallbench --help` does not have")
    for c in sorted(PENDING_COMMANDS & code):
        problem(f"`{c}` is in `wallbench --help` now: remove it from PENDING_COMMANDS in tests/docs_check.py")
    for f in sorted(PENDING_FILES):
        if os.path.exists(os.path.join(src, f)):
            problem(f"{f} exists now: remove it from PENDING_FILES in tests/docs_check.py")


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    src, wallbench = sys.argv[1], sys.argv[2]
    n = sum(1 for _ in open(os.path.join(src, "README.md"), encoding="utf-8"))
    if n > README_MAX_LINES:
        problem(f"README.md has {n} lines, more than {README_MAX_LINES}: move the detail to docs/")
    for path in markdown_files(src):
        check_links(src, path)
    for path in markdown_files(src):
        check_paths(src, path)
    check_schema(src)
    check_version(src)
    check_commands(src, wallbench)
    print(f"docs: README {n} lines, {len(markdown_files(src))} markdown files checked, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
