#!/usr/bin/env python3
"""Writes expect.json for the bug reproductions: the inputs of every kernel and the answers worked
out by hand.

Each deterministic kernel's final buffers are computed here by a few lines of plain Python that
restate what the CUDA source does (they do not run, or model, any schedule). Where the answer is
a deadlock, undefined behaviour, a race or a schedule-dependent result, `final` is None and the
flags are set from the reasoning in README.md; nothing here derives those flags.

Run from anywhere: python3 derive.py (rewrites expect.json next to this file).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from manifest import M, buf, kernel, u32, value, write, zeros  # noqa: E402


def shfl(vals, lane, mode, b, width):
    """One lane's result of a shuffle over a full warp whose lanes all hold vals (the PTX
    shfl.sync rule: segment mask 32 - width, clamp 31 except for .up, where it is 0)."""
    seg = (32 - width) & 31
    cval = 0 if mode == "up" else 31
    max_lane = (lane & seg) | (cval & ~seg & 31)
    min_lane = lane & seg
    b &= 31
    if mode == "up":
        j = lane - b
        ok = j >= max_lane
    elif mode == "down":
        j = lane + b
        ok = j <= max_lane
    elif mode == "bfly":
        j = lane ^ b
        ok = j <= max_lane
    else:
        j = min_lane | (b & ~seg & 31)
        ok = j <= max_lane
    return vals[j] if ok else vals[lane]


kernels = []

# --- kokkos/kokkos#1958: the mask of a group of `width` lanes.
kw_in = [(i * 37 + 11) % 97 for i in range(32)]
kw_width = 8
kernels.append(kernel(
    "kokkos_width_mask", 32, [buf(kw_in), zeros(32), value(kw_width)], None,
    "With width 8 the mask is 0xff << 8 * (lane % 4): lane 1 passes 0xff00, lane 2 0xff0000, and "
    "only 8 lanes are in their own mask, so __syncwarp(mask) is undefined for the other 24. No "
    "group of 8 lanes uses one mask either: lane 0 waits for lanes 0-7 to sync with 0xff, but lanes "
    "1-3 and 5-7 sync with other masks, and the same holds for every mask. Whether the lanes "
    "then wait forever is left open: the undefined calls already make the whole run undefined.",
    deadlock=None, ub=True))

kwf_out = [max(kw_in[8 * (t // 8):8 * (t // 8) + 8]) for t in range(32)]
kernels.append(kernel(
    "kokkos_width_mask_fixed", 32, [buf(kw_in), zeros(32), value(kw_width)],
    [kw_in, kwf_out, None],
    "Each group of 8 lanes shares the mask 0xff << 8 * (lane / 8), which contains all of them, and "
    "all of them run the same __syncwarp and shuffles with it. The width-8 shuffles stay inside "
    "the group: after deltas 1, 2, 4 the group's first lane holds the group maximum, and the "
    "index-0 shuffle copies it to the whole group."))

# --- kokkos/kokkos#1612 and desul/desul#132: a retry loop counted with ballots.
rt_in = [4 * i + 2 for i in range(32)]
rt_in[3] = 5        # odd: 3 attempts on pass 0, 4 on pass 1
rt_in[10] = 64 + 7  # odd, bit 6 set: skips pass 0, 5 attempts on pass 1
rt_in[17] = 1       # odd: 1 attempt on pass 0, 2 on pass 1
rt_in[29] = 19      # odd: 2 attempts on pass 0, 3 on pass 1
kernels.append(kernel(
    "kokkos_ballot_fullmask", 32, [buf(rt_in), zeros(33)], None,
    "The four odd lanes run __ballot_sync(0xffffffff) inside the branch. The 28 even lanes are "
    "named, alive, and wait in the full-mask __reduce_add_sync after the loop, which names the odd "
    "lanes. Each side waits at a different collective for lanes that never arrive: undefined, and "
    "no schedule completes.",
    deadlock=True, ub=True))

rt_out = [0] * 33
for lane, v in enumerate(rt_in):
    acc = 0
    for it in range(2):
        if (v & 1) and (it == 1 or (v & 64) == 0):
            need = ((v >> 1) & 3) + 1 + it
            acc += need * (it + 1)
    rt_out[lane] = u32(acc)
rt_out[32] = u32(sum(rt_in))
kernels.append(kernel(
    "desul_activemask_retry", 32, [buf(rt_in), zeros(33)], [rt_in, rt_out],
    "__activemask() gives each odd lane the set of lanes at that instruction with it, possibly "
    "only itself, possibly lanes on the other pass of the outer loop. Every lane of such a set got "
    "the same word, so the sets are disjoint and each one runs both ballots with its own mask, "
    "which names only its members. Within a set all lanes see the same done_active and leave the "
    "loop together, each having counted exactly the attempts it needed, so acc does not depend on "
    "the grouping. The even lanes wait at the full-mask reduce, which the odd lanes reach after "
    "their passes. At most 4 lanes meet at the __activemask, so every grouping is explored."))

# --- tile-ai/tilelang#2556: the barrier of a 48-thread guard.
tl_in = [(i * 13 + 5) % 200 for i in range(48)]
kernels.append(kernel(
    "tilelang_tail_sync_dropped", 64, [buf(tl_in), zeros(48)], None,
    "Thread t < 48 stores s[t] and loads s[47 - t], stored by another thread (47 is odd, so never "
    "itself), with no barrier between: for t < 16 the writer is in the other warp, for 16 <= t < "
    "32 in the same warp. The load may see the store or the uninitialised slot.",
    race=True))

tlf_out = [u32(tl_in[47 - t] * 3 + 1) for t in range(48)]
kernels.append(kernel(
    "tilelang_tail_sync_fixed", 64, [buf(tl_in), zeros(48)], [tl_in, tlf_out],
    "All 64 threads reach the one bar.sync 0 between the guarded stores and the guarded loads, "
    "so every load is ordered after the store of its slot."))

# --- tile-ai/tilelang#2612: barriers inside a data-dependent guard.
gl_flag = [0] * 64
for a in (0, 6, 12, 34, 40, 62):
    gl_flag[a] = 1
    gl_flag[a + 1] = 1
gl_in = [(i * 29 + 17) % 1000 for i in range(64)]
v = list(gl_in)
for k in range(2):
    s = [u32(x + k) for x in v]
    v = [u32(s[t ^ 1] * 2 + 1) for t in range(64)]
gl_out = [v[t] if gl_flag[t] else 0 for t in range(64)]
kernels.append(kernel(
    "tilelang_guarded_loop_sync", 64, [buf(gl_flag), buf(gl_in), zeros(64)],
    [gl_flag, gl_in, gl_out],
    "The 12 flagged threads run four bar.sync 0; the other 52 skip the guard and exit. A block "
    "barrier waits only for threads that have not exited, and an exited thread does not break "
    "one, so the flagged threads meet at each barrier. The first barrier of a round orders the "
    "store before the partner's load, the second orders that load before the partner's next "
    "store. Partners are flagged together, so every slot read was written that round."))

kernels.append(kernel(
    "tilelang_guarded_loop_hoisted", 64, [buf(gl_flag), buf(gl_in), zeros(64)], None,
    "The only barrier is before the guard. Inside, thread t loads s[t ^ 1] with nothing ordering "
    "it after the partner's store of the same round, and the partner's next store is not ordered "
    "after that load: read-write and write-read races, and the loads may see either round.",
    race=True))

# --- NVlabs/cuda-oxide#229: match.sync moved across a branch.
om_keys = [(i * 7) % 5 for i in range(32)]
om_flag = [1 if (i * 11) % 3 != 0 else 0 for i in range(32)]
om_b = sum(1 << i for i in range(32) if om_flag[i])
om_out = []
for lane in range(32):
    if not om_flag[lane]:
        om_out.append(0)
        continue
    om_out.append(sum(1 << j for j in range(32) if (om_b >> j) & 1 and om_keys[j] == om_keys[lane]))
kernels.append(kernel(
    "oxide_match_branch", 32, [buf(om_keys), buf(om_flag), zeros(32)],
    [om_keys, om_flag, om_out],
    "The whole-warp ballot before the branch is exactly the set of lanes that enter it, so every "
    "lane the match's mask names runs the match with that mask. Each entering lane gets the lanes "
    "of the mask that hold its key; the others store nothing."))

kernels.append(kernel(
    "oxide_match_hoisted", 32, [buf(om_keys), buf(om_flag), zeros(32)], None,
    "The match now runs before the branch in every lane, including the lanes whose flag is clear, "
    "which are not in the mask b they pass: match.sync is undefined for such a caller. It does not "
    "hang: every lane waits only for the lanes of b, and all of them run the match.",
    ub=True))

# --- ROCm/hip#3213: width honoured by idx, up and down.
sw_in = [i * 10 + 3 for i in range(32)]
sw_out = ([shfl(sw_in, l, "idx", l + 4, 8) for l in range(32)]
          + [shfl(sw_in, l, "up", 3, 8) for l in range(32)]
          + [shfl(sw_in, l, "down", 3, 8) for l in range(32)])
kernels.append(kernel(
    "shfl_width_modes", 32, [buf(sw_in), zeros(96), value(8)], [sw_in, sw_out, None],
    "All 32 lanes run each full-mask shuffle. With width 8 the segment mask is 24: the index "
    "shuffle reads lane (lane & 24) | ((lane + 4) & 7); the up shuffle by 3 keeps the own value in "
    "the first 3 lanes of each segment; the down shuffle by 3 keeps it in the last 3. Ignoring "
    "width would give lane + 4 (mod 32) and clamp only at the warp's ends."))

sx_in = [i * i + 7 for i in range(32)]
sx_out = ([shfl(sx_in, l, "bfly", 8, 8) for l in range(32)]
          + [shfl(sx_in, l, "idx", 13, 8) for l in range(32)])
kernels.append(kernel(
    "shfl_width_xor_idx", 32, [buf(sx_in), zeros(64), value(8)], [sx_in, sx_out, None],
    "With width 8 an xor by 8 moves to the neighbouring segment. The source lane must not be past "
    "the end of the caller's segment: lanes 0-7 and 16-23 (partner later) keep their own value, "
    "lanes 8-15 and 24-31 (partner earlier) read it. The index 13 is taken within the segment as "
    "13 & 7 = 5, so each segment reads its lane 5."))

# --- gpgpu-sim/gpgpu-sim_distribution#230: the guide's broadcast.
bc_arg = [1234, 98765]
bc_out = [bc_arg[t // 32] for t in range(64)] + [0] * 64
kernels.append(kernel(
    "bcast_guide", 64, [buf(bc_arg), zeros(128)], [bc_arg, bc_out],
    "All 32 lanes of each warp run the full-mask index-0 shuffle, so each receives lane 0's "
    "value, which lane 0 loaded. The other lanes' source register is never set, but no lane reads "
    "it, so its value does not matter. No lane reports a failure."))

# --- NVIDIA/cutlass#1094: mask 0x1f.
kernels.append(kernel(
    "cutlass_warp_idx_mask", 64, [zeros(64)], None,
    "Every lane of both warps runs __shfl_sync(0x1f, ...), and lanes 5-31 are not in that mask: "
    "shfl.sync is undefined for a caller outside its own mask. It does not hang, since each lane "
    "waits only for lanes 0-4, which all run it.",
    ub=True))

# --- kokkos/kokkos#6217, #6630: one writer, several readers, no warp barrier.
kr_in = [(i * 97 + 31) % 4096 for i in range(32)]
kernels.append(kernel(
    "kokkos_reduce_result_race", 32, [buf(kr_in), zeros(4)], None,
    "Thread 0 stores shared[0..3]; threads 1-3 load shared[1..3] with nothing ordering the loads "
    "after the stores (the shuffles before do not order memory), so they race and may read the "
    "uninitialised slots.",
    race=True))

kr_v = u32(sum(kr_in))
kr_out = [kr_v, u32(kr_v * 3), kr_v ^ 0xFFFF, u32(kr_v + 7)]
kernels.append(kernel(
    "kokkos_reduce_result_fixed", 32, [buf(kr_in), zeros(4)], [kr_in, kr_out],
    "The full-mask __syncwarp() is run by all 32 lanes after thread 0's stores and before the "
    "loads, and it orders memory among its participants. The butterfly leaves the warp sum in "
    "every lane."))

# --- pytorch/pytorch#20182: write-after-read in the block reduction.
sm_in = [(i * 53 + 19) % 5000 for i in range(64)]
kernels.append(kernel(
    "softmax_block_reduce_war", 64, [buf(sm_in), zeros(1)], None,
    "Lanes 0 and 1 of warp 0 take the branch (2 warps). Lane 0 loads smem[0..31] while lane 1 "
    "stores smem[1] with nothing ordering the two: a race, and lane 0's sum holds either the "
    "input or warp 1's sum in that slot.",
    race=True))

kernels.append(kernel(
    "softmax_block_reduce_fixed", 64, [buf(sm_in), zeros(1)], [sm_in, [u32(sum(sm_in))]],
    "The mask (1 << 2) - 1 = 3 names exactly lanes 0 and 1, the lanes in the branch, and both run "
    "the __syncwarp(3) between their loads and their stores, which orders lane 0's loads before "
    "lane 1's store. The block barriers order the rest; thread 0 adds the two warp sums."))

# --- gunrock/gunrock#324: a two-lane xor shuffle in a branch.
loc = [l + 32 for l in range(32)]
loc[0] = 2 * 16 + 32   # lane 0 receives lane 16's 2*16 + 32
loc[16] = 2 * 0 + 32   # lane 16 receives lane 0's 2*0 + 32
gr_out = [loc[l] if l < 8 else loc[l - 8] for l in range(32)]
kernels.append(kernel(
    "gunrock_shfl_pair", 32, [zeros(32)], [gr_out],
    "Lanes 0 and 16 are the lanes that take the branch, and exactly the lanes the mask 0x10001 "
    "names; each reads the other. Then all 32 lanes run the full-mask up-shuffle by 8. Every mask "
    "is met by the lanes it names and every source is in the mask, so there is nothing to hang "
    "on. Lanes 0-7 keep their own value, the others read lane - 8."))

# --- gunrock/mini#5: the ballot of the CTA segmented scan.
ss_in = [5, 9, 7]
kernels.append(kernel(
    "segscan_ballot_fullmask", 96, [buf(ss_in), zeros(3)], None,
    "Lanes 0-2 of warp 0 run __ballot_sync(0xffffffff) in the branch; lanes 3-31 of warp 0 are "
    "named, alive, and wait at the __syncthreads() after it, which in turn waits for lanes 0-2. "
    "Undefined, and no schedule completes.",
    deadlock=True, ub=True))

kernels.append(kernel(
    "segscan_ballot_activemask", 96, [buf(ss_in), zeros(3)], None,
    "The __activemask() mask is always one that all its lanes hold and use, so there is no "
    "undefined behaviour and no hang. But lanes 0-2 need not be converged in the branch: grouped "
    "together, lane 2 sees warp 1's bit and stores 9 - 1 + 32 = 40; grouped with lane 0 only, it "
    "sees warp 0's and stores 4; alone, it stores 0. Lane 1 stores 4 or 0. At most 3 lanes meet at "
    "the __activemask, so every grouping is explored."))

ss_out = []
bits = sum(1 << w for w in range(3) if ss_in[w] != 0)
for tid in range(3):
    below = bits & ((1 << tid) - 1)
    start = 0
    for w in range(tid, 0, -1):
        if (below >> (w - 1)) & 1:
            start = u32(ss_in[w - 1] - 1 + 32 * (w - 1))
            break
    ss_out.append(start)
kernels.append(kernel(
    "segscan_ballot_fixed", 96, [buf(ss_in), zeros(3)], [ss_in, ss_out],
    "Every lane of every warp runs the full-mask ballot before the branch (the predicate is false "
    "past lane 2), so warp 0's ballot has a bit for each warp with a start. Lane 1 takes warp 0's "
    "start 5 - 1 = 4, lane 2 takes warp 1's 9 - 1 + 32 = 40."))

# --- Dao-AILab/flash-attention#1389: the count of a named barrier.
fa_in = [(i * 41 + 3) % 777 for i in range(64)]
fa_s = [u32(x * 5 + 3) for x in fa_in]
fa_out = [u32(fa_s[l] + fa_s[63 - l]) for l in range(32)]
kernels.append(kernel(
    "fa3_named_barrier", 96, [buf(fa_in), zeros(32)], [fa_in, fa_out],
    "Barrier 1 with count 96: warps 0 and 1 arrive with bar.arrive, warp 2 with bar.sync, and the "
    "barrier completes when all 96 have arrived. Completion makes both producer warps' earlier "
    "stores visible to warp 2, which reads a slot of each."))

kernels.append(kernel(
    "fa3_named_barrier_short", 96, [buf(fa_in), zeros(32)], None,
    "Barrier 1 with count 64 and three warps arriving. If warps 0 and 1 arrive first, that "
    "completes the barrier with no one waiting; both exit, and warp 2's bar.sync starts a new "
    "round that only its own 32 threads reach. Exit releases only barriers that wait for all "
    "threads, not a counted one, so it waits forever. If warp 2 is among the first two, it goes on "
    "and loads the slots of the warp that has not arrived, unordered with that warp's stores: a "
    "race. The count is a multiple of 32 and every warp uses the same one, so neither outcome is "
    "undefined.",
    deadlock=True, race=True))

# --- pytorch/FBGEMM#5857: whole groups return before the block barriers.
fb_in = [(i * 71 + 13) % 3001 for i in range(96)]
fb_total = 64
fb_out = [max(fb_in[32 * (t // 32):32 * (t // 32) + 32]) if t < fb_total else 0 for t in range(96)]
kernels.append(kernel(
    "fbgemm_early_return_sync", 96, [buf(fb_in), zeros(96), value(fb_total)],
    [fb_in, fb_out, None],
    "Warp 2 returns before any barrier. Each bar.sync 0 waits for the threads that have not "
    "exited, so warps 0 and 1 meet at all 11; an exited thread does not break the barrier. Loads "
    "of a round come before its first barrier and stores after it, and the next round's loads "
    "after its second, so there is no race. Each lane ends with its group's maximum."))

# --- NVIDIA/cuda-samples#398: shuffling from lanes outside the mask.
r7_in = [(i * 19 + 2) % 300 for i in range(32)]
kernels.append(kernel(
    "reduce7_small_block", 32, [buf(r7_in), zeros(1)], None,
    "With one warp the ballot mask is 1, and only lane 0 runs the second loop. The caller is in "
    "its mask and nobody else is named, so nothing is undefined and nothing hangs. But each "
    "shuffle's source lane (16, 8, 4, 2, 1) is outside the mask, so the value it returns is "
    "undefined; out[0] has no single answer (it is the right sum only if every shuffle happened "
    "to return 0).",
))

# --- fireice-uk/xmr-stak#1569: full masks in a partial warp.
xm_in = [(i * 23 + 9) % 512 for i in range(48)]
xm_out = []
for t in range(48):
    base = t & ~3
    a = xm_in[base | ((t + 1) & 3)]
    b = xm_in[t ^ 2]
    xm_out.append(u32(a * 16 + b))
kernels.append(kernel(
    "xmrstak_partial_warp", 48, [buf(xm_in), zeros(48)], [xm_in, xm_out],
    "Warp 1 has lanes 0-15 only. The full mask also names lanes 16-31, which are not threads at "
    "all, so they are not non-exited threads of the mask, and every lane that exists runs both "
    "shuffles. With width 4 every source lane is in the caller's group of 4, which exists."))

write(__file__, kernels)
