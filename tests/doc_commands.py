#!/usr/bin/env python3
"""doc_commands.py SOURCE_DIR WALLBENCH [PLUGIN.so] - every shell command of README.md and
docs/*.md, run as written where it runs without a GPU. Run by tests/sh_docs.sh.

The commands are the lines of the pages' code blocks (indented or fenced sh) that start with a
command (wallbench, build/<row>/wallbench, $wb, make, python3, a harness/ script, ...), and the
inline `wallbench ...`, `make ...` and `python3 ...` spans of their text. Each is one of:
- needs a GPU (wallbench run, info, profile -- CMD; make run and make baseline; ncu; Slurm and a
  node's scripts): a code block's line says so in its comment, "(GPU)" or "(GPU ...)" (the same
  for a line that reads what a GPU line wrote); not run, its options checked as below;
- a pattern (placeholders: <run>, FILE, A.h5, [--option], a|b, ...): its subcommand and every
  --option must be in `wallbench SUB --help` (a make target and its VAR= in the Makefile, a
  script's path in the tree);
- runnable: run from a copy of the tree (results/ copied, the rest linked; /tmp/ paths and the
  example plugin's path point into it), in order within its block with the block's variables,
  and must exit 0 (check: 0 or 1, 1 being its verdict "violations"). An inline span runs when it
  names a file or needs none (list, --version); otherwise it is a mention of the command and its
  options are checked. make lines build and are not run here (make test is CI's run of them);
  python3 scripts run where h5py and numpy import; other shell steps (cp, cmake, git, ln) are
  counted, not run.
Prints one line per command and per problem; exit 1 on any problem, 0 otherwise."""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

CMD = re.compile(r"^(wallbench|build/[^/\s]+/wallbench|\$wb|\$W|make|python3|harness/[\w/.-]+\.(?:sh|py)|ncu|cmake|"
                 r"cp|ln|git|pip)(\s|$)")
ASSIGN = re.compile(r"^([A-Za-z_]\w*)=(\S*)")
GPU_MARK = re.compile(r"\(GPU\b[^)]*\)")
GPU_SUBCOMMANDS = {"run", "info"}
GPU_MAKE = {"run", "baseline"}
GPU_SCRIPTS = ("harness/slurm/", "harness/node_run.sh")
PLACEHOLDER = re.compile(r"<[^>]*>|^\[|\]$|\||^\.\.\.$|^[A-Z][A-Z0-9_-]*(\.h5|\.csv|\.so|\.py)?$|^[a-z]\.h5$")
PLUGIN_IN_DOCS = re.compile(r"(~|\$HOME)/mykernel/build/libwallbench_hashprobe\.so")

problems = []


def problem(where, msg):
    problems.append(msg)
    print(f"FAIL: {where}: {msg}")


def strip_comment(line):
    """(command, comment): the comment is what follows the first ' #' outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def blocks(text):
    """The code blocks of a page: fenced sh/bash/unlabelled ones and indented ones, as lists of
    (line number, line) with continuation lines joined."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = re.match(r"^```(\w*)", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if m.group(1) in ("", "sh", "bash"):
                out.append([(k + 1, lines[k]) for k in range(i + 1, j)])
            i = j + 1
            continue
        if lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            out.append([(k + 1, lines[k][4:]) for k in range(i, j) if lines[k].strip()])
            i = j
            continue
        i += 1
    joined = []
    for b in out:
        cur = []
        for n, line in b:
            line = line.strip()
            if cur and cur[-1][1].endswith("\\"):
                cur[-1] = (cur[-1][0], cur[-1][1][:-1].rstrip() + " " + line)
            else:
                cur.append((n, line))
        joined.append(cur)
    return joined


def inline_spans(text):
    body = re.sub(r"```.*?```", "", text, flags=re.S)
    for n, line in enumerate(body.split("\n"), 1):
        for span in re.findall(r"`([^`\n]+)`", line):
            if re.match(r"(wallbench|build/[^/\s]+/wallbench|make|python3) ", span):
                yield n, span


class Checker:
    def __init__(self, src, wb, plugin):
        self.src, self.wb, self.plugin = src, wb, plugin
        self.help = {}
        out = subprocess.run([wb, "--help"], capture_output=True, text=True).stdout
        self.subcommands = {l.split()[0] for l in out.split("commands:", 1)[1].split("\n\n", 1)[0].splitlines()
                            if l.strip()}
        self.makefile = open(os.path.join(src, "Makefile"), encoding="utf-8").read()
        self.tmp = tempfile.mkdtemp(prefix="doc-commands-")
        self.work = os.path.join(self.tmp, "tree")
        os.makedirs(self.work)
        for name in os.listdir(src):
            if name in (".git", "build"):
                continue
            if name == "results":
                shutil.copytree(os.path.join(src, name), os.path.join(self.work, name), symlinks=True)
            else:
                os.symlink(os.path.join(src, name), os.path.join(self.work, name))
        self.out = os.path.join(self.tmp, "out")
        os.makedirs(self.out)
        try:
            import h5py  # noqa: F401
            import numpy  # noqa: F401
            self.python_ok = True
        except ImportError:
            self.python_ok = False
        self.counts = {"run": 0, "gpu": 0, "pattern": 0, "mention": 0, "make": 0, "step": 0, "skipped": 0}

    def sub_help(self, sub):
        if sub not in self.help:
            r = subprocess.run([self.wb, sub, "--help"], capture_output=True, text=True)
            self.help[sub] = r.stdout + r.stderr
        return self.help[sub]

    def check_options(self, where, words):
        """A wallbench line's subcommand and --options against its --help; a make line's target and
        variables against the Makefile; a script's path against the tree."""
        tool = words[0]
        if tool == "WB":
            rest = [w for w in words[1:] if not PLACEHOLDER.search(w) or w.startswith("--")]
            if not rest or rest[0].startswith("-"):
                return
            sub = rest[0]
            if sub not in self.subcommands:
                return problem(where, f"wallbench {sub}: no such subcommand (wallbench --help)")
            text = self.sub_help(sub)
            if sub == "profile" and "--" in words:  # the program's own options follow "--"
                words = words[:words.index("--")]
            for w in words[2:]:
                for opt in re.findall(r"--[a-z][a-z0-9-]*", w.split("=", 1)[0]):
                    if opt not in text:
                        problem(where, f"wallbench {sub} {opt}: not in `wallbench {sub} --help`")
        elif tool == "make":
            for w in words[1:]:
                if "=" in w:
                    var = w.split("=", 1)[0]
                    if re.fullmatch(r"[A-Z_]+", var) and not re.search(rf"^{var} \?=", self.makefile, flags=re.M):
                        problem(where, f"make {var}=: the Makefile has no variable {var}")
                elif not PLACEHOLDER.search(w) and not re.search(rf"^{re.escape(w)}:", self.makefile, flags=re.M):
                    problem(where, f"make {w}: the Makefile has no target {w}")
        elif tool in ("python3",) or tool.startswith("harness/"):
            script = words[1] if tool == "python3" else tool
            if (script.startswith(("harness/", "examples/", "tests/", "plots/")) and "*" not in script
                    and not os.path.exists(os.path.join(self.src, script))):
                problem(where, f"{script}: not in the repository")

    def needs_gpu(self, words):
        tool = words[0]
        if tool == "WB" and len(words) > 1:
            sub = words[1]
            return sub in GPU_SUBCOMMANDS or (sub == "profile" and "--from-raw" not in words and "--" in words)
        if tool == "make":
            return any(w in GPU_MAKE for w in words[1:])
        return tool == "ncu" or tool.startswith(GPU_SCRIPTS)

    def words_of(self, cmd, env):
        cmd = cmd.replace("/tmp/", self.out + "/")  # the page's outputs into the copy, before paths that may be under /tmp
        cmd = PLUGIN_IN_DOCS.sub(self.plugin or "PLUGIN", cmd)
        for k, v in env.items():
            cmd = re.sub(r"\$\{?" + k + r"\b\}?", v, cmd)
        try:
            words = shlex.split(cmd, comments=False)
        except ValueError:
            words = cmd.split()
        return ["WB" if re.fullmatch(r"(build/[^/\s]+/)?wallbench", w) else w for w in words]

    def run(self, where, words, allow=(0,)):
        argv = []
        for w in words:  # the binary under test; globs expanded in the copy as a shell would
            a = self.wb if w == "WB" else w
            argv += (sorted(glob.glob(a, root_dir=self.work)) if "*" in a else []) or [a]
        r = subprocess.run(argv, cwd=self.work, capture_output=True, text=True, timeout=300)
        if r.returncode not in allow:
            tail = (r.stderr or r.stdout).strip().splitlines()[-2:]
            return problem(where, f"'{' '.join(words)}' exited {r.returncode}: {' / '.join(tail)}")
        self.counts["run"] += 1
        print(f"ok: {where}: ran {' '.join(words)} (exit {r.returncode})")

    def command(self, where, cmd, comment, env, block):
        words = self.words_of(cmd, env)
        if not words:
            return
        tool = words[0]
        marked = bool(GPU_MARK.search(comment))
        gpu = self.needs_gpu(words)
        if block and gpu and not marked:
            return problem(where, f"'{cmd}' needs a GPU: say so in its comment, '# (GPU) ...'")
        pattern = bool(re.search(r"<[^>]*>", cmd)) or any(PLACEHOLDER.search(w) for w in words[1:]
                                                         if not re.match(r"^[A-Z]+=", w))
        if tool not in ("WB", "make", "python3") and not tool.startswith("harness/") and tool != "ncu":
            self.counts["step"] += 1
            return print(f"step (not run): {where}: {cmd}")
        self.check_options(where, words)
        if marked or gpu:
            self.counts["gpu"] += 1
            return print(f"GPU (not run): {where}: {cmd}")
        if tool == "make":
            self.counts["make"] += 1
            return print(f"make (builds; make test runs it): {where}: {cmd}")
        if pattern:
            self.counts["pattern"] += 1
            return print(f"pattern (options checked): {where}: {cmd}")
        if tool == "WB" and not block:
            names_file = any(re.search(r"\.(h5|txt)$", w) or w.startswith("results/") for w in words[1:])
            self_contained = words[1:2] in (["list"], ["--version"]) or words[1:3] == ["check", "--metrics"]
            if not names_file and not self_contained:
                self.counts["mention"] += 1
                return print(f"mention (options checked): {where}: {cmd}")
        if tool != "WB":
            if tool.startswith("harness/") and not tool.endswith(".py"):
                self.counts["step"] += 1
                return print(f"script (acts on this machine; not run): {where}: {cmd}")
            if not os.path.exists(os.path.join(self.src, words[1] if tool == "python3" else tool)):
                self.counts["mention"] += 1
                return print(f"mention (a program of the reader's, not in the tree): {where}: {cmd}")
            if not self.python_ok:
                self.counts["skipped"] += 1
                return print(f"skipped (python3 lacks h5py or numpy): {where}: {cmd}")
        self.run(where, words, (0, 1) if words[1:2] == ["check"] else (0,))

    def page(self, path):
        text = open(path, encoding="utf-8").read()
        rel = os.path.relpath(path, self.src)
        for b in blocks(text):
            env = {}
            for n, line in b:
                if line.startswith("#"):
                    continue
                cmd, comment = strip_comment(line)
                for part in [p.strip() for p in cmd.split(";") if p.strip()]:
                    m = ASSIGN.match(part)
                    if m and not CMD.match(part):  # the block's variables (wb=build/h200/wallbench; rec=...)
                        env[m.group(1)] = m.group(2).strip("'\"")
                        continue
                    if CMD.match(part):
                        self.command(f"{rel}:{n}", part, comment, env, True)
        for n, span in inline_spans(text):
            self.command(f"{rel}:{n} (inline)", span, "", {}, False)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    src, wb = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    plugin = os.path.abspath(sys.argv[3]) if len(sys.argv) == 4 and os.path.exists(sys.argv[3]) else None
    c = Checker(src, wb, plugin)
    try:
        for path in [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md"))):
            c.page(path)
    finally:
        shutil.rmtree(c.tmp, ignore_errors=True)
    print("doc commands: " + ", ".join(f"{v} {k}" for k, v in c.counts.items()) + f"; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
