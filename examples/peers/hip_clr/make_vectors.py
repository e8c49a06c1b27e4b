#!/usr/bin/env python3
"""make_vectors.py WARPSPEC_CLI > findings.jsonl

Writes the minimal vectors of README.md's findings table as a warpspec-vectors/1 file. The
expectations are not written by hand: each state is evaluated with `warpspec eval --json`, and
`warpspec check` re-derives them again when it reads the file."""
import json, subprocess, sys

WS = sys.argv[1] if len(sys.argv) > 1 else "warpspec"
QNAN32, NZ32 = 0x7FC00000, 0x80000000
QNAN64, NZ64 = 0x7FF8000000000000, 0x8000000000000000

# (id, instruction, executing lanes -> (mask, a), exited lanes); every other lane is inactive.
CASES = [
    (1, "vote.sync.ballot.b32 d, a, m;", {0: (0x3, 1)}, [1]),
    (2, "vote.sync.any.pred d, a, m;", {0: (0x3, 1)}, [1]),
    (3, "vote.sync.all.pred d, a, m;", {0: (0x3, 1)}, [1]),
    (4, "match.any.sync.b32 d, a, m;", {0: (0x3, 5)}, [1]),
    (5, "match.all.sync.b32 d|p, a, m;", {0: (0x3, 5)}, [1]),
    (6, "match.any.sync.b32 d, a, m;", {0: (0x1, QNAN32)}, []),
    (7, "match.any.sync.b32 d, a, m;", {0: (0x3, 0), 1: (0x3, NZ32)}, []),
    (8, "match.all.sync.b32 d|p, a, m;", {0: (0x1, QNAN32)}, []),
    (9, "match.all.sync.b32 d|p, a, m;", {0: (0x3, 0), 1: (0x3, NZ32)}, []),
    (10, "match.any.sync.b64 d, a, m;", {0: (0x1, QNAN64)}, []),
    (11, "match.any.sync.b64 d, a, m;", {0: (0x3, 0), 1: (0x3, NZ64)}, []),
    (12, "match.all.sync.b64 d|p, a, m;", {0: (0x1, QNAN64)}, []),
    (13, "match.all.sync.b64 d|p, a, m;", {0: (0x3, 0), 1: (0x3, NZ64)}, []),
]

def word(bits):
    return "0x%08x" % bits

out = []
for vid, instr, ex, exited in CASES:
    b64 = ".b64" in instr
    pred = ".pred" in instr or "ballot" in instr
    masks = [ex[l][0] if l in ex else 0 for l in range(32)]
    a = [ex[l][1] if l in ex else 0 for l in range(32)]
    exited_w = sum(1 << l for l in exited)
    inactive_w = sum(1 << l for l in range(32) if l not in ex and l not in exited)
    fmt = (lambda x: "0x%016x" % x) if b64 else word
    cmd = [WS, "eval", instr, "--json",
           "--masks", ",".join(word(m) for m in masks),
           "--a", ",".join(str(x) if pred else fmt(x) for x in a),
           "--exited", word(exited_w), "--inactive", word(inactive_w)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 3):
        sys.exit("warpspec eval failed: %s\n%s" % (" ".join(cmd), r.stderr))
    ev = json.loads(r.stdout)
    lanes = ev["lanes"]
    defined = sum(1 << x["lane"] for x in lanes if x["defined"])
    d = [x["d"] if x["defined"] and x["d"] is not None else "0x00000000" for x in lanes]
    if pred:  # predicate results are 0/1 words in the vector files
        d = [word(int(v, 16)) if isinstance(v, str) else word(int(bool(v))) for v in d]
    expect = {"defined": word(defined), "d": d}
    if "d|p" in instr:
        expect["p"] = word(sum(1 << x["lane"] for x in lanes if x["defined"] and x.get("p")))
    expect["ub"] = ev["ub"]
    form = instr.split(" ")[0]
    out.append({"id": vid, "form": form, "instruction": instr, "ub": bool(ev["ub"]), "source": "boundary",
                "clauses": [], "rounds": [{"exited": word(exited_w), "inactive": word(inactive_w),
                                           "mask": [word(m) for m in masks],
                                           "a": [fmt(x) for x in a] if not pred else a,
                                           "expect": expect}]})
print(json.dumps({"schema": "warpspec-vectors/1", "target": "sm_90", "ptx": "8.8", "seed": 0,
                  "vectors": len(out)}, separators=(",", ":")))
for v in out:
    print(json.dumps(v, separators=(",", ":")))
