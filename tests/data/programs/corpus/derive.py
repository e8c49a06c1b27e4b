#!/usr/bin/env python3
"""Writes expect.json for the corpus: the inputs of every kernel and the answers worked out by hand.

Each deterministic kernel's final buffers are computed here by a few lines of plain Python that
restate what the CUDA source does (they do not run, or model, any schedule). Where the answer is
a deadlock, undefined behaviour or a schedule-dependent result, `final` is None and the flags are
set from the reasoning in README.md; nothing here derives those flags.

Run from anywhere: python3 derive.py (rewrites expect.json next to this file).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from manifest import M, buf, kernel, u32, value, write, zeros  # noqa: E402


def bitlen(x):
    return x.bit_length()


kernels = []

# --- warp_sum_shfl: 64 threads, lane 0 of warp w stores the sum of in[32w .. 32w+31].
ws_in = [(i * 37 + 11) % 1000 for i in range(64)]
ws_out = [u32(sum(ws_in[0:32])), u32(sum(ws_in[32:64]))]
kernels.append(kernel(
    "warp_sum_shfl", 64, [buf(ws_in), zeros(2)], [ws_in, ws_out],
    "Full-mask xor butterfly in each full warp: every lane executes every shuffle with the "
    "whole-warp mask, so each lane ends with its warp's total and lane 0 stores it; "
    "no shared memory, no divergence."))

# --- block_reduce_shared: 64 threads, out[0] = sum of in (mod 2^32; in[5] makes it wrap).
br_in = [(i * i * 13 + 7) % 5000 for i in range(64)]
br_in[5] = 0xFFFFFFF0
br_out = [u32(sum(br_in))]
kernels.append(kernel(
    "block_reduce_shared", 64, [buf(br_in), zeros(1)], [br_in, br_out],
    "Tree sum in shared memory with a __syncthreads() (bar.sync 0, reached by all 64 threads "
    "every time) between the stores and each halving step, so every read of another thread's "
    "slot is ordered after its write; the 32-bit sum wraps."))

# --- ballot_compact: 32 threads, keep v > limit; out[0] = count, out[1 + rank] = v.
bc_in = [(i * 29 + 5) % 64 for i in range(32)]
bc_limit = 31
bc_kept = [v for v in bc_in if v > bc_limit]
bc_out = [len(bc_kept)] + bc_kept + [0] * (32 - len(bc_kept))
kernels.append(kernel(
    "ballot_compact", 32, [buf(bc_in), zeros(33), value(bc_limit)], [bc_in, bc_out, None],
    "All 32 lanes take the full-mask ballot and reduce, so every lane holds the same ballot "
    "word; a kept lane's rank is the count of set bits below its lane, ranks are distinct and "
    "dense, so the kept values land in lane order after the count."))

# --- match_any_group: 32 threads; out[lane] = lanes with the same key, out[32 + key] = group
# size, stored by the lowest lane of the group.
mg_keys = [(i * 7) % 5 for i in range(32)]
mg_out = [0] * 40
for lane, k in enumerate(mg_keys):
    m = 0
    for j, kj in enumerate(mg_keys):
        if kj == k:
            m |= 1 << j
    mg_out[lane] = m
    mg_out[32 + k] = bin(m).count("1")
kernels.append(kernel(
    "match_any_group", 32, [buf(mg_keys), zeros(40)], [mg_keys, mg_out],
    "Full-mask __match_any_sync gives each lane the set of lanes with its key; that set is a "
    "valid mask for __reduce_add_sync because every lane it names holds the same set and runs "
    "the same reduce; one leader per group writes the size."))

# --- ballot_leader_redux: 64 threads; per warp, the odd lanes sum their inputs, the lowest odd
# lane stores [sum, ballot] at out[2w], out[2w+1].
bl_in = [i * 3 + 2 for i in range(32)] + [2 * i + 40 for i in range(32)]
bl_in[32 + 13] = 77
bl_out = [0] * 4
for w in range(2):
    vals = bl_in[32 * w:32 * w + 32]
    b = 0
    s = 0
    for lane, v in enumerate(vals):
        if v & 1:
            b |= 1 << lane
            s += v
    if b:
        bl_out[2 * w] = u32(s)
        bl_out[2 * w + 1] = b
kernels.append(kernel(
    "ballot_leader_redux", 64, [buf(bl_in), zeros(4)], [bl_in, bl_out],
    "The whole-warp ballot taken before the branch names exactly the lanes that enter it, so "
    "__reduce_add_sync with that mask is met by every lane it names; the leader is the lowest "
    "set bit (b & -b); warp 1 has a single odd lane, which leads itself."))

# --- syncwarp_divergent: 32 threads; s[l] = v + 100 (l < 16) or (sum 16..l) ^ v; out[l] = s[l^1].
sw_in = [i * 5 + 1 for i in range(32)]
sw_s = []
for lane, v in enumerate(sw_in):
    if lane < 16:
        sw_s.append(u32(v + 100))
    else:
        sw_s.append(u32(sum(range(16, lane + 1)) ^ v))
sw_out = [sw_s[lane ^ 1] for lane in range(32)]
kernels.append(kernel(
    "syncwarp_divergent", 32, [buf(sw_in), zeros(32)], [sw_in, sw_out],
    "The halves store their shared slots on different paths, then all 32 lanes execute the one "
    "__syncwarp() with the full mask, which orders the stores before the reads of the "
    "neighbour's slot (bar.warp.sync gives memory ordering among its participants)."))

# --- syncthreads_count_loop: 64 threads; total = sum of bit lengths, mine = own bit length.
sc_in = [(i * i * i + 3 * i) % 300 if i % 7 else 0 for i in range(64)]
sc_total = sum(bitlen(v) for v in sc_in)
sc_out = [u32((sc_total << 8) | bitlen(v)) for v in sc_in]
kernels.append(kernel(
    "syncthreads_count_loop", 64, [buf(sc_in), zeros(64)], [sc_in, sc_out],
    "__syncthreads_count returns the same block-wide count to every thread, so the loop test "
    "is uniform and all 64 threads run the same number of iterations (the longest bit length, "
    "9) through the same bar.red; each iteration adds the number of still non-zero values."))

# --- named_barrier_pc: 64 threads; out[j] = in[31 - j] * 3 + 1.
nb_in = [i + 100 for i in range(32)]
nb_out = [u32(nb_in[31 - j] * 3 + 1) for j in range(32)]
kernels.append(kernel(
    "named_barrier_pc", 64, [buf(nb_in), zeros(32)], [nb_in, nb_out],
    "Barrier 1 with count 64: warp 0's bar.arrive and warp 1's bar.sync together make 64 "
    "arrivals, so it completes; completion makes the producer's earlier shared stores visible "
    "to the consumers, and mixing arrive and sync on one barrier with one count is allowed."))

# --- partial_warp_shfl: 48 threads; out[0] = sum in[0..31], out[1] = sum in[32..47].
pw_in = [i * i + 1 for i in range(48)]
pw_out = [u32(sum(pw_in[0:32])), u32(sum(pw_in[32:48]))]
kernels.append(kernel(
    "partial_warp_shfl", 48, [buf(pw_in), zeros(2)], [pw_in, pw_out],
    "Warp 1 has only lanes 0-15; its computed mask is 0xffff and it skips the offset-16 step, "
    "so every shuffle's mask names only lanes that exist and all run it, and every source lane "
    "(lane ^ off) is in the mask; warp 0 runs the full butterfly."))

# --- early_exit_syncthreads: 64 threads, n = 40; out[t] = in[39 - t] + 1 for t < 40.
ee_in = [1000 + 2 * i for i in range(64)]
ee_n = 40
ee_out = [u32(ee_in[ee_n - 1 - t] + 1) if t < ee_n else 0 for t in range(64)]
kernels.append(kernel(
    "early_exit_syncthreads", 64, [buf(ee_in), zeros(64), value(ee_n)], [ee_in, ee_out, None],
    "Threads 40-63 return before bar.sync 0; on sm_70+ a block barrier waits only for threads "
    "that have not exited (in their own warp and in the others), so the 40 live threads meet "
    "and each reads a slot written before the barrier."))

# --- match_emul_ballot: 32 threads; out[lane] = lanes with the same non-zero key, 0 for key 0.
me_keys = [((i * 5) % 7) % 4 for i in range(32)]
me_out = []
for lane, k in enumerate(me_keys):
    if k == 0:
        me_out.append(0)
        continue
    m = 0
    for j, kj in enumerate(me_keys):
        if kj == k:
            m |= 1 << j
    me_out.append(m)
kernels.append(kernel(
    "match_emul_ballot", 32, [buf(me_keys), zeros(32)], [me_keys, me_out],
    "The starting mask is a whole-warp ballot of key != 0 taken before the branch, so each "
    "round's mask names exactly the lanes still in the loop, all of which run the same "
    "reduce/shuffle/ballot with it; the result equals match_any over the non-zero keys."))

# --- syncthreads_divergent_deadlock: 64 threads.
dl_in = [i + 1 for i in range(32)]
kernels.append(kernel(
    "syncthreads_divergent_deadlock", 64, [buf(dl_in), zeros(64)], None,
    "Warp 0 waits at bar.sync 0 for every non-exited thread of the block; warp 1 is alive and "
    "waits at bar.sync 1, 64 where only its own 32 threads can arrive, so neither completes in "
    "any schedule; a __syncthreads() under a condition that live threads evaluate differently "
    "breaks the CUDA rule (the .aligned contract), hence UB as well.",
    deadlock=True, ub=True))

# --- shfl_half_branch: 32 threads.
sh_in = [i * 11 + 3 for i in range(32)]
sh_out = [sh_in[i] + sh_in[i ^ 1] if i < 16 else sh_in[i] for i in range(32)]
kernels.append(kernel(
    "shfl_half_branch", 32, [buf(sh_in), zeros(32)], [sh_in, sh_out],
    "Lanes 16-31 are named in the full mask and never run the shuffle, but they exit: the "
    "shuffle waits only for named lanes that have not exited, and its result is defined over "
    "those, so lanes 0-15 go on once 16-31 have exited and read each other (xor 1 stays within "
    "0-15). A bug by CUDA style, defined by the manuals' wording; the same code with lanes "
    "16-31 waiting elsewhere instead of exiting would never complete.") )

# --- shared_race_nobarrier: 64 threads.
sr_in = [i + 500 for i in range(64)]
kernels.append(kernel(
    "shared_race_nobarrier", 64, [buf(sr_in), zeros(64)], None,
    "Thread t stores s[t] and loads s[63 - t], which thread 63 - t stores; nothing orders the "
    "two (no barrier), so they race and the load may see the store or the uninitialised slot.",
    race=True))

# --- reduce_read_before_barrier: 64 threads.
rr_in = [i * 3 + 1 for i in range(64)]
kernels.append(kernel(
    "reduce_read_before_barrier", 64, [buf(rr_in), zeros(1)], None,
    "Thread t < 32 loads s[t + 32] before the __syncthreads(), racing with thread t + 32's "
    "store of that slot; the sum is right only when every store came first.",
    race=True))

# --- match_emul_divergent: 32 threads, same keys as match_emul_ballot (lanes with key 0).
kernels.append(kernel(
    "match_emul_divergent", 32, [buf(me_keys), zeros(32)], [me_keys, me_out],
    "Inside the key != 0 branch, __ballot_sync(0xffffffff, 1) names the key-0 lanes, which "
    "never execute it; but they exit, and these collectives wait only for named lanes that have "
    "not exited and are defined over those, so the ballot gives exactly the key != 0 lanes and "
    "the result equals match_emul_ballot's. The bug shows once the key-0 lanes stay alive: "
    "match_emul_divergent_wait."))

# --- match_emul_divergent_wait: the key-0 lanes wait at a full-mask __syncwarp instead.
kernels.append(kernel(
    "match_emul_divergent_wait", 32, [buf(me_keys), zeros(32)], None,
    "The key != 0 lanes' full-mask ballot names the key-0 lanes, which wait at a full-mask "
    "__syncwarp that names the key != 0 lanes: each side waits for lanes that are alive and "
    "at another collective, which the manuals leave undefined, and neither can execute.",
    deadlock=True, ub=True))

# --- activemask_after_branch: 32 threads.
am_in = [i * 3 + 1 for i in range(32)]
kernels.append(kernel(
    "activemask_after_branch", 32, [buf(am_in), zeros(64)], None,
    "After the divergent branch nothing forces reconvergence, so __activemask() returns the "
    "set of lanes running with the caller at that moment (the whole warp, each parity side, or "
    "smaller groups); each such set is a valid mask, so no UB, but each lane's result is the "
    "value of the lowest lane of its group, which varies by schedule. With 32 lanes at one "
    "__activemask not every grouping can be tried, so the exploration is bounded.",
    complete=False))

# --- vote_match_all: 64 threads; lane 0 of warp w stores all, any, match_all mask, pred.
vm_in = [32 + (i % 16) for i in range(32)] + [40 + 3 * i for i in range(32)]
vm_out = []
for w in range(2):
    vals = vm_in[32 * w:32 * w + 32]
    a = 1 if all(v < 100 for v in vals) else 0
    y = 1 if any(v > 50 for v in vals) else 0
    same = len({v >> 4 for v in vals}) == 1
    vm_out += [a, y, M if same else 0, 1 if same else 0]
kernels.append(kernel(
    "vote_match_all", 64, [buf(vm_in), zeros(8)], [vm_in, vm_out],
    "Every lane of both full warps runs the three full-mask votes; warp 0 agrees on v >> 4 "
    "(mask 0xffffffff, predicate 1) and has no value above 50, warp 1 has values of 100 and "
    "more and differing v >> 4 (mask 0, predicate 0); the PTX turns each bool into 1 or 0."))

write(__file__, kernels)
