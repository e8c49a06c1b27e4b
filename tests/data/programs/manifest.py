"""What the derive.py scripts of corpus/, idioms/ and bugs/ share: the manifest entry of a kernel
and its parameters, and writing expect.json beside the script. The answers themselves are each
folder's own."""
import json
import os

M = 0xFFFFFFFF


def u32(x):
    return x & M


def kernel(name, threads, params, final, why, deadlock=False, ub=False, race=False,
           complete=True):
    """A manifest entry. `complete`: whether every schedule can be explored (False where more
    threads stand at one __activemask than every grouping of them can be tried). `deadlock`
    None: not judged (it could only follow undefined behaviour)."""
    expect = {"deadlock": deadlock, "ub": ub, "race": race, "final": final}
    if not complete:
        expect["complete"] = False
    return {
        "name": name,
        "ptx": name + ".ptx",
        "entry": name,
        "threads": threads,
        "params": params,
        "expect": expect,
        "why": why,
    }


def buf(words):
    return {"words": [u32(w) for w in words]}


def zeros(n):
    return {"zeros": n}


def value(v):
    return {"value": v}


def write(script, kernels):
    """Writes expect.json next to `script` (the caller's __file__)."""
    here = os.path.dirname(os.path.abspath(script))
    with open(os.path.join(here, "expect.json"), "w") as f:
        json.dump({"kernels": kernels}, f, indent=1)
        f.write("\n")
    print(len(kernels), "kernels")
