"""The C interface from Python through ctypes (python/warpspec.py): the same uses as the C test,
with expected values from the manual sections (a ballot holds lane i's predicate in bit i; an
exited lane takes no part; a block count counts the arriving threads with a non-zero predicate)."""
import sys

import warpspec as ws

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("expected:", what, file=sys.stderr)


ballot = ws.Instr("vote.sync.ballot.b32 d, a, m;")
expect(ballot.form == "vote.sync.ballot.b32" and not ballot.is_block, "form and kind")
s = ws.WarpState()
for i in range(32):
    s.a[i] = i % 2
s.status[1] = ws.EXITED
ans = ballot.eval(s)
expect(ans.d[0] == 0xaaaaaaa8 and not ans.defined[1] and ans.ub == [], "ballot without lane 1")

v = ballot.step(s, d=[0xaaaaaaa8] * 32)
expect(v.agree and not v.ub, "a right answer agrees")
v = ballot.step(s, d=[0xaaaaaaaa] * 32)
expect(not v and v.what == "d" and v.lanes == 0xfffffffd and v.clause.startswith("vote."),
       "the exited lane's bit kept: every executing lane departs")
text = ballot.explain(s, d=[0xaaaaaaaa] * 32)
expect("vote.sync.ballot.b32" in text and "differs" in text, "the explanation has a lane table")

expect(ws.Instr("bar.red.popc.u32").text == "bar.red.popc.u32 d, 0, a;", "a form's name alone")

try:
    ws.Instr("vote.sync.sideways.pred d, a, m;")
    expect(False, "an unknown instruction raises")
except ws.WarpspecError as e:
    expect(e.kind == "parse error" and "column" in str(e), "a parse error with its column")

popc = ws.Instr("bar.red.popc.u32 d, 0, a;")
b = ws.BlockState(64)
for t in range(64):
    b.pred[t] = int(t % 3 == 0)
expect(popc.eval(b).d == 22, "22 of 64 threads count")
expect(not popc.step(b, d=[21] * 64), "a count one short departs")

with ws.Vectors(sys.argv[1]) as vs:
    expect(vs.target == "sm_90", "the file's target")
    n = 0
    for vec in vs:
        n += 1
        for k in range(vec.rounds):
            state, e = vs.round(k)
            if vec.is_block:
                vs.answer(k, d=e.thread_d[:e.threads], present=e.executes[:e.threads])
            else:
                vs.answer(k, d=e.d, p=e.p, present=e.executes)
    report = vs.check()
expect(report and report.vectors == n and 0 < report.compared < n, "the spec's own answers pass")
expect("No mismatch" in report.text, "the text report")

with ws.Vectors(sys.argv[1]) as vs:
    for vec in vs:
        if vec.instr.form != "match.any.sync.b32":
            vs.skip()
            continue
        for k in range(vec.rounds):
            state, e = vs.round(k)
            vs.answer(k, d=[x | 1 for x in e.d], present=e.executes)  # lane 0 always matches
    report = vs.check()
expect(not report and report.mismatches > 0 and "match.any.sync.b32" in report.text,
       "a wrong match.any is caught")

if failures:
    print("%d failed expectations" % len(failures))
    sys.exit(1)
print("every expectation held")
