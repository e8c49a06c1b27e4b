#!/usr/bin/env python3
"""crosscheck_model.py RESULTS VECTORS [--assert] [--float]

An independent, hand-written model of ROCm/clr's amd_warp_sync_functions.h at the source level,
used to validate the CPU emulation: it predicts, per round, what the header does on an AMD wave
(EXEC = the executing lanes) and compares that with a results file the adapter wrote.
  --assert  the build with __hip_assert on: the waterfall traps unless, for every mask value,
            the executing lanes passing it are exactly the lanes it names (and it is not 0)
  --float   match.* through the float/double overloads (IEEE ==), else unsigned/ull (bit ==)
A trap or a loop that never ends is predicted as a hang (the adapter answers both hang=1)."""
import json, math, struct, sys

args = [a for a in sys.argv[1:] if not a.startswith('--')]
ASSERT, FLOAT = '--assert' in sys.argv, '--float' in sys.argv
res_path, vec_path = args

def val(bits, b64):
    if not FLOAT:
        return bits
    if b64:
        return struct.unpack('<d', struct.pack('<Q', bits))[0]
    return struct.unpack('<f', struct.pack('<I', bits & 0xffffffff))[0]

def predict(form, instr, execs, masks, a):
    """-> ('hang', None) or ('ok', {lane: (d, p)})"""
    groups = {}
    for i in execs:
        groups.setdefault(masks[i], []).append(i)
    if ASSERT:
        for mk, g in groups.items():
            if mk == 0 or mk != sum(1 << i for i in g):
                return 'hang', None  # __builtin_trap
    out = {}
    if form.startswith('vote.'):
        neg = '!a' in instr
        p = {i: (not a[i]) if neg else (a[i] != 0) for i in execs}
        ballot = sum(1 << i for i in execs if p[i])
        for i in execs:
            b = ballot & masks[i]
            d = b if 'ballot' in form else int(b != 0) if '.any.' in form else int(b == masks[i])
            out[i] = (d, None)
        return 'ok', out
    b64 = form.endswith('b64')
    x = {i: val(a[i], b64) for i in execs}
    if form.startswith('match.any'):
        if FLOAT and any(math.isnan(x[i]) for i in execs):
            return 'hang', None  # the waterfall never retires the NaN lane
        for i in execs:
            out[i] = (sum(1 << j for j in execs if x[j] == x[i]) & masks[i], None)
        return 'ok', out
    for mk, g in groups.items():  # match.all: one waterfall step per mask value
        ok = all(x[g[0]] == x[i] for i in g)
        for i in g:
            out[i] = (sum(1 << j for j in g) if ok else 0, int(ok))
    return 'ok', out

V = [json.loads(l) for l in open(vec_path)][1:]
R = {r['id']: r for r in (json.loads(l) for l in open(res_path)) if 'id' in r}
same = differ = 0
for v in V:
    r = R.get(v['id'])
    if r is None or r.get('skipped'):
        continue
    rounds = r.get('rounds') or [r]
    for k, rd in enumerate(v['rounds']):
        ex, ina = int(rd['exited'], 16), int(rd['inactive'], 16)
        execs = [i for i in range(32) if not (ex >> i) & 1 and not (ina >> i) & 1]
        m = rd['mask']
        masks = [int(x, 16) for x in m] if isinstance(m, list) else [int(m, 16)] * 32
        a = rd['a']
        a = [int(x, 16) if isinstance(x, str) else x for x in a] if isinstance(a, list) else \
            [int(a, 16) if isinstance(a, str) else a] * 32
        kind, out = predict(v['form'], v['instruction'], execs, masks, a)
        got = rounds[k] if k < len(rounds) else None
        ghang = got is not None and got.get('hang', False)
        if kind == 'hang':
            ok = ghang
        else:
            def num(x):
                return int(x, 16) if isinstance(x, str) else int(x)
            ok = got is not None and not ghang and all(
                got['d'][i] is not None and num(got['d'][i]) == out[i][0] and
                (out[i][1] is None or got['p'][i] == out[i][1]) for i in execs)
        same += ok
        differ += not ok
        if not ok:
            print('differs: vector', v['id'], 'round', k + 1, 'predicted', kind)
        if kind == 'hang' or ghang:
            break  # the adapter runs no round after a hang
print('model vs emulation (%s, %s): %d rounds agree, %d differ' %
      ('assert' if ASSERT else 'NDEBUG', 'float' if FLOAT else 'integer', same, differ))
sys.exit(1 if differ else 0)
