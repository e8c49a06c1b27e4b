#!/usr/bin/env python3
"""Puts `warpspec run`, compute-sanitizer's synccheck and the hardware side by side, per kernel.

    capture/synccheck_table.py --warpspec build/warpspec --manifest M.json [--manifest ...]
        --synccheck DIR [--synccheck ...] --hardware H.jsonl[.gz] [--hardware ...]
        [--max-states N] [--json OUT.json] [--list CLASS]

--manifest: launch manifests (ptx paths beside them; .gz read too). --synccheck: folders of
capture/run_synccheck.sh output (shard_K.jsonl and shard_K.sanitizer.txt), or such files
(plain or .gz). --hardware: the
runner's records without the sanitizer. Each kernel is explored with `warpspec run --json`, and
falls in one class:

  agree                  both find nothing, or both find a synchronisation error;
  race only              warpspec finds a data race and nothing else; synccheck does not look for races;
  hang unseen            the launch hangs (killed at its deadline) and warpspec predicts a deadlock
                         or UB; synccheck cannot report a launch that never ends;
  warpspec stricter      warpspec finds UB or a deadlock the manuals define, synccheck reported
                         nothing on the schedule that ran, and the launch did not hang;
  synccheck only         synccheck reported an error where warpspec, over every schedule, finds
                         none: a synccheck false positive unless warpspec is wrong;
  undecided              synccheck reported an error, and warpspec's exploration stopped at a
                         limit without finding one.

Prints the counts per class and, with --list, the kernels of one class. --tsv OUT[.gz] writes
one line per kernel: name, set (the manifest's folder), class, warpspec's clauses, synccheck's
reports and what the launches without the sanitizer did.
"""
import argparse
import collections
import concurrent.futures
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read()


def sanitizer_reports(paths):
    """Per kernel: the set of synccheck report texts, and the status of its launch under it."""
    reports = collections.defaultdict(set)
    status = {}
    files = []
    for d in paths:
        files += ([os.path.join(d, n) for n in sorted(os.listdir(d))] if os.path.isdir(d) else [d])
    for path in files:
            name = os.path.basename(path).removesuffix(".gz")
            if name.endswith(".jsonl"):
                for line in read_text(path).splitlines():
                    r = json.loads(line)
                    status[r["kernel"]] = r["status"]
            elif name.endswith(".sanitizer.txt"):
                last = None
                for line in read_text(path).splitlines():
                    m = re.match(r"=+ (\S.*(?:error|Error).*detected.*)$", line)
                    if m:
                        last = m.group(1)
                        continue
                    m = re.match(r"=+\s+at (\w+)\+0x", line)
                    if m and last:
                        reports[m.group(1)].add(last)
                        last = None
    return reports, status


def hardware_status(paths):
    seen = collections.defaultdict(set)
    for p in paths:
        for line in read_text(p).splitlines():
            r = json.loads(line)
            seen[r["kernel"]].add(r["status"])
    return seen


def ptx_path(manifest, k, scratch):
    """The kernel's PTX file, unpacked into `scratch` where only a .gz is kept."""
    ptx = os.path.join(os.path.dirname(manifest), k["ptx"])
    if ptx.endswith(".gz") or not os.path.exists(ptx):
        gz = ptx if ptx.endswith(".gz") else ptx + ".gz"
        plain = os.path.join(scratch, os.path.basename(gz)[:-3])
        if not os.path.exists(plain):
            with open(plain, "w") as f:
                f.write(read_text(gz))
        ptx = plain
    return ptx


def explore(warpspec, manifest, k, max_states, scratch):
    ptx = ptx_path(manifest, k, scratch)
    launch = os.path.join(scratch, f"launch_{k['name']}.json")
    with open(launch, "w") as f:
        json.dump({"entry": k["entry"], "threads": k["threads"], "params": k["params"]}, f)
    r = subprocess.run([warpspec, "run", ptx, "--launch", launch, "--json", "--max-states",
                        str(max_states)], capture_output=True, text=True)
    if r.returncode not in (0, 2, 3):
        raise SystemExit(f"{k['name']}: warpspec run exited {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def classify(x, reports, hw):
    keys = sorted({f["clause"] for o in x["outcomes"] for f in o.get("findings", [])})
    sync_error = x["deadlock"] or x["undefined"]
    if reports and sync_error:
        return "agree", keys
    if not reports and not sync_error:
        return ("race only" if x["race"] else "agree"), keys
    if not reports:  # a finding of a bounded walk is still a finding
        return ("hang unseen" if "hang" in hw else "warpspec stricter"), keys
    return ("synccheck only" if x["complete"] else "undecided"), keys


def write_tsv(rows, path):
    """One line per kernel, written to a temporary name and renamed."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path + ".tmp", "wt") as f:
        f.write("kernel\tset\tclass\twarpspec\tsynccheck\thardware\n")
        for r in sorted(rows, key=lambda r: (r["set"], r["kernel"])):
            f.write("\t".join([r["kernel"], r["set"], r["class"], " ".join(r["warpspec"]) or "-",
                               " | ".join(r["synccheck"]) or "-",
                               " ".join(r["hardware"]) or "-"]) + "\n")
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warpspec", required=True)
    ap.add_argument("--manifest", action="append", required=True)
    ap.add_argument("--synccheck", action="append", required=True)
    ap.add_argument("--hardware", action="append", default=[])
    ap.add_argument("--max-states", type=int, default=20000)
    ap.add_argument("--json")
    ap.add_argument("--list")
    ap.add_argument("--tsv")
    a = ap.parse_args()
    reports, under = sanitizer_reports(a.synccheck)
    hw = hardware_status(a.hardware)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        jobs = [(m, k) for m in a.manifest for k in json.loads(read_text(m))["kernels"]
                if k["name"] in under]
        # Each kernel's PTX is unpacked once, then the explorations run two at a time.
        for m, k in jobs:
            ptx_path(m, k, scratch)

        def one(job):
            m, k = job
            return m, k, explore(a.warpspec, m, k, a.max_states, scratch)

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for m, k, x in pool.map(one, jobs):
                cls, keys = classify(x, reports.get(k["name"], set()), hw.get(k["name"], set()))
                rows.append({"kernel": k["name"], "class": cls, "warpspec": keys,
                             "set": os.path.basename(os.path.dirname(os.path.abspath(m))),
                             "deadlock": x["deadlock"], "race": x["race"],
                             "complete": x["complete"],
                             "synccheck": sorted(reports.get(k["name"], set())),
                             "under_synccheck": under[k["name"]],
                             "hardware": sorted(hw.get(k["name"], set()))})
                if sys.stderr.isatty():
                    print(f"\r{len(rows)} of {len(jobs)} kernels", end="", file=sys.stderr,
                          flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    counts = collections.Counter(r["class"] for r in rows)
    for cls, n in counts.most_common():
        print(f"{n:6d}  {cls}")
    print(f"{len(rows):6d}  kernels")
    if a.list:
        for r in rows:
            if r["class"] == a.list:
                print(json.dumps(r))
    if a.tsv:
        write_tsv(rows, a.tsv)
    if a.json:
        with open(a.json + ".tmp", "w") as f:
            json.dump({"counts": counts, "kernels": rows}, f, indent=1)
        os.replace(a.json + ".tmp", a.json)


if __name__ == "__main__":
    main()
