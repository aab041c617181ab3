#!/usr/bin/env python3
"""Compiles every code block of README.md that is C++ (```cpp) or OpenCL C (```c).

Every such block is checked unless a marker says otherwise: an HTML comment on the lines right
above the fence (blank lines between are allowed), one or more of

  <!-- snippet: skip WHY -->         not code (a sketch, pseudo-code): WHY is required
  <!-- snippet: run -->              a C++ fragment that is also run (--run): wrapped in main()
  <!-- snippet: given DECLARATIONS -->  names the fragment uses as other types than prelude.hpp's

C++ blocks:
  - a block with `int main(` is a whole program: compiled and linked against clatomics, and run
    with --run;
  - any other block is a fragment: its leading preprocessor lines, comments and blank lines stay
    at file scope, the rest becomes the body of a function, with prelude.hpp's names in scope
    (and the given ones declared first); checked with -fsyntax-only, or compiled, linked and run
    when marked `run` and --run is given.
OpenCL C blocks (--run only): built on the device by build_kernels (Runtime::build, the snippet
library prepended).

Errors point at README.md's own lines (#line). Blocks that #include <mpi.h> are compiled only
where --mpi-flags are given (CMake found MPI), and said to be skipped otherwise.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(\w+)\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")


class Block:
    def __init__(self, lang, line, lines, markers):
        self.lang, self.line, self.lines, self.markers = lang, line, lines, markers

    def marker(self, word):
        return [arg for w, arg in self.markers if w == word]


def parse(readme):
    """The fenced blocks: language, line of their first code line (1-based), lines, markers."""
    blocks, text = [], open(readme, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i + 1
        j = start
        while j < len(text) and not text[j].startswith("```"):
            j += 1
        if j == len(text):
            sys.exit(f"README.md:{i + 1}: a code block that never ends")
        markers, k = [], i - 1
        while k >= 0 and (not text[k].strip() or MARKER.match(text[k])):
            mm = MARKER.match(text[k])
            if mm:
                markers.insert(0, (mm.group(1), mm.group(2)))
            k -= 1
        for word, arg in markers:
            if word not in ("skip", "run", "given"):
                sys.exit(f"README.md:{i + 1}: unknown snippet marker '{word}' (skip, run, given)")
            if word == "skip" and not arg:
                sys.exit(f"README.md:{i + 1}: 'snippet: skip' needs a reason")
        blocks.append(Block(lang, start + 1, text[start:j], markers))
        i = j + 1
    return blocks


def is_file_scope(line):
    s = line.strip()
    return not s or s.startswith("#") or s.startswith("//")


def cpp_source(block, readme, with_main):
    """The translation unit of a C++ block; line numbers map back to README.md."""
    path = readme.replace("\\", "\\\\")
    if any("int main(" in l for l in block.lines):
        return f'#line {block.line} "{path}"\n' + "\n".join(block.lines) + "\n", True
    head = 0
    while head < len(block.lines) and is_file_scope(block.lines[head]):
        head += 1
    out = [f'#line {block.line} "{path}"'] + block.lines[:head]
    out += ['#line 1 "prelude"', '#include "prelude.hpp"', "int readme_snippet(int argc, char** argv) {",
            "  (void)argc; (void)argv;", "  using namespace readme;"]
    out += ["  " + g for g in block.marker("given")]
    out += [f'#line {block.line + head} "{path}"'] + block.lines[head:]
    out += ['#line 1 "wrapper"', "  return 0;", "}"]
    if with_main:
        out += ["#include <cstdio>", "#include <exception>",
                "int main(int argc, char** argv) {",
                "  try { return readme_snippet(argc, argv); }",
                '  catch (const std::exception& e) { std::fprintf(stderr, "%s\\n", e.what()); return 1; }', "}"]
    return "\n".join(out) + "\n", with_main


def run(cmd, timeout=300, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout


def check_cpp(block, args):
    """(ok, message) for one C++ block."""
    where = f"README.md:{block.line}"
    uses_mpi = any(re.match(r"\s*#\s*include\s*<mpi\.h>", l) for l in block.lines)
    runs = args.run and (bool(block.marker("run")) or any("int main(" in l for l in block.lines))
    if args.run and not runs:
        return True, None
    if uses_mpi and args.mpi_flags is None:
        return True, f"{where}: skipped (needs <mpi.h>; CMake found no MPI)"
    source, linked = cpp_source(block, args.readme, bool(block.marker("run")) and args.run)
    base = os.path.join(args.workdir, f"snippet_{block.line}")
    with open(base + ".cpp", "w", encoding="utf-8") as f:
        f.write(source)
    flags = ["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wno-unused",
             "-I", args.include, "-I", os.path.dirname(os.path.abspath(__file__))]
    if uses_mpi:
        flags += shlex.split(args.mpi_flags)
    if not runs:
        rc, log = run([args.cxx] + flags + ["-fsyntax-only", base + ".cpp"])
        return rc == 0, f"{where}: compiled" if rc == 0 else f"{where}: does not compile\n{log}"
    exe = base + ".exe"
    rc, log = run([args.cxx] + flags + [base + ".cpp", "-o", exe] + shlex.split(args.link))
    if rc != 0:
        return False, f"{where}: does not compile or link\n{log}"
    rc, log = run([exe])
    return rc == 0, f"{where}: ran" if rc == 0 else f"{where}: exited with {rc}\n{log}"


def check_kernels(blocks, args):
    files = []
    for block in blocks:
        path = os.path.join(args.workdir, f"kernel_{block.line}.cl")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'#line {block.line} "README.md"\n' + "\n".join(block.lines) + "\n")
        files.append(path)
    if not files:
        return []
    rc, log = run([args.build_kernels] + files)
    for block, path in zip(blocks, files):
        log = log.replace(path, f"README.md:{block.line}")
    return [(rc == 0, log.rstrip())]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True, help="the library's include directory")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--link", default="", help="what a program links: libclatomics.a, OpenCL, threads")
    ap.add_argument("--mpi-flags", default=None, help="compile flags for <mpi.h>")
    ap.add_argument("--run", action="store_true", help="build and run the programs and `run` fragments, build the OpenCL C")
    ap.add_argument("--build-kernels", help="the build_kernels program (with --run)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    # A folder of this run's own: the PoCL and Intel runs of one build may run at once.
    args.workdir = tempfile.mkdtemp(prefix="run-" if args.run else "compile-", dir=args.workdir)

    blocks = parse(args.readme)
    cpp = [b for b in blocks if b.lang == "cpp" and not b.marker("skip")]
    ocl = [b for b in blocks if b.lang == "c" and not b.marker("skip")]
    for b in blocks:
        for why in b.marker("skip"):
            print(f"README.md:{b.line}: skipped: {why}")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda b: check_cpp(b, args), cpp))
    if args.run:
        results += check_kernels(ocl, args)
    results = [r for r in results if r[1] is not None]  # None: not a check of this mode
    failed = 0
    for ok, message in results:
        if message:
            print(message)
        failed += not ok
    print(f"{len(results) - failed} of {len(results)} checks passed")
    if not failed:
        shutil.rmtree(args.workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
