#!/usr/bin/env python3
"""Writes seeded random CUDA kernels in a loop-heavy, warp-specialised style for `warpspec run`
and the kernel runner to check against each other (a second style beside generate_kernels.py).

    capture/generate_loop_kernels.py --seed 1 --count 500 --out DIR

writes DIR/loop_SEED.cu (COUNT kernels, `extern "C"`, named l<SEED>_<i>) and DIR/loop_SEED.json,
a launch manifest in the form `warpspec run --launch` and capture/harness/run_kernels.cpp read
(entry, threads, params; ptx loop_SEED.ptx). Compile with
`nvcc -arch=sm_90 -ptx DIR/loop_SEED.cu -o DIR/loop_SEED.ptx` (and `-cubin` for the runner).

The kernels take (const unsigned* in, unsigned* out, unsigned k): `in` holds one word a thread,
`out` one word a thread and one a warp, `k` a scalar. Their bodies are phases of these kinds:

- warp phases: bounded loops (`for`/`while`, up to 8 trips, trip counts from data) whose lanes
  leave at different times, with collectives inside and `break`/`continue`; the masks come from
  a ballot at the top of each trip, from `__match_any_sync` groups (a loop whose trip count is
  uniform in the group), from constant sub-warp masks under lane conditions (0x0000ffff,
  0x55555555, 0x0f0f0f0f, ...), from data every lane of a mask agrees on, and from
  `__activemask()` where at most four lanes of a warp can be; shuffles of all four kinds with
  widths 4 to 32 and lane operands from data, kept inside the lanes that are there;
- block phases: a shared-memory exchange loop with a uniform trip count, loops steered by
  `__syncthreads_or/and/count`;
- warp-specialised phases: producer warps fill shared memory and consumer warps read it, ordered
  by named barriers (`bar.sync`/`bar.arrive` through inline PTX, ids and counts as constants or
  registers) with a back-pressure barrier between rounds.

Block sizes run from 32 to 128 threads, many not multiples of 32 (the last warp partial; widths
of data-lane shuffles divide its lane count, so no shuffle reads a lane that does not exist).
About one kernel in six is deliberately wrong (its manifest entry names how, under "bug"):
a mask naming lanes that took the other side and stay alive, a loop mask not updated after
lanes break out, `__syncthreads` in a loop whose trip count differs per thread, a named
barrier count larger than the warps arriving, a producer that does not wait for its
consumers (a race), or two producer/consumer phases on the same barrier ids one after the
other (the producer's next arrival can complete a phase the consumers still wait on).
Everything stays inside the PTX subset `warpspec run` reads: integer only, no atomics, no
calls, no local arrays, no popc/clz/brev/bfind.
The same seed always gives the same kernels.
"""
import random

import kernel_sets

WIDTHS = (4, 8, 16, 32)
BUGS = ("other_side_mask", "stale_loop_mask", "syncthreads_divergent_loop",
        "named_count_too_big", "missing_backpressure", "barrier_id_reuse")
BLOCK_BUGS = ("named_count_too_big", "missing_backpressure", "barrier_id_reuse")


class Ctx:
    """The lanes of one warp that are at this point together: `mask` (a C expression every one
    of them holds with the same value) names exactly them; `shape` says how they sit in the warp
    ('warp': all its lanes, 'half': one half, 'even'/'odd': one parity, 'quad': lanes whose
    bit 2 is fixed, 'dyn': any set); `loop` is the loop whose body this is, at its top level."""

    def __init__(self, mask, shape, loop=None, ivar=None):
        self.mask = mask
        self.shape = shape
        self.loop = loop
        self.ivar = ivar

    def inner(self, mask, shape):
        return Ctx(mask, shape, None, self.ivar)


class Loop:
    def __init__(self, kind, var=None):
        self.kind = kind          # 'ballot' (lanes leave on their own) or 'uniform'
        self.var = var            # the ballot loop's mask variable
        self.can_break = True     # no `continue` taken yet in this body
        self.exits = False        # lanes may return from inside it


class Gen:
    def __init__(self, rng, name, threads):
        self.r = rng
        self.name = name
        self.T = threads
        self.W = (threads + 31) // 32
        tail = threads % 32 or 32
        self.widths = [w for w in WIDTHS if tail % w == 0]
        self.lines = []
        self.shared = []
        self.n = 0
        self.colls = 0
        self.max_colls = rng.randrange(6, 13)
        self.loops_left = rng.randrange(2, 5)
        self.nested_left = 1
        self.activemask_used = False
        self.bug = None
        self.bug_done = False
        self.ids = rng.sample(range(1, 8), 7)
        self.last_ids = None

    # ---- helpers ---------------------------------------------------------------------------
    def fresh(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def emit(self, d, text):
        self.lines.append("  " * (d + 1) + text)

    def budget_left(self):
        return self.colls < self.max_colls

    def loop_ok(self, loops):
        """Loops left to spend: a few a kernel, and one loop inside another once a kernel."""
        if not self.budget_left() or self.loops_left <= 0 or loops >= 2:
            return False
        return loops == 0 or self.nested_left > 0

    def data(self, ctx=None):
        """A per-lane value from data."""
        r = self.r
        opts = [f"(v >> {r.randrange(1, 12)})", "acc", f"(v ^ acc) >> {r.randrange(0, 6)}",
                f"(v * {r.choice([3, 5, 7, 11])}u)", f"in[(t + {r.randrange(1, self.T)}u) % {self.T}u]",
                "v"]
        if ctx is not None and ctx.ivar:
            opts.append(f"(v + {ctx.ivar})")
        return r.choice(opts)

    def cond(self, ctx=None):
        r = self.r
        opts = [f"(v & {r.choice([1, 2, 4, 8])}u) != 0u",
                f"lane < {r.randrange(1, 32)}u",
                f"v % 3u == {r.randrange(3)}u",
                f"(acc >> {r.randrange(0, 5)}) % 2u == 0u",
                f"(v >> {r.randrange(1, 9)}) % 4u < {r.randrange(1, 4)}u",
                f"v > {r.randrange(1 << 31)}u"]
        if ctx is not None and ctx.ivar:
            opts.append(f"((v >> {ctx.ivar}) & 1u) != 0u")
        return r.choice(opts)

    def trip(self, cap):
        """A per-lane trip count in 0..cap."""
        r = self.r
        c1 = cap + 1
        opts = [f"(v >> {r.randrange(0, 10)}) % {c1}u",
                f"min(v & 15u, {cap}u)",
                f"(v & {3 if cap < 7 else 7}u) + 1u",
                f"in[(t + {r.randrange(1, self.T)}u) % {self.T}u] % {c1}u",
                f"(acc + lane) % {c1}u"]
        t = r.choice(opts)
        if r.random() < 0.15:
            t = f"(k + lane) % {c1}u"
        return t

    def arith(self, d, ctx):
        r = self.r
        opts = [f"v = v * {r.choice([3, 5, 7, 1664525])}u + {r.randrange(1, 1000)}u;",
                f"v ^= v >> {r.randrange(1, 9)};",
                "acc += v;",
                f"acc = acc * 31u + (v & {r.choice([15, 255, 65535])}u);",
                f"v += lane * {r.randrange(1, 9)}u;",
                "v = max(v, acc) - min(v, acc);",
                f"v ^= in[(t + {r.randrange(1, self.T)}u) % {self.T}u];"]
        if ctx.ivar:
            opts.append(f"acc += v + {ctx.ivar};")
        self.emit(d, r.choice(opts))

    # ---- collectives -----------------------------------------------------------------------
    def shuffle(self, d, ctx):
        r = self.r
        M = ctx.mask
        shape = ctx.shape
        if shape == "dyn":
            # A lane of the mask picked from data: the smallest lane, or a larger one.
            lo, src = self.fresh("lo"), self.fresh("src")
            self.emit(d, f"const unsigned {lo} = __reduce_min_sync({M}, lane);")
            self.emit(d, f"const unsigned {src} = __reduce_max_sync({M}, ({self.cond(ctx)}) ? lane : {lo});")
            expr = f"__shfl_sync({M}, v, {src})"
        else:
            if shape == "warp":
                ws = self.widths
            elif shape == "half":
                ws = [w for w in self.widths if w <= 16]
            elif shape == "quad":
                ws = [4]
            else:
                ws = self.widths
            w = r.choice(ws)
            par = shape in ("even", "odd")
            kind = r.choice(["idx", "up", "down", "xor"])
            dat = self.data(ctx)
            wsuf = "" if (w == 32 and r.random() < 0.5) else f", {w}"
            if kind == "idx":
                if par:
                    src = f"(({dat}) << 1) | {1 if shape == 'odd' else 0}u"
                else:
                    src = r.choice([f"{dat}", f"lane + {r.randrange(1, 32)}u"])
                expr = f"__shfl_sync({M}, v, {src}{wsuf})"
            else:
                step = 2 if par else 1
                if w == step or r.random() < 0.4:
                    off = f"{r.randrange(step, w, step) if w > step else 0}u"
                else:
                    off = f"(({dat}) & {w - step}u)"
                fn = {"up": "__shfl_up_sync", "down": "__shfl_down_sync", "xor": "__shfl_xor_sync"}[kind]
                expr = f"{fn}({M}, v, {off}{wsuf})"
        self.emit(d, r.choice([f"v += {expr};", f"acc ^= {expr};", f"v = ({expr}) ^ (v >> 1);"]))

    def collective(self, d, ctx):
        r = self.r
        self.colls += 1
        M = ctx.mask
        x = r.random()
        if x < 0.35:
            self.shuffle(d, ctx)
            return
        op = r.choice(["add", "min", "max", "and", "or", "xor", "smax"])
        if op == "smax":
            red = f"(unsigned)__reduce_max_sync({M}, (int)v)"
        else:
            red = f"__reduce_{op}_sync({M}, {r.choice(['v', 'v & 255u', 'acc', 'v >> 3'])})"
        if r.random() < 0.2:
            pv = self.fresh("p")
            self.emit(d, f"int {pv};")
            self.emit(d, f"acc += __match_all_sync({M}, v & {r.choice([1, 3, 7])}u, &{pv});")
            self.emit(d, f"acc ^= (unsigned){pv};")
            return
        self.emit(d, r.choice([
            f"acc ^= __ballot_sync({M}, {self.cond(ctx)});",
            f"acc += {red};",
            f"v += {red};",
            f"acc += __any_sync({M}, {self.cond(ctx)});",
            f"acc += __all_sync({M}, {self.cond(ctx)}) * {r.randrange(2, 9)}u;",
            f"acc += __match_any_sync({M}, v & {r.choice([1, 3, 7])}u);",
            f"__syncwarp({M});",
        ]))

    # ---- warp-level structure --------------------------------------------------------------
    def wblock(self, d, ctx, budget, loops):
        r = self.r
        for _ in range(budget):
            x = r.random()
            lp = ctx.loop
            if lp and lp.kind == "ballot" and lp.can_break and x < 0.15:
                self.break_piece(d, ctx, loops)
            elif lp and lp.kind == "ballot" and x < 0.25:
                ctx = self.continue_piece(d, ctx, loops)
            elif lp and lp.kind == "uniform" and x < 0.2:
                self.uniform_exit(d, ctx)
            elif x < 0.5 and self.budget_left():
                self.collective(d, ctx)
            elif x < 0.6:
                self.arith(d, ctx)
            elif x < 0.75 and d < 5 and self.budget_left():
                self.branch(d, ctx, loops)
            elif x < 0.92 and self.loop_ok(loops):
                self.loop(d, ctx, loops)
            elif loops == 0 and not self.activemask_used and self.budget_left():
                self.activemask_piece(d, ctx)
            else:
                self.arith(d, ctx)

    def break_piece(self, d, ctx, loops, exit_ok=False):
        r = self.r
        lp = ctx.loop
        cb, bm = self.fresh("cb"), self.fresh("bm")
        self.emit(d, f"const bool {cb} = {self.cond(ctx)};")
        self.emit(d, f"const unsigned {bm} = __ballot_sync({ctx.mask}, {cb});")
        self.colls += 1
        self.emit(d, f"if ({cb}) {{")
        if r.random() < 0.5 and self.budget_left():
            self.collective(d + 1, ctx.inner(bm, "dyn"))
        if (exit_ok or lp.exits) and r.random() < 0.5:
            self.emit(d + 1, "out[t] = v ^ acc;")
            self.emit(d + 1, "return;")
        else:
            self.emit(d + 1, "break;")
        self.emit(d, "}")
        self.emit(d, f"{lp.var} &= ~{bm};")

    def continue_piece(self, d, ctx, loops):
        r = self.r
        cc, cm, rm = self.fresh("cc"), self.fresh("cm"), self.fresh("rm")
        self.emit(d, f"const bool {cc} = {self.cond(ctx)};")
        self.emit(d, f"const unsigned {cm} = __ballot_sync({ctx.mask}, {cc});")
        self.colls += 1
        self.emit(d, f"if ({cc}) {{")
        self.wblock(d + 1, ctx.inner(cm, "dyn"), r.randrange(1, 3), loops)
        self.emit(d + 1, "continue;")
        self.emit(d, "}")
        self.emit(d, f"const unsigned {rm} = {ctx.mask} & ~{cm};")
        self.emit(d, f"(void){rm};")
        ctx.loop.can_break = False
        return Ctx(rm, "dyn", ctx.loop, ctx.ivar)

    def uniform_exit(self, d, ctx):
        r = self.r
        self.colls += 1
        kw = r.choice(["break", "continue"])
        test = r.choice([f"__all_sync({ctx.mask}, {self.cond(ctx)})",
                         f"__any_sync({ctx.mask}, {self.cond(ctx)})",
                         f"__reduce_add_sync({ctx.mask}, v & 7u) > {r.randrange(4, 60)}u",
                         f"__reduce_or_sync({ctx.mask}, v) % 5u == {r.randrange(5)}u"])
        self.emit(d, f"if ({test}) {kw};")

    def branch(self, d, ctx, loops):
        r = self.r
        M = ctx.mask
        x = r.random()
        bug = self.bug == "other_side_mask" and not self.bug_done
        if x < 0.4 or bug:
            # Sides named by a ballot the lanes here take before the branch.
            c, m = self.fresh("c"), self.fresh("m")
            self.emit(d, f"const bool {c} = {self.cond(ctx)};")
            self.emit(d, f"const unsigned {m} = __ballot_sync({M}, {c});")
            self.colls += 1
            self.emit(d, f"if ({c}) {{")
            if bug:
                # Wrong: the mask of the lanes before the branch, while the others stay alive
                # and wait at a collective of their own on the other side.
                self.bug_done = True
                self.collective(d + 1, ctx.inner(M, ctx.shape))
                self.emit(d, "} else {")
                self.collective(d + 1, ctx.inner(f"{M} & ~{m}", "dyn"))
                self.emit(d, "}")
                self.emit(d, f"__syncwarp({M});")
                return
            self.wblock(d + 1, ctx.inner(m, "dyn"), r.randrange(1, 4), loops)
            if r.random() < 0.6:
                self.emit(d, "} else {")
                self.wblock(d + 1, ctx.inner(f"({M}) & ~{m}", "dyn"), r.randrange(1, 3), loops)
            self.emit(d, "}")
        elif x < 0.7:
            # Constant sub-warp masks under lane conditions.
            full = ctx.shape == "warp"
            test, m1, m2, shape = r.choice([
                ("lane < 16u", "0x0000ffffu", "0xffff0000u", "half"),
                ("(lane & 1u) == 0u", "0x55555555u", "0xaaaaaaaau", "even"),
                ("(lane & 4u) == 0u", "0x0f0f0f0fu", "0xf0f0f0f0u", "quad"),
            ])
            s1 = shape if full else "dyn"
            s2 = ("odd" if shape == "even" else shape) if full else "dyn"
            e1 = m1 if (M == "0xffffffffu") else f"{M} & {m1}"
            e2 = m2 if (M == "0xffffffffu") else f"{M} & {m2}"
            self.emit(d, f"if ({test}) {{")
            self.wblock(d + 1, ctx.inner(e1, s1), r.randrange(1, 3), loops)
            if r.random() < 0.7:
                self.emit(d, "} else {")
                self.wblock(d + 1, ctx.inner(e2, s2), r.randrange(1, 3), loops)
            self.emit(d, "}")
        elif x < 0.85:
            # A mask from data all lanes here agree on.
            dm = self.fresh("dm")
            src = r.choice([f"__reduce_or_sync({M}, v >> {r.randrange(0, 8)})",
                            f"__reduce_xor_sync({M}, acc) ^ {r.randrange(1 << 32)}u",
                            f"__reduce_add_sync({M}, v) * {r.choice([3, 7, 2654435761])}u"])
            if ctx.shape == "warp" and r.random() < 0.5:
                src = f"__shfl_sync({M}, v ^ acc, {r.randrange(0, 4)})"
            self.colls += 1
            self.emit(d, f"const unsigned {dm} = ({src}) & {M};")
            self.emit(d, f"if (({dm} >> lane) & 1u) {{")
            self.wblock(d + 1, ctx.inner(dm, "dyn"), r.randrange(1, 3), loops)
            if r.random() < 0.5:
                self.emit(d, "} else {")
                self.wblock(d + 1, ctx.inner(f"{M} & ~{dm}", "dyn"), r.randrange(1, 3), loops)
            self.emit(d, "}")
        else:
            # A uniform branch: __match_all_sync's predicate is the same in every lane.
            pv, ma = self.fresh("pa"), self.fresh("ma")
            self.colls += 1
            self.emit(d, f"int {pv};")
            self.emit(d, f"const unsigned {ma} = __match_all_sync({M}, {r.choice(['v & 1u', 'acc & 3u', 'v >> 30', 'lane >> 4'])}, &{pv});")
            self.emit(d, f"if ({pv}) {{")
            self.emit(d + 1, f"acc += {ma};")
            self.wblock(d + 1, ctx.inner(M, ctx.shape), r.randrange(1, 3), loops)
            self.emit(d, "} else {")
            self.wblock(d + 1, ctx.inner(M, ctx.shape), r.randrange(1, 3), loops)
            self.emit(d, "}")

    def loop(self, d, ctx, loops, exits=False):
        r = self.r
        cap = 8 if loops == 0 else 3
        self.loops_left -= 1
        if loops:
            self.nested_left -= 1
        x = r.random()
        unroll1 = r.random() < 0.2

        def header(text):
            if unroll1:
                self.emit(d, "#pragma unroll 1")
            self.emit(d, text)
        stale = self.bug == "stale_loop_mask" and not self.bug_done
        if x < 0.5 or exits or stale:
            # Lanes leave on their own: a ballot at the top of each trip names those staying.
            n, lm, i = self.fresh("n"), self.fresh("lm"), self.fresh("i")
            lp = Loop("ballot", lm)
            lp.exits = exits
            self.emit(d, f"const unsigned {n} = {self.trip(cap)};")
            self.emit(d, f"unsigned {lm} = {ctx.mask};")
            form = r.random()
            if stale:
                self.bug_done = True
                # Wrong: the mask from before the loop, while lanes that left wait after it.
                header(f"for (unsigned {i} = 0; {i} < {n}; ++{i}) {{")
                self.collective(d + 1, Ctx(lm, ctx.shape, None, i))
                self.arith(d + 1, ctx)
                self.emit(d, "}")
                self.emit(d, f"acc += __reduce_add_sync({ctx.mask}, v);")
                return
            self.colls += 1
            if form < 0.6:
                header(f"for (unsigned {i} = 0; {i} < {cap}u; ++{i}) {{")
                self.emit(d + 1, f"{lm} = __ballot_sync({lm}, {i} < {n});")
                self.emit(d + 1, f"if ({i} >= {n}) break;")
            else:
                self.emit(d, f"unsigned {i} = 0;")
                header("while (true) {")
                self.emit(d + 1, f"{lm} = __ballot_sync({lm}, {i} < {n});")
                self.emit(d + 1, f"if ({i} >= {n}) break;")
                self.emit(d + 1, f"++{i};")
            body = Ctx(lm, "dyn", lp, i)
            if exits:
                self.break_piece(d + 1, body, loops + 1, exit_ok=True)
            self.wblock(d + 1, body, r.randrange(1, 4), loops + 1)
            self.emit(d, "}")
            if not exits and r.random() < 0.4:
                # The lanes that left early wait here for the others.
                self.emit(d, f"__syncwarp({ctx.mask});")
        elif x < 0.75:
            # Lanes with one key make a group; the trip count is uniform in the group.
            key, g, i = self.fresh("key"), self.fresh("g"), self.fresh("i")
            kc = min(cap, 4)
            self.emit(d, f"const unsigned {key} = ({r.choice(['v', 'acc', 'v >> 4', 'lane >> 3'])}) % {kc}u;")
            self.emit(d, f"const unsigned {g} = __match_any_sync({ctx.mask}, {key});")
            self.colls += 1
            header(f"for (unsigned {i} = 0; {i} <= {key}; ++{i}) {{")
            self.wblock(d + 1, Ctx(g, "dyn", Loop("uniform"), i), r.randrange(1, 4), loops + 1)
            self.emit(d, "}")
        else:
            # A warp-uniform loop: every lane here leaves together when no lane has work left.
            xv, i = self.fresh("x"), self.fresh("i")
            self.emit(d, f"unsigned {xv} = ({r.choice(['v', 'acc', 'v ^ acc'])}) & {r.choice([15, 63, 255])}u;")
            step = r.choice([f"{xv} >>= 1", f"{xv} &= {xv} - 1u", f"{xv} /= 3u"])
            self.colls += 1
            header(f"for (unsigned {i} = 0; {i} < {cap}u && __any_sync({ctx.mask}, {xv} != 0u); ++{i}, {step}) {{")
            self.emit(d + 1, f"v += {xv};")
            self.wblock(d + 1, Ctx(ctx.mask, ctx.shape, Loop("uniform"), i), r.randrange(1, 4), loops + 1)
            self.emit(d, "}")

    def activemask_piece(self, d, ctx):
        # At most four lanes of one warp come here, so every grouping of them is explored.
        r = self.r
        self.activemask_used = True
        am = self.fresh("am")
        if self.W == 1:
            self.emit(d, f"if ((lane & 7u) == {r.randrange(8)}u) {{")
        else:
            # One warp only: the groupings of several warps would multiply.
            self.emit(d, f"if (warp == {r.randrange(self.W)}u && (lane & 7u) == {r.randrange(8)}u) {{")
        self.emit(d + 1, f"const unsigned {am} = __activemask();")
        self.emit(d + 1, f"acc += {am} & 0xffu;")
        for _ in range(r.randrange(1, 3)):
            self.collective(d + 1, ctx.inner(am, "dyn"))
        self.emit(d, "}")

    # ---- block-level phases ----------------------------------------------------------------
    def warp_phase(self, d):
        r = self.r
        full = Ctx("wm", "warp")
        if r.random() < 0.2:
            full = Ctx("0xffffffffu", "warp") if self.T % 32 == 0 else full
        if self.W > 1 and r.random() < 0.35:
            # Warp 0 does one thing, the others another.
            self.emit(d, "if (warp == 0u) {")
            self.wblock(d + 1, full, r.randrange(1, 4), 0)
            self.emit(d, "} else {")
            self.wblock(d + 1, full, r.randrange(1, 4), 0)
            self.emit(d, "}")
        else:
            self.wblock(d, full, r.randrange(2, 5), 0)

    def rounds(self, least=1):
        r = self.r
        if r.random() < 0.5:
            return f"k % {r.randrange(2, 4)}u + {least}u"
        return f"{r.randrange(least, 4)}u"

    def exchange_phase(self, d, bug=None):
        r = self.r
        s, rr = self.fresh("s"), self.fresh("r")
        self.shared.append(f"__shared__ unsigned {s}[{self.T}];")
        if bug == "syncthreads_divergent_loop":
            n = "(v & 3u) + 1u" if r.random() < 0.5 else "(in[t] >> 3) % 3u + 1u"
        else:
            n = self.rounds()
        self.emit(d, f"for (unsigned {rr} = 0; {rr} < {n}; ++{rr}) {{")
        self.emit(d + 1, f"{s}[t] = v + {rr};")
        self.emit(d + 1, "__syncthreads();")
        off = r.choice([f"{r.randrange(1, self.T)}u", f"{rr} * 7u + 1u", f"({s}[t] & 7u) + 1u",
                        f"(in[t] >> {r.randrange(0, 8)}) % {self.T}u"])
        self.emit(d + 1, f"v += {s}[(t + {off}) % {self.T}u];")
        if r.random() < 0.5 and self.budget_left():
            self.collective(d + 1, Ctx("wm", "warp", None, rr))
        self.emit(d + 1, "__syncthreads();")
        self.emit(d, "}")

    def vote_phase(self, d):
        r = self.r
        x = r.random()
        if x < 0.4:
            xv, i = self.fresh("x"), self.fresh("i")
            self.emit(d, f"unsigned {xv} = v & {r.choice([7, 15, 63])}u;")
            self.emit(d, f"for (unsigned {i} = 0; {i} < 8u && __syncthreads_or({xv} != 0u); ++{i}) {{")
            self.emit(d + 1, f"{xv} >>= 1;")
            self.emit(d + 1, f"acc += __syncthreads_count(({xv} & 1u) != 0u) * {r.randrange(1, 9)}u;")
            self.wblock(d + 1, Ctx("wm", "warp", None, i), r.randrange(1, 3), 1)
            self.emit(d, "}")
        elif x < 0.7:
            self.emit(d, f"if (__syncthreads_and({self.cond()})) {{")
            self.wblock(d + 1, Ctx("wm", "warp"), r.randrange(1, 3), 1)
            self.emit(d, "} else {")
            self.wblock(d + 1, Ctx("wm", "warp"), r.randrange(1, 3), 1)
            self.emit(d, "}")
        else:
            self.emit(d, f"acc += __syncthreads_count({self.cond()});")
            self.emit(d, f"v ^= __syncthreads_or({self.cond()}) << {r.randrange(0, 8)};")

    def bar(self, d, op, bid, cnt, reg):
        if reg:
            self.emit(d, f'asm volatile("{op} %0, %1;" :: "r"({bid}), "r"({cnt}) : "memory");')
        else:
            self.emit(d, f'asm volatile("{op} {bid}, {cnt};" ::: "memory");')

    def prodcons_phase(self, d, bug=None):
        """Producer warps fill shared slots, consumer warps read them, ordered by named barriers."""
        r = self.r
        p, rr = self.fresh("pb"), self.fresh("r")
        W = self.W
        # Which warps consume: all others, or just the next one (pairs when there are 4 warps).
        pairs = W >= 4 and r.random() < 0.3
        if pairs:
            groups = 2
            parts = 2
            self.shared.append(f"__shared__ unsigned {p}[2][32];")
            slot = f"{p}[warp >> 1]"
            prod = "(warp & 1u) == 0u"
            cons_guard = None
        else:
            parts = W if r.random() < 0.7 or W == 2 else 2
            groups = 1
            self.shared.append(f"__shared__ unsigned {p}[32];")
            slot = p
            prod = "warp == 0u"
            cons_guard = None if parts == W else f"warp < {parts}u"
        cnt = parts * 32
        if bug == "named_count_too_big":
            cnt += 32 * r.randrange(1, 3)
        if bug == "barrier_id_reuse" and self.last_ids:
            # Wrong: the ids of the phase just before, with nothing between the phases to keep
            # the producer's next arrival from counting toward a phase the consumers still wait on.
            full, back = self.last_ids
        else:
            # Ids of their own (1-7, and 9-15 for a second pair or a k-chosen set), so that one
            # phase's arrivals never count toward another's.
            full, back = self.ids.pop(), self.ids.pop()
        self.last_ids = (full, back)
        reg = r.random() < 0.5
        if reg:
            fid, bidv, cv = self.fresh("bf"), self.fresh("bb"), self.fresh("bc")
            if pairs:
                self.emit(d, f"const unsigned {fid} = {full}u + (warp >> 1) * 8u;")
                self.emit(d, f"const unsigned {bidv} = {back}u + (warp >> 1) * 8u;")
            elif r.random() < 0.4:
                self.emit(d, f"const unsigned {fid} = {full}u + (k & 1u) * 8u;")
                self.emit(d, f"const unsigned {bidv} = {back}u + (k & 1u) * 8u;")
            else:
                self.emit(d, f"const unsigned {fid} = {full}u;")
                self.emit(d, f"const unsigned {bidv} = {back}u;")
            self.emit(d, f"const unsigned {cv} = {cnt}u;")
            self.emit(d, f"(void){bidv};")
            F, B, C = fid, bidv, cv
        else:
            if pairs:
                # Constant ids: the pairs spell their barriers out.
                F, B, C = None, None, str(cnt)
            else:
                F, B, C = str(full), str(back), str(cnt)
        # Without the back-pressure barrier it takes two rounds to go wrong.
        n = self.rounds(2 if bug == "missing_backpressure" else 1)
        rounds = self.fresh("nr")
        self.emit(d, f"const unsigned {rounds} = {n};")
        outer = d
        if pairs and W % 2 == 1:
            self.emit(d, f"if (warp < {W - 1}u) {{")
            d += 1
        if cons_guard:
            self.emit(d, f"if ({cons_guard}) {{")
            d += 1
        self.emit(d, f"for (unsigned {rr} = 0; {rr} < {rounds}; ++{rr}) {{")
        e = d + 1

        def barrier(depth, op, which):
            if F is None:
                # Constant ids for pairs: branch on the pair.
                ids = [full + 8 * g if which == "full" else back + 8 * g for g in range(groups)]
                self.emit(depth, "if ((warp >> 1) == 0u) {")
                self.bar(depth + 1, op, ids[0], C, False)
                self.emit(depth, "} else {")
                self.bar(depth + 1, op, ids[1], C, False)
                self.emit(depth, "}")
            else:
                self.bar(depth, op, F if which == "full" else B, C, reg)

        self.emit(e, f"if ({prod}) {{")
        if bug != "missing_backpressure":
            self.emit(e + 1, f"if ({rr} > 0u) {{")
            barrier(e + 2, "bar.sync", "back")
            self.emit(e + 1, "}")
        val = r.choice(["v + " + rr, f"__reduce_add_sync(0xffffffffu, v) + lane * {rr}",
                        f"__shfl_xor_sync(0xffffffffu, v, {r.choice([1, 2, 4, 8, 16])}) ^ {rr}", f"acc ^ v ^ {rr}"])
        self.emit(e + 1, f"{slot}[lane] = {val};")
        if r.random() < 0.5 and self.budget_left():
            self.collective(e + 1, Ctx("wm", "warp", None, rr))
        op = r.choice(["bar.arrive", "bar.arrive", "bar.sync"])
        if self.bug == "barrier_id_reuse":
            op = "bar.arrive"   # the producer runs ahead into the next phase
        barrier(e + 1, op, "full")
        self.emit(e, "} else {")
        barrier(e + 1, "bar.sync", "full")
        self.emit(e + 1, f"v += {slot}[(lane + ({self.data()})) & 31u];")
        if r.random() < 0.6 and self.budget_left():
            self.collective(e + 1, Ctx("wm", "warp", None, rr))
        if bug != "missing_backpressure":
            self.emit(e + 1, f"if ({rr} + 1u < {rounds}) {{")
            barrier(e + 2, "bar.arrive", "back")
            self.emit(e + 1, "}")
        self.emit(e + 1, f"if (lane == 0u) out[{self.T} + warp] += v;")
        self.emit(e, "}")
        self.emit(d, "}")
        while d > outer:
            d -= 1
            self.emit(d, "}")


def kernel(rng, name):
    threads = rng.choice([32, 40, 48, 64, 72, 96, 100, 128, 36, 68, 80, 112, 120])
    g = Gen(rng, name, threads)
    if rng.random() < 1 / 6:
        bugs = [b for b in BUGS if g.W > 1 or b not in BLOCK_BUGS]
        g.bug = rng.choice(bugs)
    phases = ["warp"] + [rng.choice(["warp", "warp", "exchange", "vote", "prodcons", "prodcons"])
                         for _ in range(rng.randrange(1, 4))]
    if g.W == 1:
        phases = [p if p != "prodcons" else "warp" for p in phases]
    rng.shuffle(phases)
    if g.bug == "syncthreads_divergent_loop":
        phases.insert(rng.randrange(len(phases) + 1), "exchange_bug")
    elif g.bug in ("named_count_too_big", "missing_backpressure"):
        phases.insert(rng.randrange(len(phases) + 1), "prodcons_bug")
    elif g.bug == "barrier_id_reuse":
        at = rng.randrange(len(phases) + 1)
        phases[at:at] = ["prodcons", "prodcons_bug"]
    # Each producer/consumer phase takes two barrier ids of seven.
    while phases.count("prodcons") + phases.count("prodcons_bug") > 3:
        keep = phases.index("prodcons_bug") - 1 if g.bug == "barrier_id_reuse" else -1
        phases[next(i for i, p in enumerate(phases) if p == "prodcons" and i != keep)] = "warp"
    tail_exits = rng.random() < 0.25
    for ph in phases:
        if ph == "warp":
            g.warp_phase(0)
        elif ph == "exchange":
            g.exchange_phase(0)
        elif ph == "exchange_bug":
            g.exchange_phase(0, g.bug)
        elif ph == "vote":
            g.vote_phase(0)
        elif ph == "prodcons":
            g.prodcons_phase(0)
        elif ph == "prodcons_bug":
            g.prodcons_phase(0, g.bug)
    if g.bug in ("other_side_mask", "stale_loop_mask") and not g.bug_done:
        # The warp phases did not reach it: one more phase that does.
        if g.bug == "other_side_mask":
            g.branch(0, Ctx("wm", "warp"), 0)
        else:
            g.loop(0, Ctx("wm", "warp"), 0)
    if tail_exits:
        # Lanes leave the kernel from inside a loop; nothing after it synchronises the block.
        g.loop(0, Ctx("wm", "warp"), 0, exits=True)
    W = g.W
    head = [f'extern "C" __global__ void {name}(const unsigned* in, unsigned* out, unsigned k) {{',
            "  const unsigned t = threadIdx.x, lane = t & 31u, warp = t >> 5;",
            f"  const unsigned live = min({threads}u - (t & ~31u), 32u);",
            "  const unsigned wm = live == 32u ? 0xffffffffu : (1u << live) - 1u;",
            "  unsigned v = in[t], acc = 0;",
            "  (void)lane; (void)warp; (void)wm; (void)k;"]
    head += ["  " + s for s in g.shared]
    body = head + g.lines + ["  out[t] = v ^ acc;", "}"]
    words = [rng.randrange(1 << 32) if rng.random() < 0.5 else rng.randrange(16)
             for _ in range(threads)]
    entry = {"name": name, "entry": name, "threads": threads,
             "params": [{"words": words}, {"zeros": threads + W}, {"value": rng.randrange(0, 24)}],
             "bug": g.bug}
    return "\n".join(body), entry


if __name__ == "__main__":
    kernel_sets.main(__doc__, "capture/generate_loop_kernels.py", "loop", "l", kernel)
