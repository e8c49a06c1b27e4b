#!/usr/bin/env python3
"""Runs the fourteenth bug set against a vector file: the correct simulator must agree with
`warpspec check` (exit 0), and every bug of bugs.tsv must be caught (exit 1) or refused (exit 65).

usage: run.py WARPSPEC VECTORS.jsonl WORK_DIR
Prints one line per bug; exits 1 when the correct simulator disagrees or a bug survives.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sim  # noqa: E402  (the simulator, as a module: one interpreter for every bug)


def results(vectors, out, bug):
    sim.BUG = bug
    sys.argv = ['sim.py', vectors, out]
    sim.main()


def check(warpspec, vectors, out):
    return subprocess.run([warpspec, 'check', '--vectors', vectors, '--results', out],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    warpspec, vectors, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    bugs = [l.split('\t')[0] for l in open(os.path.join(HERE, 'bugs.tsv'))
            if l.strip() and not l.startswith('#')]
    out = os.path.join(work, 'correct.jsonl')
    results(vectors, out, None)
    r = check(warpspec, vectors, out)
    if r.returncode != 0:
        print('the correct simulator does not agree (exit %d):\n%s' % (r.returncode, r.stdout))
        return 1
    survivors = []
    for b in bugs:
        out = os.path.join(work, b + '.jsonl')
        results(vectors, out, b)
        rc = check(warpspec, vectors, out).returncode
        verdict = {1: 'killed', 65: 'refused', 0: 'SURVIVES'}.get(rc, 'exit %d' % rc)
        print('%-9s %s' % (verdict, b))
        if rc not in (1, 65):
            survivors.append(b)
    print('%d of %d bugs caught' % (len(bugs) - len(survivors), len(bugs)))
    return 1 if survivors else 0


if __name__ == '__main__':
    sys.exit(main())
