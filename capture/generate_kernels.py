#!/usr/bin/env python3
"""Writes seeded random CUDA kernels for `warpspec run` and the kernel runner to check against
each other: structured control flow (nested if/else, early returns) with warp collectives whose
masks come from live values, block barriers and a shared-memory exchange.

    capture/generate_kernels.py --seed 1 --count 500 --out DIR

writes DIR/gen_SEED.cu (COUNT kernels, `extern "C"`, named g<SEED>_<i>) and DIR/gen_SEED.json,
a launch manifest in the form `warpspec run --launch` and capture/harness/run_kernels.cpp read
(entry, threads, params; ptx gen_SEED.ptx). Compile with
`nvcc -arch=sm_90 -ptx DIR/gen_SEED.cu -o DIR/gen_SEED.ptx` (and `-cubin` for the runner).

Most masks are valid by construction: inside a branch a collective names the lanes a ballot
taken before the branch says are on that side. A few kernels take shortcuts programs get wrong
(a full mask inside a branch, `__activemask()` as a mask, `__syncthreads()` under a condition),
so that deadlocks, undefined behaviour and schedule-dependent results are among them too.
The same seed always gives the same kernels.
"""
import random

import kernel_sets


class Gen:
    def __init__(self, rng, threads):
        self.rng = rng
        self.threads = threads
        self.lines = []
        self.masks = 0
        self.uses_shared = False

    def emit(self, depth, text):
        self.lines.append("  " * (depth + 1) + text)

    def cond(self):
        r = self.rng
        return r.choice([
            f"(v & {r.choice([1, 2, 4])}u) != 0",
            f"lane < {r.randrange(1, 32)}u",
            f"v % 3u == {r.randrange(3)}u",
            f"t >= {r.randrange(1, self.threads)}u",
            f"(v >> {r.randrange(1, 8)}) % 2u == 0u",
        ])

    def arith(self, depth):
        r = self.rng
        self.emit(depth, r.choice([
            f"v = v * {r.choice([3, 5, 7, 1664525])}u + {r.randrange(1, 1000)}u;",
            f"v ^= v >> {r.randrange(1, 9)};",
            "acc += v;",
            f"acc = acc * 31u + (v & {r.choice([15, 255, 65535])}u);",
        ]))

    def collective(self, depth, mask, buggy):
        """One collective whose membermask is `mask` (an expression valid for the lanes here)."""
        r = self.rng
        if buggy and r.random() < 0.5:
            mask = r.choice(["0xffffffffu", "__activemask()"])
        k = r.choice([1, 2, 4, 8, 16])
        self.emit(depth, r.choice([
            f"v += __shfl_xor_sync({mask}, v, {k});",
            f"v += __shfl_sync({mask}, v, __reduce_min_sync({mask}, lane));",
            f"acc ^= __ballot_sync({mask}, (v & {r.choice([1, 2, 8])}u) != 0);",
            f"acc += __reduce_add_sync({mask}, v & 255u);",
            f"acc += __reduce_max_sync({mask}, v);",
            f"acc += __match_any_sync({mask}, v & 3u);",
            f"acc += __all_sync({mask}, v > {r.randrange(1 << 20)}u);",
            f"acc += __any_sync({mask}, (v & 7u) == 3u);",
            f"__syncwarp({mask});",
        ]))

    def block(self, depth, mask, top, budget, buggy):
        r = self.rng
        for _ in range(budget):
            kind = r.random()
            if kind < 0.3:
                self.arith(depth)
            elif kind < 0.6:
                self.collective(depth, mask, buggy)
            elif kind < 0.8 and depth < 3:
                # A branch: its sides' lanes are a ballot taken by the lanes here before it.
                c = self.cond()
                m = f"m{self.masks}"
                self.masks += 1
                self.emit(depth, f"const bool c{m} = {c};")
                self.emit(depth, f"const unsigned {m} = __ballot_sync({mask}, c{m});")
                self.emit(depth, f"if (c{m}) {{")
                self.block(depth + 1, m, False, r.randrange(1, 4), buggy)
                if r.random() < 0.6:
                    self.emit(depth, "} else {")
                    self.block(depth + 1, f"({mask}) & ~{m}", False, r.randrange(1, 4), buggy)
                self.emit(depth, "}")
            elif kind < 0.87 and top:
                self.uses_shared = True
                self.emit(depth, "s[t] = v;")
                self.emit(depth, "__syncthreads();")
                self.emit(depth, f"v += s[(t + {r.randrange(1, self.threads)}u) % {self.threads}u];")
                self.emit(depth, "__syncthreads();")
            elif kind < 0.92 and buggy and not top:
                self.emit(depth, "__syncthreads();")
            elif kind < 0.96 and top and not self.uses_shared:
                # An early exit: the lanes that leave are excused from later collectives.
                self.emit(depth, f"if ({self.cond()}) {{ out[t] = v; return; }}")
            else:
                self.arith(depth)


def kernel(rng, name):
    threads = rng.choice([32, 32, 64, 48])
    g = Gen(rng, threads)
    buggy = rng.random() < 0.15
    g.block(0, "0xffffffffu", True, rng.randrange(3, 9), buggy)
    head = [f'extern "C" __global__ void {name}(const unsigned* in, unsigned* out) {{',
            "  const unsigned t = threadIdx.x, lane = t & 31u;",
            "  unsigned v = in[t], acc = 0;", "  (void)lane;"]
    if g.uses_shared:
        head.append(f"  __shared__ unsigned s[{threads}];")
    body = head + g.lines + ["  out[t] = v ^ acc;", "}"]
    words = [rng.randrange(1 << 32) if rng.random() < 0.5 else rng.randrange(16)
             for _ in range(threads)]
    entry = {"name": name, "entry": name, "threads": threads,
             "params": [{"words": words}, {"zeros": threads}], "buggy": buggy}
    return "\n".join(body), entry


if __name__ == "__main__":
    kernel_sets.main(__doc__, "capture/generate_kernels.py", "gen", "g", kernel)
