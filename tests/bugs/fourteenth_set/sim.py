#!/usr/bin/env python3
"""Independent reference simulator for PTX warp/CTA primitives, written from the PTX ISA text.

usage: sim.py VECTORS.jsonl OUT.jsonl [--bug NAME]

Reads a warpspec-vectors/1 file, runs every vector, writes a warpspec-results/1 file.
UB vectors are reported skipped (no implementation has to match them).
--bug NAME plants one deliberate bug (see BUGS below); default: correct.
"""
import json
import sys

M32 = 0xffffffff
BUG = None


def bug(name):
    return BUG == name


# ---------------------------------------------------------------- parsing helpers

def num(x):
    """A word as written in the vector file: "0x..", decimal string, int, bool."""
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    s = str(x).strip()
    if s.lower().startswith('0x'):
        return int(s, 16)
    return int(s)


def per_lane(v, n, width=32):
    mask = (1 << width) - 1
    if isinstance(v, list):
        assert len(v) == n
        return [num(x) & mask for x in v]
    return [num(v) & mask] * n


def lane_set(s, n):
    """Block thread sets: "none", "all", "3", "0-32,34-63"."""
    out = set()
    s = s.strip()
    if s in ('none', ''):
        return out
    if s == 'all':
        return set(range(n))
    for part in s.split(','):
        part = part.strip()
        if '-' in part:
            lo, hi = part.split('-')
            out.update(range(int(lo), int(hi) + 1))
        else:
            out.add(int(part))
    return out


def bits(m):
    return [i for i in range(32) if (m >> i) & 1]


def hx(v, width=32):
    return '0x%0*x' % (width // 4, v & ((1 << width) - 1))


def s32(v):
    v &= M32
    return v - (1 << 32) if v & 0x80000000 else v


# ---------------------------------------------------------------- state kept across rounds
# (a real simulator keeps registers / barrier units between instructions; the correct
#  implementation only uses it where the spec says so: elect's determinism)

class WarpState:
    def __init__(self):
        self.ballot_reg = [0] * 32      # last ballot value written per lane
        self.pred_reg = [False] * 32    # last p per lane
        self.slot = [0] * 32            # last operand a lane passed (for slot bugs)
        self.slot_written = [False] * 32
        self.prev_activemask = None
        self.prev_leader = None
        self.cta_acc = {}               # barrier-unit accumulators
        self.red_counter = 0




# ---------------------------------------------------------------- warp forms

def participants(lane, mask, exited, executing, st=None):
    """Non-exited lanes of lane's membermask."""
    if bug('membermask_ignored_match_any') and FORM.startswith('match.any'):
        return executing
    if bug('vote_any_exited_counted') and FORM == 'vote.sync.any.pred':
        return mask[lane]
    return mask[lane] & ~exited & M32


def run_warp_round(inst, form, r, st):
    exited = num(r['exited']) & M32
    inactive = num(r['inactive']) & M32
    executing = ~(exited | inactive) & M32
    site = per_lane(r.get('site', 0), 32)
    out_d = [None] * 32
    out_p = None
    ex = bits(executing)

    global FORM
    FORM = form

    if form == 'activemask.b32':
        if bug('activemask_stale_first_round') and st.prev_activemask is not None:
            for i in ex:
                out_d[i] = st.prev_activemask.get(i) or hx(sum(1 << j for j in ex if site[j] == site[i]))
            return {'d': out_d}
        for i in ex:
            if bug('activemask_ignores_site'):
                out_d[i] = hx(executing)
            elif bug('activemask_includes_exited'):
                m = sum(1 << j for j in ex if site[j] == site[i]) | exited
                out_d[i] = hx(m)
            else:
                out_d[i] = hx(sum(1 << j for j in ex if site[j] == site[i]))
        st.prev_activemask = {i: out_d[i] for i in ex}
        return {'d': out_d}

    mask = per_lane(r.get('mask', 0), 32)

    if form == 'bar.warp.sync':
        for i in ex:
            need = mask[i] & ~exited
            if bug('syncwarp_waits_for_exited'):
                need = mask[i]
            # resumes when every lane it names has executed bar.warp.sync
            if need & ~executing & M32:
                return {'hang': True}
            if bug('syncwarp_single_mask') and any(mask[j] != mask[ex[0]] for j in ex):
                return {'hang': True}
            out_d[i] = 0
        return {'d': out_d}

    if form == 'elect.sync':
        out_p = [None] * 32
        has_d = 'd|p' in inst
        for i in ex:
            m = mask[i] & M32
            if bug('elect_mask_ignored'):
                leader = ex[0]
            elif bug('elect_highest_changes'):
                # leader per election: highest in odd rounds, lowest otherwise (not deterministic)
                cand = [j for j in bits(m) if (executing >> j) & 1]
                leader = cand[-1] if st.round_no % 2 else cand[0]
            elif bug('elect_sink_highest') and not has_d:
                cand = [j for j in bits(m) if (executing >> j) & 1]
                leader = cand[-1]
            elif bug('elect_depends_on_neighbors'):
                cand = [j for j in bits(m) if (executing >> j) & 1]
                leader = cand[0] if cand[0] == ex[0] else cand[-1]
            elif bug('elect_sticky_leader'):
                cand = [j for j in bits(m) if (executing >> j) & 1]
                if st.prev_leader is not None and (m >> st.prev_leader) & 1 and (executing >> st.prev_leader) & 1:
                    leader = st.prev_leader
                else:
                    leader = cand[0]
            else:
                cand = [j for j in bits(m) if (executing >> j) & 1]
                leader = cand[0]
            if has_d:
                out_d[i] = leader if not bug('elect_rank') else 0
            if bug('elect_p_only_on_leader'):
                if i == leader:
                    st.pred_reg[i] = True
                out_p[i] = 1 if st.pred_reg[i] else 0
            else:
                out_p[i] = 1 if i == leader else 0
        leaders = [i for i in ex if out_p[i]]
        if leaders:
            st.prev_leader = leaders[-1]
        res = {'p': out_p}
        if has_d:
            res['d'] = out_d
        return res

    if form.startswith('match.'):
        w = 64 if form.endswith('b64') else 32
        a = per_lane(r.get('a', 0), 32, w)
        is_all = form.startswith('match.all')
        if is_all:
            out_p = [None] * 32
        for i in ex:
            part = participants(i, mask, exited, executing)
            if bug('match_any_exited_zero') and not is_all:
                vals = {j: (a[j] if not (exited >> j) & 1 else 0) for j in bits(mask[i])}
            elif bug('match_all_exited_stale') and is_all:
                vals = {j: a[j] for j in bits(mask[i])}
            else:
                vals = {j: a[j] for j in bits(part)}

            def key(v):
                if bug('match64_low_half') and w == 64:
                    return v & M32
                if bug('match64_bit32_lost') and w == 64:
                    return (v & M32) | ((v >> 33) << 32)
                if bug('match32_bit16_lost') and w == 32:
                    return (v & 0xffff) | ((v >> 17) << 16)
                if bug('match_ignores_sign_bit'):
                    return v & ((1 << (w - 1)) - 1)
                return v
            mine = key(a[i])
            if is_all:
                same = all(key(v) == mine for v in vals.values())
                if bug('match_all_single_false') and len(vals) < 2:
                    same = False
                if same:
                    d = part
                    if bug('match_all_gives_mask'):
                        d = mask[i]
                else:
                    d = 0
                out_d[i] = hx(d)
                out_p[i] = 1 if same else 0
            else:
                d = sum(1 << j for j, v in vals.items() if key(v) == mine)
                out_d[i] = hx(d)
        res = {'d': out_d}
        if is_all:
            res['p'] = out_p
        return res

    if form.startswith('vote.'):
        a = per_lane(r.get('a', 0), 32)
        neg = '!a' in inst

        def pred(j):
            v = a[j]
            if bug('vote_pred_bit0'):
                t = bool(v & 1)
            elif bug('vote_pred_signed_positive'):
                t = s32(v) > 0
            elif bug('vote_pred_low16'):
                t = (v & 0xffff) != 0
            else:
                t = v != 0
            if neg and not bug('vote_negate_answer'):
                t = not t
            return t
        mode = form.split('.')[2]
        for i in ex:
            part = participants(i, mask, exited, executing)
            ps = [pred(j) for j in bits(part)]
            if mode == 'ballot':
                if bug('ballot_exited_counted'):
                    part = mask[i]
                if bug('vote_ballot_lane31_dropped'):
                    part &= 0x7fffffff
                d = sum(1 << j for j in bits(part) if pred(j))
                if bug('ballot_negate_complement') and neg:
                    d = ~sum(1 << j for j in bits(part) if not pred(j)) & mask[i] & M32
                if bug('ballot_stale_bits'):
                    d |= st.ballot_reg[i] & ~mask[i]
                out_d[i] = hx(d)
            elif mode == 'all':
                res_ = all(ps)
                if neg and bug('vote_negate_answer'):
                    res_ = not res_
                out_d[i] = res_
            elif mode == 'any':
                res_ = any(ps)
                if neg and bug('vote_negate_answer'):
                    res_ = not res_
                out_d[i] = res_
            elif mode == 'uni':
                if bug('vote_uni_vs_warp_lane0'):
                    ref = pred(ex[0])
                    out_d[i] = all(p == ref for p in ps)
                elif bug('vote_uni_none_with_exited'):
                    allm = [pred(j) for j in bits(mask[i])]
                    out_d[i] = all(ps) or not any(allm)
                else:
                    out_d[i] = len(set(ps)) <= 1
                if bug('vote_uni_inverted'):
                    out_d[i] = not out_d[i]
        if mode == 'ballot':
            for i in ex:
                st.ballot_reg[i] = num(out_d[i])
        return {'d': out_d}

    if form.startswith('redux.'):
        a = per_lane(r.get('a', 0), 32)
        _, _, op, ty = form.split('.')
        for i in ex:
            part = participants(i, mask, exited, executing)
            lanes = bits(part)
            if bug('redux_fullmask_fastpath') and mask[i] == M32:
                lanes = list(range(32))
            if bug('redux_xor_lane31_missed') and op == 'xor':
                lanes = [j for j in lanes if j != 31]
            if bug('redux_or_in_halves') and op == 'or':
                lanes = [j for j in lanes if (j >> 4) == (i >> 4)]
            vals = [a[j] for j in lanes]
            if op == 'add':
                acc = sum(vals) & M32
                if bug('redux_tree_pow2'):
                    t = list(vals)
                    while len(t) > 1:
                        t = [t[k] + t[k + 1] for k in range(0, len(t) - 1, 2)]
                    acc = (t[0] if t else 0) & M32
                if bug('redux_add_s32_saturate') and ty == 's32':
                    t = sum(s32(v) for v in vals)
                    acc = max(-2**31, min(2**31 - 1, t)) & M32
            elif op in ('min', 'max'):
                signed = (ty == 's32')
                if bug('redux_minmax_sign_swapped_min_s32') and op == 'min' and ty == 's32':
                    signed = False
                kf = s32 if signed else (lambda v: v)
                if bug('redux_s32_intmin_off_by_one') and signed:
                    kf = lambda v: v - (1 << 32) if v > 0x80000000 else v
                if bug('redux_max_identity_zero') and op == 'max':
                    vals = vals + [0]
                if bug('redux_min_u32_identity_intmax') and op == 'min' and not signed:
                    vals = vals + [0x7fffffff]
                acc = (min if op == 'min' else max)(vals, key=kf) & M32
            elif op == 'and':
                acc = M32
                for v in vals:
                    acc &= v
                if bug('redux_and_identity_zero_when_single') and len(vals) == 1:
                    acc = 0
            elif op == 'or':
                acc = 0
                for v in vals:
                    acc |= v
            elif op == 'xor':
                acc = 0
                for v in vals:
                    acc ^= v
            out_d[i] = hx(acc)
        return {'d': out_d}

    if form.startswith('shfl.'):
        a = per_lane(r.get('a', 0), 32)
        b = per_lane(r.get('b', 0), 32)
        c = per_lane(r.get('c', 0), 32)
        mode = form.split('.')[2]
        out_p = [None] * 32
        src_regs = list(a)
        for i in ex:
            lane = i
            bval = b[i] & 31
            if bug('shfl_b_not_masked') and mode == 'idx':
                bval = b[i]
            ci = c[ex[0]] if bug('shfl_c_from_first_lane') else c[i]
            cval = ci & 31
            seg = (ci >> 8) & 31
            if bug('shfl_clamp_6bits'):
                cval = c[i] & 63
            if bug('shfl_segment_ignored'):
                seg = 0
            maxl = (lane & seg) | (cval & ~seg & (63 if bug('shfl_clamp_6bits') else 31))
            minl = lane & seg
            if bug('shfl_up_ignores_clamp') and mode == 'up':
                maxl = minl
            if bug('shfl_idx_bound_cval_only') and mode == 'idx':
                maxl = cval
            if mode == 'up':
                j = lane - bval
                if bug('shfl_up_unsigned'):
                    j &= 31
                pval = j >= maxl
                if bug('shfl_up_strict'):
                    pval = j > maxl
            elif mode == 'down':
                j = lane + bval
                if bug('shfl_down_wrap5'):
                    j &= 31
                pval = j <= maxl
                if bug('shfl_down_clamp_off_by_one'):
                    pval = j < maxl
            elif mode == 'bfly':
                j = lane ^ bval
                if bug('shfl_bfly_in_segment'):
                    j = minl | (j & ~seg & 31)
                pval = j <= maxl
            else:
                j = minl | (bval & ~seg & 31)
                if bug('shfl_b_not_masked'):
                    j = minl | (bval & ~seg)
                if bug('shfl_idx_no_wrap'):
                    j = minl + bval
                pval = j <= maxl
            if not pval:
                j = lane
            if not pval and bug('shfl_out_of_range_zero'):
                v = 0
            else:
                v = src_regs[j & 31]
            out_d[i] = hx(v)
            if bug('shfl_lane_order_writeback'):
                src_regs[i] = v
            out_p[i] = 1 if pval else 0
            if bug('shfl_p_false_if_source_absent') and pval and not ((executing >> j) & 1 and (mask[i] >> j) & 1):
                out_p[i] = 0
            if bug('shfl_pred_always_true'):
                out_p[i] = 1
        return {'d': out_d, 'p': out_p}

    raise SystemExit('unknown form ' + form)


# ---------------------------------------------------------------- block barriers

def parse_bar_operands(inst):
    """Return (kind, bar_imm or 'reg', count_imm or None or 'reg', negated)."""
    body = inst.rstrip(';').split(None, 1)
    op = body[0]
    args = [x.strip() for x in body[1].split(',')] if len(body) > 1 else []
    if op.startswith('bar.red'):
        args = args[1:]            # drop d
        pred_arg = args[-1]
        args = args[:-1]
        neg = pred_arg.startswith('!')
    else:
        neg = False
    bar = args[0]
    cnt = args[1] if len(args) > 1 else None
    bar = 'reg' if bar.startswith('%') else int(bar, 0)
    if cnt is not None:
        cnt = 'reg' if cnt.startswith('%') else int(cnt, 0)
    return bar, cnt, neg


def run_block_round(inst, form, r, st):
    n = num(r['threads'])
    exited = lane_set(r['exited'], n)
    inactive = lane_set(r['inactive'], n)
    partner = lane_set(r.get('partner', 'none'), n)
    bar_i, cnt_i, neg = parse_bar_operands(inst)
    bars = per_lane(r['bar'], n) if 'bar' in r else [bar_i] * n
    cnts = per_lane(r['count'], n) if 'count' in r else [cnt_i] * n
    if bug('cta_barrier_id_2bits'):
        bars = [x & 3 for x in bars]
    if bug('cta_count_8bit'):
        cnts = [None if x is None else (x & 0xff) for x in cnts]
    a = per_lane(r.get('a', 0), n)
    is_red = form.startswith('bar.red')
    is_arrive_form = form == 'bar.arrive'
    nwarps = (n + 31) // 32

    arriving = [t for t in range(n) if t not in exited and t not in inactive]
    if bug('cta_exited_waited'):
        # barrier waits for exited threads too: a warp arrives only when all its threads do
        pass

    def waits(t):
        # bar.arrive threads do not wait; bar.sync / bar.red do
        via_partner = t in partner
        if is_arrive_form:
            w = via_partner      # partner of bar.arrive is bar.sync
            if bug('cta_arrive_waits'):
                w = True
            return w
        return not via_partner   # partner of bar.sync is bar.arrive (never for bar.red in defined)

    def pred(t):
        v = a[t]
        if bug('cta_pred_bit0'):
            tv = bool(v & 1)
        else:
            tv = v != 0
        return (not tv) if neg else tv

    # group arrivals by barrier number
    by_bar = {}
    for t in arriving:
        by_bar.setdefault(bars[t], []).append(t)

    resumed = set()
    red_value = {}
    resumed_all = set(arriving)
    for bnum, ts in by_bar.items():
        warps = sorted({t // 32 for t in ts})
        cnt = cnts[ts[0]]
        if bug('cta_count_from_first_thread'):
            cnt = cnts[arriving[0]]
        if bug('cta_count_ignored'):
            cnt = None
        if cnt is None:
            # all threads of the CTA participate: every warp with a non-exited thread must arrive
            need = {t // 32 for t in range(n) if t not in exited}
            if bug('cta_exited_waited') or bug('cta_whole_exited_warp_waited'):
                need = set(range(nwarps))
            if bug('cta_exited_waited') and any(t in exited for t in range(n)):
                phases = []
            elif set(warps) >= need:
                phases = [warps]
            else:
                phases = []
        else:
            phases = []
            cur = []
            counter = 0
            for w in warps:
                cur.append(w)
                if bug('cta_arrivals_per_thread'):
                    counter += sum(1 for t in ts if t // 32 == w)
                else:
                    counter += 32
                if counter >= cnt:
                    if not (bug('cta_single_phase') and phases):
                        phases.append(cur)
                    cur = []
                    counter = 0
        for ph in phases:
            pts = [t for t in ts if t // 32 in ph]
            if is_red:
                if bug('cta_exited_counted'):
                    pts_vals = pts + [t for t in exited if t // 32 in ph or True]
                elif bug('cta_red_exited_in_warp_counted'):
                    pts_vals = pts + [t for t in exited if t // 32 in ph]
                elif bug('cta_red_all_cta_threads'):
                    pts_vals = [t for t in range(n) if t not in exited]
                elif bug('cta_red_barriers_merged_value'):
                    pts_vals = [t for t in arriving if t in resumed_all]
                else:
                    pts_vals = pts
                if bug('cta_partial_warp_dropped') and n % 32:
                    pts_vals = [t for t in pts_vals if t < (n // 32) * 32]
                if form == 'bar.red.popc.u32':
                    v = sum(1 for t in pts_vals if pred(t))
                    if bug('cta_not_reset'):
                        st.red_counter += v
                        v = st.red_counter
                    if bug('cta_popc_8bit'):
                        v &= 0xff
                    if bug('cta_popc_sums_values'):
                        v = sum(a[t] & M32 for t in pts_vals if pred(t)) & M32 if not neg else v
                elif form == 'bar.red.and.pred':
                    if bug('cta_and_bitwise'):
                        acc = M32
                        for t in pts_vals:
                            acc &= (a[t] if not neg else ~a[t]) & M32
                        v = acc != 0
                    else:
                        v = all(pred(t) for t in pts_vals)
                else:
                    v = any(pred(t) for t in pts_vals)
                for t in pts:
                    red_value[t] = v
            for t in pts:
                resumed.add(t)

    out = [None] * n
    hang = False
    for t in arriving:
        if waits(t) and t not in resumed:
            hang = True
    if hang:
        return {'hang': True}
    for t in arriving:
        if t in partner:
            continue          # the partner form is not this instruction: no result
        if is_red:
            v = red_value[t]
            out[t] = hx(v) if form == 'bar.red.popc.u32' else bool(v)
        else:
            out[t] = 0
    return {'d': out}


# ---------------------------------------------------------------- driver

def run_vector(v, st):
    form = v['form']
    inst = v['instruction']
    rounds_out = []
    for k, r in enumerate(v['rounds']):
        st.round_no = k
        if 'threads' in r:
            res = run_block_round(inst, form, r, st)
        else:
            res = run_warp_round(inst, form, r, st)
        rounds_out.append(res)
        if res.get('hang'):
            break
    return rounds_out


def main():
    global BUG
    args = sys.argv[1:]
    if '--bug' in args:
        k = args.index('--bug')
        BUG = args[k + 1]
        del args[k:k + 2]
    vin, vout = args
    with open(vin) as f, open(vout, 'w') as g:
        header = json.loads(f.readline())
        assert header['schema'] == 'warpspec-vectors/1'
        g.write(json.dumps({'schema': 'warpspec-results/1'}) + '\n')
        st_global = WarpState()
        for line in f:
            if not line.strip():
                continue
            v = json.loads(line)
            if v['ub']:
                g.write(json.dumps({'id': v['id'], 'skipped': True}) + '\n')
                continue
            st = st_global if BUG in STATEFUL_ACROSS_VECTORS else WarpState()
            rounds = run_vector(v, st)
            g.write(json.dumps({'id': v['id'], 'rounds': rounds}) + '\n')


STATEFUL_ACROSS_VECTORS = set()

if __name__ == '__main__':
    main()
