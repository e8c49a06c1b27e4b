#!/usr/bin/env python3
"""What the main build must build for the tests it runs (scripts/bootstrap.sh --test).

    main_targets.py MAIN_BUILD SANITIZER_BUILD PATTERN

The sanitizer build runs every test but those matching PATTERN (a CMake regular expression
that names the longest tests); the main build runs those, and the tests the sanitizer build does
not have. Both builds are configured, the sanitizer build is built. Prints, one per line, the
ninja targets of the main build: everything but its test programs, and the test programs its
own tests run. A test program whose every test runs under the sanitizers is left out, which is
most of them: they were a third of the main build's compile time.
"""
import json
import os
import re
import subprocess
import sys


def ctest_tests(build):
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["tests"]


def build_files(test, build):
    """The files under `build` that a test's command names, relative to it."""
    root = os.path.abspath(build) + os.sep
    found = set()
    for arg in test.get("command", []):
        for part in (arg, arg.split("=", 1)[-1]):
            if part.startswith(root):
                found.add(part[len(root):])
    return found


def ninja(build, *args):
    return subprocess.run(["ninja", "-C", build, *args], check=True, capture_output=True,
                          text=True).stdout


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main_build, asan_build, pattern = sys.argv[1:]
    longest = re.compile("^(" + pattern + ")")
    asan_tests = ctest_tests(asan_build)
    asan_names = {t["name"] for t in asan_tests}
    asan_programs = set()
    needed = set()
    for t in asan_tests:
        files = build_files(t, asan_build)
        asan_programs |= {os.path.basename(f) for f in files}
        if longest.match(t["name"]):
            needed |= files
    outputs = {line.rsplit(": ", 1)[0] for line in ninja(main_build, "-t", "targets", "all")
               .splitlines()}
    for t in ctest_tests(main_build):
        name = t["name"]
        # The tests of a GoogleTest program not built yet stand as PROGRAM_NOT_BUILT: a program
        # the sanitizer build does not have runs all its tests here.
        if name.endswith("_NOT_BUILT"):
            program = name[: -len("_NOT_BUILT")]
            if program not in asan_programs:
                needed |= {f for f in outputs if os.path.basename(f) == program}
            continue
        if name not in asan_names:
            needed |= build_files(t, main_build)
    # The top of the build, a folder at a time: everything outside tests/ stays.
    query = ninja(main_build, "-t", "query", "all").splitlines()
    start = query.index("  input: phony") + 1
    end = query.index("  outputs:")
    top = [line.strip() for line in query[start:end]]
    if "tests/all" not in top:
        sys.exit("main_targets.py: the main build has no tests/all target")
    targets = [t for t in top if t != "tests/all"]
    targets += sorted(f for f in needed if f.startswith("tests" + os.sep) and f in outputs)
    print("\n".join(targets))


if __name__ == "__main__":
    main()
