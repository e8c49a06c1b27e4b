"""Progress lines: shown on standard error when it is a terminal, absent when it is not.

    progress_test.py WARPSPEC

Runs `prove` and `vectors` (with Z3's witnesses, one form) once with standard error on a
pseudo-terminal and once on a pipe. On the terminal each shows its count of work done and clears
its line at the end; on the pipe standard error holds no carriage return. Standard output is the
same either way.
"""
import os
import pty
import re
import subprocess
import sys


def run(cmd, tty):
    if not tty:
        p = subprocess.run(cmd, capture_output=True, check=False)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        err += chunk
    out = p.stdout.read()
    p.wait()
    os.close(master)
    return p.returncode, out, err


def main():
    warpspec = sys.argv[1]
    cases = [
        ([warpspec, "prove", "vote.any_is_ballot_nonzero", "vote.uni_is_all_or_none"],
         b"2 of 2 done"),
        ([warpspec, "vectors", "--form", "vote.sync.uni.pred", "-o", os.devnull],
         b"Z3 witnesses: 1 of 1 forms done (vote.sync.uni.pred)"),
    ]
    failed = False
    for cmd, expected in cases:
        rc_tty, out_tty, err_tty = run(cmd, True)
        rc_pipe, out_pipe, err_pipe = run(cmd, False)
        name = " ".join(cmd[1:3])
        # Times differ from run to run, and with them the order of prove's slowest properties;
        # all else is the same.
        same = [re.sub(rb"[0-9.]+ s\b", b"T", re.sub(rb"(?m)^slowest:.*$", b"", x))
                for x in (out_tty, out_pipe)]
        after = err_tty.rsplit(b"\r\x1b[K", 1)[-1]
        checks = [
            (rc_tty == 0 and rc_pipe == 0, "exit codes %d and %d" % (rc_tty, rc_pipe)),
            (expected in err_tty, "no %r on the terminal: %r" % (expected, err_tty[-300:])),
            (after == err_pipe, "the line is not cleared before what follows: %r" % after[-120:]),
            (b"\r" not in err_pipe, "a carriage return on a pipe: %r" % err_pipe[-120:]),
            (same[0] == same[1], "standard output differs between the two runs"),
        ]
        for ok, why in checks:
            if not ok:
                print("%s: %s" % (name, why))
                failed = True
    if failed:
        sys.exit(1)
    print("progress shown on a terminal and absent on a pipe")


if __name__ == "__main__":
    main()
