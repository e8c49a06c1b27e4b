"""Checking an implementation of the warp-level primitives from Python, against a vector file.

The "implementation" here is a few lines per primitive, written from the PTX ISA: vote.sync
(all, any, uni, ballot), match.sync (any, all) and redux.sync on the integers. Replace `my_warp`
with a call into your simulator. Forms it does not implement (the barriers) are skipped, and the
report says so.

    PYTHONPATH=python python3 examples/check_in_python/check_suite.py tests/data/vectors/sm_90-default.jsonl
    ... --bug      (its match.any compares only the low 32 bits of a .b64 operand)
"""
import sys

import warpspec as ws

BUG = "--bug" in sys.argv[2:]


def to_s32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >> 31 else x


def my_warp(form, state, negate):
    """d, p and which lanes answered, for one warp state; None when the form is not implemented."""
    d, p, present = [0] * 32, [0] * 32, [0] * 32
    wide = form.endswith("b64")
    for i in range(32):
        if state.status[i] != ws.EXECUTES:
            continue
        present[i] = 1
        part = [j for j in range(32) if state.mask[i] >> j & 1 and state.status[j] != ws.EXITED]
        bits = lambda j: state.a[j] if wide and not BUG else state.a[j] & 0xffffffff
        a32 = [state.a[j] & 0xffffffff for j in part]
        yes = sum(1 << j for j in part if (state.a[j] & 0xffffffff != 0) != negate)
        every = sum(1 << j for j in part)
        if form == "vote.sync.ballot.b32":
            d[i] = yes
        elif form == "vote.sync.all.pred":
            d[i] = int(yes == every)
        elif form == "vote.sync.any.pred":
            d[i] = int(yes != 0)
        elif form == "vote.sync.uni.pred":
            d[i] = int(yes in (0, every))
        elif form.startswith("match.any"):
            d[i] = sum(1 << j for j in part if bits(j) == bits(i))
        elif form.startswith("match.all"):
            same = all(bits(j) == bits(part[0]) for j in part)
            d[i], p[i] = (every if same else 0), int(same)
        elif form.startswith("redux.sync") and not form.endswith("f32"):
            op = form.split(".")[2]
            signed = form.endswith("s32")
            key = to_s32 if signed else (lambda x: x)
            if op == "add":
                d[i] = sum(a32) & 0xffffffff
            elif op == "min":
                d[i] = min(a32, key=key)
            elif op == "max":
                d[i] = max(a32, key=key)
            else:
                acc = a32[0]
                for x in a32[1:]:
                    acc = acc & x if op == "and" else acc | x if op == "or" else acc ^ x
                d[i] = acc
        else:
            return None
    return d, p, present


def main():
    if len(sys.argv) < 2:
        print("usage: check_suite.py VECTORS.jsonl [--bug]", file=sys.stderr)
        return 2
    with ws.Vectors(sys.argv[1]) as vs:
        for vec in vs:
            if vec.is_block:
                continue  # not implemented here: counted as skipped
            for k in range(vec.rounds):
                state, _ = vs.round(k)
                answer = my_warp(vec.instr.form, state, vec.instr.negates)
                if answer is None:
                    break
                d, p, present = answer
                vs.answer(k, d=d, p=p if vec.instr.writes_p else None, present=present)
        report = vs.check()
    print(report.text, end="")
    return 2 if report.compared == 0 else 1 if report.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
