#!/usr/bin/env python3
"""Writes expect.json for the idioms folder: the inputs of every kernel and the answers worked out
by hand.

Each deterministic kernel's final buffers are computed here by a few lines of plain Python that
restate what the CUDA source does, with the shuffle addressing rules of the CUDA Programming Guide
and the PTX ISA written out below (they do not run, or model, any schedule). Where the answer is a
deadlock, undefined behaviour, a race, an undefined value or a schedule-dependent result, `final`
is None and the flags are set from the reasoning in README.md; nothing here derives those flags.

Run from anywhere: python3 derive.py (rewrites expect.json next to this file).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from manifest import M, buf, kernel, u32, value, write, zeros  # noqa: E402

FULL = M


def s32(x):
    x &= M
    return x - (1 << 32) if x & 0x80000000 else x


# Shuffle source lanes, per lane of one warp, for a segment width w (a power of two). `vals` holds
# the operand of the 32 lanes (all lanes taking part and present). These restate the guide's
# rules: idx reads lane srcLane mod w of the caller's segment; up/down do not leave the segment
# (the caller keeps its own value); xor may read an earlier segment but not a later one.
def shfl_idx(vals, lane, src, w=32):
    return vals[(lane & ~(w - 1)) | (src & (w - 1))]


def shfl_up(vals, lane, d, w=32):
    j = lane - d
    return vals[j] if j >= (lane & ~(w - 1)) else vals[lane]


def shfl_down(vals, lane, d, w=32):
    j = lane + d
    return vals[j] if j <= (lane | (w - 1)) else vals[lane]


def shfl_xor(vals, lane, m, w=32):
    j = lane ^ m
    return vals[j] if j <= (lane | (w - 1)) else vals[lane]


def warps(words):
    return [words[i:i + 32] for i in range(0, len(words), 32)]


def group_mask(keys, pick):
    m = 0
    for j, k in enumerate(keys):
        if pick(j, k):
            m |= 1 << j
    return m


kernels = []

# ---------------------------------------------------------------- shuffles and the width argument

# shfl_down_w8_sum: 64 threads; out[t] = lane's value after the width-8 down steps 4, 2, 1.
k_in = [(i * 29 + 3) % 200 for i in range(64)]
k_out = []
for wv in warps(k_in):
    v = list(wv)
    for off in (4, 2, 1):
        v = [u32(v[l] + shfl_down(v, l, off, 8)) for l in range(32)]
    k_out += v
kernels.append(kernel(
    "shfl_down_w8_sum", 64, [buf(k_in), zeros(64)], [k_in, k_out],
    "Width 8 splits each warp into four segments; a down-shuffle reads lane + off only inside the "
    "caller's segment and otherwise returns the caller's own value, so lane 0 of each segment "
    "ends with the segment's sum while the top lanes add their own values. Full mask, every lane "
    "runs every step."))

# shfl_xor_width_cross: 32 threads; out[l] = xor 16 width 16, out[32 + l] = xor 12 width 8.
k_in = [100 + 3 * i for i in range(32)]
k_out = ([shfl_xor(k_in, l, 16, 16) for l in range(32)]
         + [shfl_xor(k_in, l, 12, 8) for l in range(32)])
kernels.append(kernel(
    "shfl_xor_width_cross", 32, [buf(k_in), zeros(64)], [k_in, k_out],
    "With a width below 32 an xor partner in an earlier segment is read, one in a later segment "
    "is not (the caller keeps its value): xor 16 / width 16 gives lanes 16-31 the values of 0-15 "
    "and leaves 0-15 alone; xor 12 / width 8 reads across only where lane bit 3 is set."))

# shfl_up_scan_w16: 64 threads; inclusive prefix sums over 16-lane segments.
k_in = [(i * i) % 97 + 1 for i in range(64)]
k_out = []
for s in range(0, 64, 16):
    acc = 0
    for i in range(s, s + 16):
        acc += k_in[i]
        k_out.append(u32(acc))
kernels.append(kernel(
    "shfl_up_scan_w16", 64, [buf(k_in), zeros(64)], [k_in, k_out],
    "Every lane runs each full-mask up-shuffle (width 16) and only the add is guarded by the "
    "lane's position in its segment; the shuffle never reads below the segment start, so each "
    "16-lane segment gets its own inclusive prefix sums."))

# shfl_up_guard_around: 32 threads; undefined values.
k_in = [i * 7 + 2 for i in range(32)]
kernels.append(kernel(
    "shfl_up_guard_around", 32, [buf(k_in), zeros(32)], None,
    "The guard wraps the shuffle: at step off the lanes below off skip it (and every later step), "
    "store and exit. A full-mask shuffle waits only for named lanes that have not exited, so "
    "nothing hangs and nothing is undefined behaviour, but lane off..2*off-1 reads an exited "
    "lane: those values, and every later sum built from them, are undefined."))

# shfl_idx_w8_bcast: 64 threads; out[t] = width-8 source 11, out[64 + t] = width-16 source t>>3.
k_in = [7 * i + 1000 for i in range(64)]
k_a, k_b = [], []
for w, wv in enumerate(warps(k_in)):
    for l in range(32):
        t = 32 * w + l
        k_a.append(shfl_idx(wv, l, 11, 8))
        k_b.append(shfl_idx(wv, l, t >> 3, 16))
kernels.append(kernel(
    "shfl_idx_w8_bcast", 64, [buf(k_in), zeros(128)], [k_in, k_a + k_b],
    "An indexed shuffle with width w reads lane (srcLane mod w) of the caller's own segment: "
    "source 11 with width 8 is lane 3 of each 8-lane segment; source t >> 3 (0..7) with width 16 "
    "stays in the lower half of each 16-lane segment."))

# shfl_idx_src_outside_mask: 32 threads; undefined values in lanes 0-15.
k_in = [i + 40 for i in range(32)]
kernels.append(kernel(
    "shfl_idx_src_outside_mask", 32, [buf(k_in), zeros(32)], None,
    "Lanes 0-15 run the shuffle with mask 0xffff: each caller is named and every named lane runs "
    "it, so it completes without undefined behaviour, but the source lane 20 is outside the mask "
    "and the value read is undefined."))

# shfl_two_branches: 32 threads; one exchange made of two instructions.
k_in = [i * 11 + 5 for i in range(32)]
k_out = [0] * 64
for l in range(32):
    if l < 16:
        k_out[l] = u32(2 * k_in[l + 16])
    else:
        k_out[l] = u32(k_in[l - 16] + 1000)
        k_out[32 + l] = k_in[l]
kernels.append(kernel(
    "shfl_two_branches", 32, [buf(k_in), zeros(64)], [k_in, k_out],
    "The halves run two different shfl.sync.bfly instructions on the two paths. A shfl.sync "
    "waits until every non-exited lane of its mask has run a shfl.sync with the same qualifiers "
    "and the same mask; both instructions qualify, so all 32 lanes exchange at once and each "
    "half reads the operand the other half passed (v * 2 from the upper half, v + 1000 from the "
    "lower)."))

# --------------------------------------------------------------------------- __reduce_*_sync

# redux_all_ops: 64 threads; lane 0 of warp w stores add, umin, umax, smin, smax, and, or, xor.
k_in = [(i * 2654435761) & M if i % 5 == 0 else (i * 977 + 13) % 100000 for i in range(32)]
k_in += [0x0F0F0000 | (i * 3 + 1) for i in range(32)]
k_out = []
for wv in warps(k_in):
    a = o = x = 0
    a_and = M
    for v in wv:
        a += v
        a_and &= v
        o |= v
        x ^= v
    k_out += [u32(a), min(wv), max(wv), u32(min(s32(v) for v in wv)),
              u32(max(s32(v) for v in wv)), a_and, o, x]
kernels.append(kernel(
    "redux_all_ops", 64, [buf(k_in), zeros(16)], [k_in, k_out],
    "Every flavour of redux.sync with the full mask in two full warps: add wraps to 32 bits, "
    "min/max exist as .u32 and .s32 (warp 0 has words with the top bit set, so they differ), "
    "and/or/xor are bitwise; every lane gets the result and lane 0 stores it."))

# redux_parity_masks: 64 threads; odd lanes get the max of odd lanes, even lanes the sum of even.
k_in = [(i * 53 + 17) % 1000 for i in range(64)]
k_out = []
for wv in warps(k_in):
    odd_max = max(wv[l] for l in range(1, 32, 2))
    even_sum = u32(sum(wv[l] for l in range(0, 32, 2)))
    k_out += [odd_max if l & 1 else even_sum for l in range(32)]
kernels.append(kernel(
    "redux_parity_masks", 64, [buf(k_in), zeros(64)], [k_in, k_out],
    "Each parity runs its own reduce on its own path with a mask naming exactly its lanes "
    "(0xaaaaaaaa for max, 0x55555555 for add); the two groups are disjoint and complete, so "
    "each lane gets its side's result."))

# redux_mask_missing_self: 32 threads; UB.
k_in = [i * 3 for i in range(32)]
kernels.append(kernel(
    "redux_mask_missing_self", 32, [buf(k_in), zeros(32)], None,
    "Lanes 16-31 execute redux.sync with the mask 0xffff, which does not name them: undefined "
    "behaviour. Lanes 0-15 are all named and all run it, so nothing waits forever.",
    ub=True))

# redux_partial_warp_fullmask: 40 threads; sums and ballots per warp.
k_in = [i * 9 + 4 for i in range(40)]
k_out = [u32(sum(k_in[0:32])), u32(sum(k_in[32:40])), M, 0xFF]
kernels.append(kernel(
    "redux_partial_warp_fullmask", 40, [buf(k_in), zeros(4)], [k_in, k_out],
    "Warp 1 has lanes 0-7; lanes 8-31 of the full mask are not threads of the block, so like "
    "exited lanes they are not waited for and take no part. The reduce sums the 8 present lanes "
    "and the ballot has their 8 bits; no value is read from a particular absent lane."))

# shfl_xor_partial_fullmask: 72 threads; warp 2's total undefined.
k_in = [i * 5 + 1 for i in range(72)]
kernels.append(kernel(
    "shfl_xor_partial_fullmask", 72, [buf(k_in), zeros(3)], None,
    "Warp 2 has lanes 0-7 but runs the full butterfly with the full mask. The absent lanes are "
    "not waited for, so it completes without undefined behaviour, but the offset-16 and "
    "offset-8 steps read lanes that do not exist: warp 2's total is an undefined value (warps "
    "0 and 1 store their sums)."))

# --------------------------------------------------------------------------- block reductions

# block_reduce_warp_partials: 128 threads; out[0] = sum mod 2^32.
k_in = [(i * i * 7 + 3) % 4000 for i in range(128)]
k_in[77] = 0xFFFFFF00
k_in[100] = 0x80000000
kernels.append(kernel(
    "block_reduce_warp_partials", 128, [buf(k_in), zeros(1)], [k_in, [u32(sum(k_in))]],
    "Each full warp reduces with full-mask down-shuffles; lane 0's partial goes to shared memory; "
    "the __syncthreads() orders those stores before warp 0 loads them (0 past the 4th lane), "
    "and warp 0, whole, reduces again. The sum wraps."))

# block_reduce_partials_nosync: 96 threads; race.
k_in = [i + 1 for i in range(96)]
kernels.append(kernel(
    "block_reduce_partials_nosync", 96, [buf(k_in), zeros(1)], None,
    "Without the barrier, lanes 1 and 2 of warp 0 load the partials of warps 1 and 2 with "
    "nothing ordering them after the stores: a data race, and the total depends on it.",
    race=True))

# block_reduce_final_branch: 128 threads; lane 0's total undefined.
k_in = [(i * 31 + 7) % 500 for i in range(128)]
kernels.append(kernel(
    "block_reduce_final_branch", 128, [buf(k_in), zeros(1)], None,
    "The second level runs in threads 0-3 only, with the full mask. Lanes 4-31 of warp 0 exit, "
    "which releases the shuffles (reading 3), but the offset-16, -8 and -4 steps make lane 0 "
    "read exited lanes, so the stored total is an undefined value; no hang, no undefined "
    "behaviour."))

# block_reduce_final_short: 128 threads; out[0] = sum.
k_in = [(i * 31 + 7) % 500 for i in range(128)]
k_in[3] = 0xFFFFFFFE
kernels.append(kernel(
    "block_reduce_final_short", 128, [buf(k_in), zeros(1)], [k_in, [u32(sum(k_in))]],
    "Same branch, but only offsets 2 and 1. The full-mask shuffles are released by lanes 4-31 "
    "exiting; lanes 2 and 3 read exited lanes 4 and 5 (undefined values), yet lane 0 reads "
    "lane 2 (p0 + p2) and then lane 1, whose value p1 + p3 came from lane 3's own partial; no "
    "undefined value reaches lane 0, which stores the sum."))

# --------------------------------------------------------------------- ballot, match, election

# block_compact: 128 threads; keep v % 3 == 0; out[0] = count, then the kept values in order.
k_in = [(i * 37 + 11) % 100 for i in range(128)]
kept = [v for v in k_in if v % 3 == 0]
k_out = [len(kept)] + kept + [0] * (128 - len(kept))
kernels.append(kernel(
    "block_compact", 128, [buf(k_in), zeros(129)], [k_in, k_out],
    "Per warp, the full-mask ballot gives every lane the same word and its rank; lane 0 stores "
    "the warp's count; the __syncthreads() orders the counts before every thread sums those of "
    "lower warps. Slots are distinct and dense, so the kept values land in thread order."))

# compact_activemask: 32 threads; four odd inputs.
k_in = [2 * i + 10 for i in range(32)]
for lane in (1, 6, 13, 22):
    k_in[lane] = 2 * lane + 101
kernels.append(kernel(
    "compact_activemask", 32, [buf(k_in), zeros(32)], None,
    "The four odd lanes read __activemask() after the branch, so any grouping of them may come "
    "back. The ballot over that mask is valid (no undefined behaviour), but ranks are counted "
    "within each group: in a split schedule two lanes of different groups both have rank 0 and "
    "both store out[0] unordered (a race), and the slots differ between schedules. Four lanes "
    "at the __activemask, so every grouping is explored.",
    race=True))

# match_any_partial_warp: 40 threads.
k_keys = [(i * 7) % 5 for i in range(32)] + [3, 1, 3, 3, 9, 1, 0, 9]
k_out = []
for wv in warps(k_keys):
    k_out += [group_mask(wv, lambda j, kj, k=k: kj == k) for k in wv]
kernels.append(kernel(
    "match_any_partial_warp", 40, [buf(k_keys), zeros(40)], [k_keys, k_out],
    "Warp 1 has lanes 0-7 and passes the full mask. match.sync waits for, and compares over, the "
    "named lanes that are running; absent lanes are neither, so each group mask names only "
    "present lanes with the caller's key."))

# match_any_u64: 32 threads; key = hi << 32 | lo.
k_lo = [i % 4 for i in range(32)]
k_hi = [(i // 4) % 3 if i % 2 else 0 for i in range(32)]
k_keys = [(h << 32) | l for h, l in zip(k_hi, k_lo)]
k_out = [group_mask(k_keys, lambda j, kj, k=k: kj == k) for k in k_keys]
kernels.append(kernel(
    "match_any_u64", 32, [buf(k_lo), buf(k_hi), zeros(32)], [k_lo, k_hi, k_out],
    "match.any.sync.b64 compares whole 64-bit keys: lanes with equal low words but different "
    "high words are in different groups."))

# match_all_segments: 64 threads; per 8-lane segment: mask and predicate.
k_in = ([5] * 8 + [1, 2, 3, 4, 5, 6, 7, 8] + [9] * 8 + [4] * 7 + [6]
        + [0] * 8 + [7] * 8 + [7, 7, 7, 7, 7, 7, 7, 8] + [0xFFFFFFFF] * 8)
k_m, k_p = [], []
for seg in range(8):
    vals = k_in[8 * seg:8 * seg + 8]
    same = len(set(vals)) == 1
    k_m += [(0xFF << (8 * (seg % 4))) if same else 0] * 8
    k_p += [1 if same else 0] * 8
kernels.append(kernel(
    "match_all_segments", 64, [buf(k_in), zeros(128)], [k_in, k_m + k_p],
    "Each lane passes the mask of its own 8-lane segment, so every segment is a separate, "
    "complete group at the same instruction; a segment whose values agree gets its mask and "
    "true, the others 0 and false."))

# elect_sync_leader: 64 threads.
k_in = [i * 13 + 1 for i in range(64)]
k_out = [u32(sum(k_in[0:32])), u32(sum(k_in[32:64])), 1, 1]
kernels.append(kernel(
    "elect_sync_leader", 64, [buf(k_in), zeros(4)], [k_in, k_out],
    "elect.sync with the full mask, run by every lane of both full warps, makes exactly one lane "
    "of each warp the leader; which one the manual leaves to the hardware, so the leader only "
    "stores values every lane holds (the warp sum, and the reduce of the leader flags, 1)."))

# elect_sync_branch_mask: 64 threads.
k_in = [i * 6 + 2 for i in range(64)]
for t in (3, 4, 19, 30, 33, 60):
    k_in[t] += 1
k_out = []
for wv in warps(k_in):
    odd = [v for v in wv if v & 1]
    k_out += [u32(sum(odd)), 1]
kernels.append(kernel(
    "elect_sync_branch_mask", 64, [buf(k_in), zeros(4)], [k_in, k_out],
    "The whole-warp ballot taken before the branch names exactly the odd lanes inside it, so it "
    "is a valid mask for the reduces and for elect.sync there; one leader per warp stores the "
    "odd lanes' sum and the leader count, 1."))

# elect_mask_missing_self: 32 threads; UB.
k_in = [i for i in range(32)]
kernels.append(kernel(
    "elect_mask_missing_self", 32, [buf(k_in), zeros(32)], None,
    "Lanes 16-31 run elect.sync with the mask 0xffff, which does not name them: undefined "
    "behaviour. Lanes 0-15 are all named and all run it, so nothing waits forever.",
    ub=True))

# ---------------------------------------------------------------------------------- __syncwarp

# syncwarp_split_branches: 32 threads.
k_in = [i * 4 + 3 for i in range(32)]
k_out = [u32(2 * k_in[l + 16]) if l < 16 else u32(k_in[l - 16] + 1 + 7) for l in range(32)]
kernels.append(kernel(
    "syncwarp_split_branches", 32, [buf(k_in), zeros(32)], [k_in, k_out],
    "The two halves call __syncwarp() at two different instructions, both with the full mask. "
    "It waits until every lane named has run a __syncwarp with that mask, which both paths "
    "satisfy, so the 32 lanes complete it together and it orders each half's store before the "
    "other half's load."))

# syncwarp_waits_elsewhere: 64 threads; deadlock + UB.
k_in = [i + 1 for i in range(64)]
kernels.append(kernel(
    "syncwarp_waits_elsewhere", 64, [buf(k_in), zeros(64)], None,
    "Lanes 0-15 wait at a full-mask __syncwarp for lanes 16-31, which are alive and wait at a "
    "__syncthreads() for every live thread of the block, lanes 0-15 included: no schedule gets "
    "past either. A named live lane at another primitive breaks the __syncwarp rule, and a "
    "block barrier under a condition the block does not share breaks the aligned-barrier rule.",
    deadlock=True, ub=True))

# syncwarp_mask_too_narrow: 32 threads; race.
k_in = [i * 2 + 1 for i in range(32)]
kernels.append(kernel(
    "syncwarp_mask_too_narrow", 32, [buf(k_in), zeros(32)], None,
    "Each half syncs with a mask of its own half, which is well formed, but a lane then loads "
    "the slot the other half stored, and no barrier joins the two halves: a data race.",
    race=True))

# syncwarp_half_masks: 64 threads.
k_in = [(i * 19 + 4) % 300 for i in range(64)]
k_s = []
for t, v in enumerate(k_in):
    lane = t & 31
    if lane < 16:
        k_s.append(u32(v * 5))
    else:
        for _ in range(lane & 3):
            v = u32(v * 3 + 1)
        k_s.append(v)
k_out = [k_s[t ^ 15] if (t & 31) < 16 else k_s[t ^ 1] for t in range(64)]
kernels.append(kernel(
    "syncwarp_half_masks", 64, [buf(k_in), zeros(64)], [k_in, k_out],
    "Each half-warp stores, syncs with a mask naming exactly itself, and loads a slot of its own "
    "half (t ^ 15 or t ^ 1), so each load is ordered after the store it reads."))

# ------------------------------------------------------- __syncthreads_count / _and / _or loops

# syncthreads_or_collatz: 96 threads; out[t] = rounds << 16 | steps.
k_in = [(i * 7) % 12 + 1 for i in range(96)]


def collatz_steps(v):
    n = 0
    while v != 1:
        v = 3 * v + 1 if v & 1 else v >> 1
        n += 1
    return n


k_steps = [collatz_steps(v) for v in k_in]
k_rounds = max(k_steps)
kernels.append(kernel(
    "syncthreads_or_collatz", 96, [buf(k_in), zeros(96)],
    [k_in, [(k_rounds << 16) | s for s in k_steps]],
    "__syncthreads_or gives every thread one block-wide answer, so the loop test is uniform: "
    "all 96 threads run the same bar.red rounds+1 times, rounds being the largest step count; "
    "each thread counts its own steps."))

# syncthreads_and_maxprop: 64 threads; running maximum, rounds until no slot changes.
k_in = [(i * 41 + 9) % 64 for i in range(64)]
k_s = list(k_in)
k_rounds = 0
while True:
    new = [max(k_s[t - 1] if t else 0, k_s[t]) for t in range(64)]
    done = all(new[t] == k_s[t] for t in range(64))
    k_s = new
    k_rounds += 1
    if done:
        break
kernels.append(kernel(
    "syncthreads_and_maxprop", 64, [buf(k_in), zeros(128)], [k_in, k_s + [k_rounds] * 64],
    "Each round's loads of the left neighbour sit between two barriers and its store after the "
    "second, so no load races with a store; __syncthreads_and is the same for all, so every "
    "thread runs the same rounds (until no slot changes) and ends with the prefix maximum."))

# syncthreads_count_exit: 64 threads; n = in[t] rounds, then exit.
k_in = [(i * 5 + i // 7) % 4 for i in range(64)]
k_count = [sum(1 for s in range(64) if k_in[s] > i and (s >> i) & 1) for i in range(4)]
k_out = [sum(k_count[i] for i in range(k_in[t])) for t in range(64)]
kernels.append(kernel(
    "syncthreads_count_exit", 64, [buf(k_in), zeros(64)], [k_in, k_out],
    "Threads leave the loop after in[t] rounds and exit. A block barrier waits only for "
    "non-exited threads (reading 1) and exited threads do not break an aligned barrier "
    "(reading 2), so round i completes with the threads still looping once the others have "
    "exited, and its count is over those threads. Threads with in[t] = 0 never reach it."))

# syncthreads_or_nonuniform: 64 threads; UB.
k_in = [1 + (i * 5) % 3 for i in range(64)]
kernels.append(kernel(
    "syncthreads_or_nonuniform", 64, [buf(k_in), zeros(64)], None,
    "Trip counts differ, and the threads that finish wait at bar.sync 0 while the others are at "
    "bar.red.or 0: live threads at different aligned barrier instructions (and bar.red mixed "
    "with bar.sync on one barrier), which the PTX rules leave undefined. Every live thread does "
    "arrive at barrier 0 each time, so there is no hang to expect.",
    ub=True))

# syncthreads_and_early_exit: 72 threads, n = 50.
k_n = 50
k_in = [11 + (i * 7) % 80 for i in range(72)]
k_in[55] = 3
k_in[60] = 99
k_out = []
live = k_in[:k_n]
k_all = 1 if all(v > 10 for v in live) else 0
k_any = 1 if any(v > 90 for v in live) else 0
k_out = [k_all * 2 + k_any if t < k_n else 0 for t in range(72)]
kernels.append(kernel(
    "syncthreads_and_early_exit", 72, [buf(k_in), zeros(72), value(k_n)], [k_in, k_out, None],
    "Threads 50-71 (part of warp 1 and all of the 8-lane warp 2) return first; the barriers wait "
    "only for the 50 live threads and reduce only their predicates: all of them exceed 10 and "
    "none exceeds 90 (the exited thread 55 holds 3 and 60 holds 99), so each stores 2."))

# ------------------------------------------------------------------------------ named barriers

# named_pingpong: 64 threads, 96 inputs, 3 rounds.
k_in = [(i * 17 + 5) % 1000 for i in range(96)]
k_out = [u32(sum((k_in[32 * r + 31 - j] + r) * (r + 1) for r in range(3))) for j in range(32)]
kernels.append(kernel(
    "named_pingpong", 64, [buf(k_in), zeros(32)], [k_in, k_out],
    "Barrier 1 (full) and barrier 2 (empty), count 64 each, one warp arriving and one waiting. "
    "Each phase completes with one arrival per warp, and no warp arrives again on a barrier "
    "before its phase has completed (the producer's next arrive on 1 follows its wait on 2, "
    "which follows the consumer's wait on 1). Completion orders the producer's stores before "
    "the consumer's loads, and the consumer's loads before the producer's next stores."))

# named_warp_specialized: 128 threads.
k_in = [(i * 23 + 1) % 300 for i in range(32)]
k_tile = [v * 2 + 1 for v in k_in]
k_part = [u32(sum(k_tile[l] * (w + l) for l in range(32))) for w in (1, 2, 3)]
k_out = k_part + [u32(sum(k_part))]
kernels.append(kernel(
    "named_warp_specialized", 128, [buf(k_in), zeros(4)], [k_in, k_out],
    "Barrier 1: warp 0's bar.arrive plus warps 1-3's bar.sync make 128. Barrier 2: warps 1-3's "
    "barrier.cta.arrive plus warp 0's barrier.cta.sync make 128. Each arrival orders the "
    "arriving thread's earlier stores before the waiters go on, so the tile and the partials "
    "are seen."))

# named_count_too_small: 64 threads; race.
k_in = [i * 3 for i in range(64)]
kernels.append(kernel(
    "named_count_too_small", 64, [buf(k_in), zeros(64)], None,
    "bar.sync 1, 32: one warp's arrival completes a phase, so each warp passes on its own and "
    "loads the other warp's slots with nothing ordering them after the stores: a data race. "
    "Either warp may form the first phase; the flags are the same for either order.",
    race=True))

# named_count_unreached: 96 threads; deadlock.
k_in = [i * 5 for i in range(64)]
kernels.append(kernel(
    "named_count_unreached", 96, [buf(k_in), zeros(64)], None,
    "Warp 2 exits; warps 0 and 1 wait at bar.sync 1, 96. Exited threads never arrive, so 64 "
    "arrivals are all there will be and no schedule completes. Warp 2 exited rather than "
    "waiting elsewhere, so the aligned-barrier rule is not broken (reading 2): a hang, not "
    "undefined behaviour.",
    deadlock=True))

# named_count_not_warp_multiple: 64 threads, count 48; UB.
k_in = [i + 2 for i in range(64)]
kernels.append(kernel(
    "named_count_not_warp_multiple", 64, [buf(k_in), zeros(64), value(48)], None,
    "The thread count of bar.sync must be a multiple of the warp size; 48 is not, so the "
    "barrier's behaviour is undefined. (nvcc refuses an immediate 48 at the ptxas step; the "
    "count comes in a register here.) The manual gives no reason to expect a hang.",
    ub=True))

# named_arrive_twice: 64 threads; some schedule deadlocks.
k_in = [i * 10 for i in range(32)]
kernels.append(kernel(
    "named_arrive_twice", 64, [buf(k_in), zeros(64)], None,
    "Warp 0 runs bar.arrive 1, 64 twice without waiting. If both arrivals come before warp 1's "
    "first bar.sync, they alone make 64 and end that phase; warp 1 then waits in a new phase "
    "that only it joins, for ever. In the other orders each phase has one arrival of each warp "
    "and the copies are ordered. The manual only warns against a warp arriving again before "
    "the reset, so this is a hang in some schedules, not undefined behaviour.",
    deadlock=True))

# barrier_cta_divergent: 64 threads.
k_in = [i * 7 + 1 for i in range(64)]
k_s = [u32(v * 3) if t & 1 else u32(v + 9) for t, v in enumerate(k_in)]
k_out = [k_s[t ^ 1] if t & 1 else k_s[63 - t] for t in range(64)]
kernels.append(kernel(
    "barrier_cta_divergent", 64, [buf(k_in), zeros(64)], [k_in, k_out],
    "barrier.cta.sync without .aligned may be executed by the threads of a warp at different "
    "instructions; all 64 threads arrive at barrier 0 (no count), so it completes and orders "
    "every store before every load."))

# syncthreads_if_else: 64 threads; UB.
kernels.append(kernel(
    "syncthreads_if_else", 64, [buf(k_in), zeros(64)], None,
    "The same exchange with __syncthreads() (bar.sync 0, aligned) in both arms: live threads of "
    "one warp execute different aligned barrier instructions, which the rule for .aligned makes "
    "undefined. Every thread does arrive at barrier 0, so there is no hang to expect.",
    ub=True))

# --------------------------------------------------------------- early exit and partial warps

# early_exit_ballot: 64 threads; lanes with 0 exit.
k_in = [(i * 13 + 6) % 50 + 1 for i in range(64)]
for t in (3, 17, 30) + tuple(range(32, 42)) + (52,):
    k_in[t] = 0
k_out = [0] * 128
for w, wv in enumerate(warps(k_in)):
    b = group_mask(wv, lambda j, v: v != 0 and v & 1)
    live = sum(1 for v in wv if v != 0)
    for l, v in enumerate(wv):
        if v:
            k_out[32 * w + l] = b
            k_out[64 + 32 * w + l] = live
kernels.append(kernel(
    "early_exit_ballot", 64, [buf(k_in), zeros(128)], [k_in, k_out],
    "The zero-input threads return before the full-mask ballot and reduce; both wait only for "
    "named lanes that have not exited and are defined over them (reading 3), so the ballot has "
    "bits only for live odd lanes and the reduce counts the live lanes."))

# partial_warp_scan: 100 threads; per-warp inclusive scan and totals.
k_in = [(i * 3 + 1) % 17 for i in range(100)]
k_out = []
k_tot = []
for s in range(0, 100, 32):
    acc = 0
    for i in range(s, min(s + 32, 100)):
        acc += k_in[i]
        k_out.append(acc)
    k_tot.append(acc)
kernels.append(kernel(
    "partial_warp_scan", 100, [buf(k_in), zeros(104)], [k_in, k_out + k_tot],
    "Warp 3 has 4 lanes and computes the mask 0xf; its up-shuffles read only lower lanes, which "
    "exist and are named, and its broadcast reads lane 3. Every warp gets its inclusive scan "
    "and lane 0 stores the warp total from the last present lane."))

# ------------------------------------------------------------------------------------- races

# global_exchange_barrier: 64 threads.
k_in = [i * 4 + 1 for i in range(64)]
k_first = [u32(v * 5 + 1) for v in k_in]
k_out = k_first + [u32(k_first[63 - t] + t) for t in range(64)]
kernels.append(kernel(
    "global_exchange_barrier", 64, [buf(k_in), zeros(128)], [k_in, k_out],
    "__syncthreads() covers global memory too: every thread's store to out[t] is performed for "
    "the block before any thread loads out[63 - t] after the barrier."))

kernels.append(kernel(
    "global_exchange_nobarrier", 64, [buf(k_in), zeros(128)], None,
    "Without the barrier, thread t's load of out[63 - t] (a thread of the other warp) and that "
    "thread's store are unordered: a data race on global memory.",
    race=True))

# shared_shift_war: 64 threads; race.
k_in = [i * i + 1 for i in range(64)]
kernels.append(kernel(
    "shared_shift_war", 64, [buf(k_in), zeros(64)], None,
    "Thread t loads s[t + 1] and thread t + 1 stores s[t + 1] between the same two barriers: "
    "a write-after-read race, so the load may see the new or the old word.",
    race=True))

# ----------------------------------------------------------------------------- __activemask()

# activemask_self_bit: 32 threads; four lanes with input below 4.
k_in = [10 + i for i in range(32)]
for lane, v in ((2, 0), (7, 3), (8, 1), (30, 2)):
    k_in[lane] = v
k_out = [7 if v < 4 else 0 for v in k_in]
kernels.append(kernel(
    "activemask_self_bit", 32, [buf(k_in), zeros(32)], [k_in, k_out],
    "__activemask() may give any grouping of the four branch lanes, but each group's mask names "
    "the caller and only branch lanes, and all of the group run the reduce with it (reading 4), "
    "so the or of the callers' bits is the mask itself: every branch lane stores 7 whatever the "
    "schedule. Four lanes at the __activemask, so every grouping is explored."))

# activemask_group_count: 32 threads; five odd lanes.
k_in = [2 * i for i in range(32)]
for lane in (0, 5, 9, 21, 31):
    k_in[lane] += 1
kernels.append(kernel(
    "activemask_group_count", 32, [buf(k_in), zeros(32)], None,
    "The five odd lanes reduce 1 over __activemask(): a valid mask (no undefined behaviour), but "
    "the count each stores is the size of its group, which depends on the schedule. Five lanes "
    "at the __activemask, so every grouping is explored."))

write(__file__, kernels)
