// AVX-512 kernels. Lane sets live in mask registers and general-purpose words; per-lane words
// (membermasks, 32-bit operands, matrix rows) live in two zmm registers, lanes 0-15 and 16-31.
// Every function here is compiled for the AVX-512 target by attribute, so the rest of the
// library keeps the baseline ISA and `supported()` decides at run time whether these may run.
// The algorithms are those of generic.hpp / warp_words.hpp; comments name the twin.
#include "model/fast/avx512.hpp"

#include <array>
#include <bit>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WARPSPEC_AVX512_KERNELS 1
#include <immintrin.h>
// GCC 12's intrinsic headers seed masked operations with _mm512_undefined_*(), which its flow
// analysis reports as uninitialised once inlined; the values are never read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#endif

namespace warpspec::fast::avx512 {

#ifndef WARPSPEC_AVX512_KERNELS

bool supported() {
  return false;
}
void evaluate(const spec::Instr&, bool, const model::Warp*, std::size_t, WarpLanes*) {}
void transpose32(const uint32_t*, uint32_t*) {}
void equal_sets32(const uint32_t*, uint32_t*) {}
void equal_sets64(const uint64_t*, uint32_t*) {}
bool walk_groups32(const model::Warp&, uint32_t*, unsigned* count) {
  *count = 0;
  return false;
}

#else

#define WS_TARGET_ISA "avx512f,avx512bw,avx512vl,avx512cd,avx512vbmi,gfni,bmi,bmi2,popcnt"
#define WS_KERNEL __attribute__((target(WS_TARGET_ISA)))
#define WS_INLINE static inline __attribute__((always_inline, target(WS_TARGET_ISA)))
// Lambdas do not inherit their enclosing function's target; this gives them the kernels' one.
#define WS_LAMBDA __attribute__((always_inline, target(WS_TARGET_ISA)))

bool supported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd") &&
         __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("gfni") &&
         __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("popcnt");
}

namespace {

static_assert(sizeof(bool) == 1, "lane flags are read 32 bytes at a time");
static_assert(sizeof(model::Warp::mask) == 128 && sizeof(model::Warp::a) == 256);

// ---------------------------------------------------------------- constant tables

struct alignas(64) Words {
  uint32_t w[32];
};
struct alignas(64) Bytes {
  uint8_t b[64];
};

constexpr Words lane_bits() {
  Words t{};
  for (unsigned i = 0; i < 32; ++i) t.w[i] = uint32_t{1} << i;
  return t;
}

constexpr Words lane_numbers() {
  Words t{};
  for (unsigned i = 0; i < 32; ++i) t.w[i] = i;
  return t;
}

// Dword indexes picking the low (even) or high (odd) halves of 16 qwords.
constexpr Words half_index(unsigned odd) {
  Words t{};
  for (unsigned i = 0; i < 16; ++i) t.w[i] = 2 * i + odd;
  return t;
}

// Transpose, step 1: gather 8x8 bit blocks into qwords. Output `half` holds the blocks of byte
// columns 2*half and 2*half+1; qword q is block (row block q/2, byte column 2*half + q%2), its
// byte k being row 8*(q/2) + 7 - k (reversed, which is the row order gf2p8affine wants).
constexpr Bytes block_gather(unsigned half) {
  Bytes t{};
  for (unsigned q = 0; q < 8; ++q)
    for (unsigned k = 0; k < 8; ++k) {
      const unsigned row = 8 * (q / 2) + 7 - k, column = 2 * half + q % 2;
      t.b[8 * q + k] = static_cast<uint8_t>(4 * row + column);
    }
  return t;
}

// Transpose, step 3: output row 16*half + r takes, as byte rb, byte k of transposed block
// (rb, column byte cb) where 16*half + r = 8*cb + k.
constexpr Bytes block_scatter(unsigned half) {
  Bytes t{};
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned rb = 0; rb < 4; ++rb) {
      const unsigned global = 16 * half + r, cb = global / 8, k = global % 8;
      t.b[4 * r + rb] = static_cast<uint8_t>(8 * (2 * rb + (cb - 2 * half)) + k);
    }
  return t;
}

// Earlier-equal matrix, cross blocks: dword t of the result takes byte 0 of element (t < 8 ?
// 8 + t : t) from the first table as its byte 0 and from the second table as its byte 1.
constexpr Bytes cross_pick() {
  Bytes t{};
  for (unsigned d = 0; d < 16; ++d) {
    const unsigned element = d < 8 ? 8 + d : d;
    t.b[4 * d] = static_cast<uint8_t>(4 * element);
    t.b[4 * d + 1] = static_cast<uint8_t>(64 + 4 * element);
  }
  return t;
}

constexpr Words kLaneBits = lane_bits();
constexpr Words kLaneNumbers = lane_numbers();
constexpr Words kEven = half_index(0), kOdd = half_index(1);
constexpr Bytes kGather0 = block_gather(0), kGather1 = block_gather(1);
constexpr Bytes kScatter0 = block_scatter(0), kScatter1 = block_scatter(1);
constexpr Bytes kCrossPick = cross_pick();
// Bytes 0-1 of dwords 0-7 (cross blocks of lanes 16-23) and of dwords 8-15 (lanes 24-31).
constexpr __mmask64 kCrossLow = 0x0000000033333333ull, kCrossHigh = 0x3333333300000000ull;
// gf2p8affine data operand whose byte k is the unit vector 1 << k.
constexpr long long kUnitBytes = 0x8040201008040201ll;

// ---------------------------------------------------------------- 32 lanes in two registers

struct Pair {
  __m512i lo, hi;  // lanes 0-15, 16-31
};

WS_INLINE __m512i load(const void* p) {
  return _mm512_loadu_si512(p);
}
WS_INLINE __m512i load_table(const Words& t) {
  return _mm512_load_si512(t.w);
}
WS_INLINE __m512i load_table(const Bytes& t) {
  return _mm512_load_si512(t.b);
}
WS_INLINE Pair bcast(uint32_t x) {
  return {_mm512_set1_epi32(static_cast<int>(x)), _mm512_set1_epi32(static_cast<int>(x))};
}
WS_INLINE Pair lane_bit_pair() {
  return {load(kLaneBits.w), load(kLaneBits.w + 16)};
}

WS_INLINE uint32_t join(__mmask16 lo, __mmask16 hi) {
  return _cvtmask32_u32(_mm512_kunpackw(hi, lo));
}
WS_INLINE uint32_t lo16(uint32_t k) {
  return k & 0xffffu;
}
WS_INLINE uint32_t hi16(uint32_t k) {
  return k >> 16;
}

// Lanes whose word has a bit in common with `x`'s (vptestmd).
WS_INLINE uint32_t test(const Pair& a, const Pair& b) {
  return join(_mm512_test_epi32_mask(a.lo, b.lo), _mm512_test_epi32_mask(a.hi, b.hi));
}
WS_INLINE uint32_t test_none(const Pair& a, const Pair& b) {
  return join(_mm512_testn_epi32_mask(a.lo, b.lo), _mm512_testn_epi32_mask(a.hi, b.hi));
}
WS_INLINE uint32_t not_equal(const Pair& a, const Pair& b) {
  return join(_mm512_cmpneq_epi32_mask(a.lo, b.lo), _mm512_cmpneq_epi32_mask(a.hi, b.hi));
}
WS_INLINE Pair and_(const Pair& a, const Pair& b) {
  return {_mm512_and_si512(a.lo, b.lo), _mm512_and_si512(a.hi, b.hi)};
}
template <int Imm>
WS_INLINE Pair ternary(const Pair& a, const Pair& b, const Pair& c) {
  return {_mm512_ternarylogic_epi32(a.lo, b.lo, c.lo, Imm),
          _mm512_ternarylogic_epi32(a.hi, b.hi, c.hi, Imm)};
}
// ternarylogic truth tables over (a, b, c) = (0xF0, 0xCC, 0xAA)
constexpr int kOr3 = 0xFE, kAnd3 = 0x80;
constexpr int kAAndNotBAndC = 0x70;  // a & ~(b & c)
constexpr int kAAndCAndNotB = 0x20;  // a & c & ~b

WS_INLINE Pair permute(const Pair& table, const Pair& index) {
  return {_mm512_permutex2var_epi32(table.lo, index.lo, table.hi),
          _mm512_permutex2var_epi32(table.lo, index.hi, table.hi)};
}
WS_INLINE void store(uint32_t* p, const Pair& x) {
  _mm512_storeu_si512(p, x.lo);
  _mm512_storeu_si512(p + 16, x.hi);
}
// Lowest set bit of each lane's word (x & -x), and its position (the
// position of an empty word reads as lane 31, which callers never rely on).
WS_INLINE Pair lowest_bit(const Pair& x) {
  const __m512i zero = _mm512_setzero_si512();
  return {_mm512_and_si512(x.lo, _mm512_sub_epi32(zero, x.lo)),
          _mm512_and_si512(x.hi, _mm512_sub_epi32(zero, x.hi))};
}
WS_INLINE Pair bit_position(const Pair& onehot) {
  const __m512i k31 = _mm512_set1_epi32(31);
  return {_mm512_xor_si512(_mm512_lzcnt_epi32(onehot.lo), k31),
          _mm512_xor_si512(_mm512_lzcnt_epi32(onehot.hi), k31)};
}

WS_INLINE uint32_t flags32(const std::array<bool, 32>& flags) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(flags.data()));
  return _mm256_test_epi8_mask(v, v);
}

// The low and high 32-bit halves of the 32 operands, as lane pairs.
WS_INLINE void operand_halves(const model::Warp& w, Pair* low, Pair* high) {
  const __m512i q0 = load(w.a.data()), q1 = load(w.a.data() + 8), q2 = load(w.a.data() + 16),
                q3 = load(w.a.data() + 24);
  const __m512i even = load_table(kEven);
  low->lo = _mm512_permutex2var_epi32(q0, even, q1);
  low->hi = _mm512_permutex2var_epi32(q2, even, q3);
  if (high) {
    const __m512i odd = load_table(kOdd);
    high->lo = _mm512_permutex2var_epi32(q0, odd, q1);
    high->hi = _mm512_permutex2var_epi32(q2, odd, q3);
  }
}

// Lanes whose 64-bit operand is non-zero.
WS_INLINE uint32_t nonzero_operands(const model::Warp& w) {
  __mmask8 k[4];
  for (unsigned q = 0; q < 4; ++q) {
    const __m512i x = load(w.a.data() + 8 * q);
    k[q] = _mm512_test_epi64_mask(x, x);
  }
  return join(_mm512_kunpackb(k[1], k[0]), _mm512_kunpackb(k[3], k[2]));
}

// ---------------------------------------------------------------- bit matrices

// `transpose` (words.hpp): gather each 8x8 bit block into a qword, transpose all blocks with
// one gf2p8affine per register, and put the blocks back at their mirrored positions.
WS_INLINE Pair transpose(const Pair& rows) {
  const __m512i unit = _mm512_set1_epi64(kUnitBytes);
  const __m512i z0 = _mm512_permutex2var_epi8(rows.lo, load_table(kGather0), rows.hi);
  const __m512i z1 = _mm512_permutex2var_epi8(rows.lo, load_table(kGather1), rows.hi);
  const __m512i g0 = _mm512_gf2p8affine_epi64_epi8(unit, z0, 0);
  const __m512i g1 = _mm512_gf2p8affine_epi64_epi8(unit, z1, 0);
  return {_mm512_permutexvar_epi8(load_table(kScatter0), g0),
          _mm512_permutexvar_epi8(load_table(kScatter1), g1)};
}

// `earlier_equal` (words.hpp) with conflict detection: vpconflictd gives each of 16 elements
// the earlier elements equal to it. Two of them cover the halves; four more, on 8+8 element
// mixes of the halves, cover the 16x16 cross block between them.
WS_INLINE Pair earlier_equal(const Pair& v) {
  const __m512i c0 = _mm512_conflict_epi32(v.lo), c1 = _mm512_conflict_epi32(v.hi);
  const __m512i ca = _mm512_conflict_epi32(_mm512_shuffle_i64x2(v.lo, v.hi, 0x44));
  const __m512i cb = _mm512_conflict_epi32(_mm512_shuffle_i64x2(v.lo, v.hi, 0x4E));
  const __m512i cc = _mm512_conflict_epi32(_mm512_shuffle_i64x2(v.lo, v.hi, 0xE4));
  const __m512i cd = _mm512_conflict_epi32(_mm512_shuffle_i64x2(v.lo, v.hi, 0xEE));
  const __m512i pick = load_table(kCrossPick);
  const __m512i cross_lo = _mm512_maskz_permutex2var_epi8(kCrossLow, ca, pick, cb);
  const __m512i cross_hi = _mm512_maskz_permutex2var_epi8(kCrossHigh, cc, pick, cd);
  return {c0, _mm512_ternarylogic_epi32(_mm512_slli_epi32(c1, 16), cross_lo, cross_hi, kOr3)};
}

// `equal_sets` (words.hpp): earlier | transpose(earlier) | own bit.
WS_INLINE Pair equal_sets(const Pair& earlier) {
  return ternary<kOr3>(earlier, transpose(earlier), lane_bit_pair());
}

WS_INLINE Pair equal_sets_wide(const Pair& low, const Pair& high) {
  return equal_sets(and_(earlier_equal(low), earlier_equal(high)));
}

// ---------------------------------------------------------------- one warp's words and UB

// A warp as the kernels see it. `shared` is the membermask of the lowest executing lane. When
// every executing lane passes it (`uniform`: converged code, and always with an immediate mask),
// all executing lanes have one participant set, so the UB clauses and each family's result are a
// few scalar word operations; otherwise the per-lane vector forms below run.
struct View {
  uint32_t execs, exited;
  Pair mask;
  uint32_t shared;
  bool uniform;
};

template <bool Plain>
WS_INLINE View view_of(const spec::Instr& in, const model::Warp& w) {
  View v;
  v.exited = flags32(w.exited);
  v.execs = flags32(w.exec) & ~v.exited;
  if (!Plain && in.imm_mask) {
    v.shared = *in.imm_mask;
    v.mask = bcast(v.shared);
    v.uniform = true;
    return v;
  }
  v.mask = {load(w.mask.data()), load(w.mask.data() + 16)};
  // With no executing lane, lane 31's mask serves; nothing depends on it then.
  v.shared = w.mask[static_cast<unsigned>(std::countr_zero(v.execs | 0x80000000u))];
  const __m512i s = _mm512_set1_epi32(static_cast<int>(v.shared));
  v.uniform = _kortestz_mask16_u8(
      _mm512_mask_cmpneq_epi32_mask(static_cast<__mmask16>(lo16(v.execs)), v.mask.lo, s),
      _mm512_mask_cmpneq_epi32_mask(static_cast<__mmask16>(hi16(v.execs)), v.mask.hi, s));
  return v;
}

// The participant word of every executing lane when the view is uniform.
WS_INLINE uint32_t shared_part(const View& v) {
  return v.shared & ~v.exited;
}

// UB when every executing lane passes `shared`: a lane misses its own bit where `shared` does;
// a peer is absent for all or for none; masks cannot mismatch.
WS_INLINE void uniform_ub(const View& v, WarpLanes& out) {
  out.executes = v.execs;
  out.p = 0;
  out.loose_d = 0;
  out.ub[0] = v.execs & ~v.shared;
  out.ub[1] = (v.shared & ~v.exited & ~v.execs) != 0 ? v.execs : 0;
  out.ub[2] = 0;
  out.ub[3] = 0;
}

// `ub_mask_mismatch` (warp_words.hpp): the equal sets of the membermasks, from conflict
// detection and a transpose; a lane mismatches when it names an executing lane outside its set.
WS_INLINE uint32_t mask_mismatch(const View& v) {
  const Pair same_mask = equal_sets(earlier_equal(v.mask));
  const Pair outside = ternary<kAAndCAndNotB>(v.mask, same_mask, bcast(v.execs));
  return v.execs & test(outside, outside);
}

// The groups of a diverged warp, as the walk below visits them.
struct Groups {
  unsigned n;
  uint32_t set[32];
};

WS_INLINE uint32_t equal_words(const Pair& a, uint32_t x) {
  const __m512i s = _mm512_set1_epi32(static_cast<int>(x));
  return join(_mm512_cmpeq_epi32_mask(a.lo, s), _mm512_cmpeq_epi32_mask(a.hi, s));
}

// `mismatch_walk_step` (warp_words.hpp), until no lane is left: the lowest lane left leads a
// group, the executing lanes its mask names. True when the walk ends clean, which
// `fast.mismatch_walk_is_sound` proves leaves no mask mismatch when every executing lane is in
// its own mask. Where no UB clause fires at all, the groups are then the participant sets of
// the executing lanes, each lane in one, which the reductions use.
WS_INLINE bool walk_groups(const model::Warp& w, const View& v, Groups& g) {
  uint32_t left = v.execs, bad = 0;
  unsigned n = 0;
  while (left != 0) {
    const uint32_t lead = left & (0u - left);
    const uint32_t m = w.mask[static_cast<unsigned>(std::countr_zero(left))];
    const uint32_t group = m & v.execs;
    bad |= group & ~equal_words(v.mask, m);
    g.set[n++] = group;
    left &= ~lead & ~group;
  }
  g.n = n;
  return bad == 0;
}

// The UB clauses lane by lane (`ub_self_not_in_mask`, `ub_peer_absent`, `ub_mask_mismatch`).
// A well-synchronised diverged warp is certified by the walk, which is far cheaper than the
// mask-equality matrix that decides every other case.
WS_INLINE void general_ub(const model::Warp& w, const View& v, WarpLanes& out, Groups& g) {
  out.executes = v.execs;
  out.p = 0;
  out.loose_d = 0;
  out.ub[0] = v.execs & ~test(v.mask, lane_bit_pair());
  out.ub[1] = v.execs & test(v.mask, bcast(~v.exited & ~v.execs));
  const bool clean = (out.ub[0] | out.ub[1]) == 0 && walk_groups(w, v, g);
  out.ub[2] = clean ? 0 : mask_mismatch(v);
  out.ub[3] = 0;
}

// sm_6x: `ub_not_converged` and the union of the executing lanes' masks.
WS_INLINE uint32_t not_converged(const View& v, const model::Warp& w) {
  const Pair site{load(w.site.data()), load(w.site.data() + 16)};
  const Pair same_site = equal_sets(earlier_equal(site));
  const Pair named = and_(v.mask, bcast(~v.exited));
  const Pair outside = ternary<kAAndNotBAndC>(named, same_site, bcast(v.execs));
  return v.execs & test(outside, outside);
}
WS_INLINE uint32_t union_of_masks(const View& v) {
  return static_cast<uint32_t>(
      _mm512_mask_reduce_or_epi32(static_cast<__mmask16>(lo16(v.execs)), v.mask.lo) |
      _mm512_mask_reduce_or_epi32(static_cast<__mmask16>(hi16(v.execs)), v.mask.hi));
}

// ---------------------------------------------------------------- the families

// `match_any_rows`: equal sets from conflict detection and a transpose, cut to the participants.
WS_INLINE void match_any(const model::Warp& w, const View& v, bool wide, WarpLanes& out) {
  Pair low, high;
  operand_halves(w, &low, wide ? &high : nullptr);
  const Pair eq = wide ? equal_sets_wide(low, high) : equal_sets(earlier_equal(low));
  store(out.d.data(), ternary<kAnd3>(v.mask, eq, bcast(~v.exited)));
}

// Lanes whose 64-bit operand differs from `value`.
WS_INLINE uint32_t operands_differ64(const model::Warp& w, uint64_t value) {
  const __m512i x = _mm512_set1_epi64(static_cast<long long>(value));
  __mmask8 k[4];
  for (unsigned q = 0; q < 4; ++q) k[q] = _mm512_cmpneq_epi64_mask(load(w.a.data() + 8 * q), x);
  return join(_mm512_kunpackb(k[1], k[0]), _mm512_kunpackb(k[3], k[2]));
}

// match.all with one participant set: compare everybody with its lowest lane.
WS_INLINE void match_all_uniform(const model::Warp& w, const View& v, bool wide, WarpLanes& out) {
  const uint32_t part = shared_part(v);
  const uint64_t lead = w.a[static_cast<unsigned>(std::countr_zero(part | 0x80000000u))];
  uint32_t differs;
  if (wide) {
    differs = operands_differ64(w, lead);
  } else {
    Pair low;
    operand_halves(w, &low, nullptr);
    differs = not_equal(low, bcast(static_cast<uint32_t>(lead)));
  }
  const bool ok = (part & differs) == 0;
  store(out.d.data(), bcast(ok ? part : 0));
  out.p = ok ? 0xffffffffu : 0;
}

// match.all: each lane compares its operand with its leader's (the lowest taking-part lane);
// `match_all_rows` gives the same on lanes without UB, where a group shares one mask.
WS_INLINE void match_all(const model::Warp& w, const View& v, bool wide, WarpLanes& out) {
  Pair low, high;
  operand_halves(w, &low, wide ? &high : nullptr);
  const Pair part = and_(v.mask, bcast(~v.exited));
  const Pair at = bit_position(lowest_bit(part));
  uint32_t differs = not_equal(permute(low, at), low);
  if (wide) differs |= not_equal(permute(high, at), high);
  const uint32_t ok = test_none(part, bcast(differs));
  store(out.d.data(), {_mm512_maskz_mov_epi32(static_cast<__mmask16>(lo16(ok)), part.lo),
                       _mm512_maskz_mov_epi32(static_cast<__mmask16>(hi16(ok)), part.hi)});
  out.p = ok;
}

// `vote_rows`: with one participant set the vote is one word for everybody; otherwise one test
// of each lane's mask against a word built from the predicates.
WS_INLINE void vote(const model::Warp& w, const View& v, spec::Mode mode, bool negate,
                    WarpLanes& out) {
  uint32_t preds = nonzero_operands(w);
  if (negate) preds = ~preds;
  const uint32_t live_true = ~v.exited & preds, live_false = ~v.exited & ~preds;
  if (v.uniform) {
    const uint32_t part = v.shared;
    const bool none_false = (part & live_false) == 0, none_true = (part & live_true) == 0;
    uint32_t value = part & live_true;  // ballot
    if (mode == spec::Mode::All) value = none_false;
    if (mode == spec::Mode::Any) value = !none_true;
    if (mode == spec::Mode::Uni) value = none_false || none_true;
    store(out.d.data(), bcast(value));
    return;
  }
  const __m512i t = _mm512_set1_epi32(static_cast<int>(live_true));
  const __m512i f = _mm512_set1_epi32(static_cast<int>(live_false));
  if (mode == spec::Mode::Ballot) {
    store(out.d.data(), and_(v.mask, {t, t}));
    return;
  }
  // Lane results stay in mask registers, one per half.
  auto vote_half = [&](__m512i m) WS_LAMBDA {
    if (mode == spec::Mode::All) return _mm512_testn_epi32_mask(m, f);
    if (mode == spec::Mode::Any) return _mm512_test_epi32_mask(m, t);
    return static_cast<__mmask16>(_mm512_testn_epi32_mask(m, f) | _mm512_testn_epi32_mask(m, t));
  };
  const __m512i one = _mm512_set1_epi32(1);
  store(out.d.data(), {_mm512_maskz_mov_epi32(vote_half(v.mask.lo), one),
                       _mm512_maskz_mov_epi32(vote_half(v.mask.hi), one)});
}

// redux: the lanes without UB fall into groups that pass one mask, so each group needs one
// 32-lane reduction (one in all, when the view is uniform). Ops are tag types so that each
// operator gets its own loop.
enum class Op { Add, And, Or, Xor, MinU, MinS, MaxU, MaxS };

template <Op O>
WS_INLINE __m512i combine(__m512i a, __m512i b) {
  if constexpr (O == Op::Add) return _mm512_add_epi32(a, b);
  if constexpr (O == Op::And) return _mm512_and_si512(a, b);
  if constexpr (O == Op::Or) return _mm512_or_si512(a, b);
  if constexpr (O == Op::Xor) return _mm512_xor_si512(a, b);
  if constexpr (O == Op::MinU) return _mm512_min_epu32(a, b);
  if constexpr (O == Op::MinS) return _mm512_min_epi32(a, b);
  if constexpr (O == Op::MaxU) return _mm512_max_epu32(a, b);
  if constexpr (O == Op::MaxS) return _mm512_max_epi32(a, b);
}

template <Op O>
constexpr uint32_t identity() {
  switch (O) {
    case Op::And:
    case Op::MinU:
      return 0xffffffffu;
    case Op::MinS:
      return 0x7fffffffu;
    case Op::MaxS:
      return 0x80000000u;
    default:
      return 0;
  }
}

// The operator over the lanes of `set`, broadcast to all 16 elements.
template <Op O>
WS_INLINE __m512i reduce(const Pair& x, uint32_t set) {
  const __m512i id = _mm512_set1_epi32(static_cast<int>(identity<O>()));
  __m512i r = combine<O>(_mm512_mask_mov_epi32(id, static_cast<__mmask16>(lo16(set)), x.lo),
                         _mm512_mask_mov_epi32(id, static_cast<__mmask16>(hi16(set)), x.hi));
  r = combine<O>(r, _mm512_shuffle_i64x2(r, r, 0x4E));
  r = combine<O>(r, _mm512_shuffle_i64x2(r, r, 0xB1));
  r = combine<O>(r, _mm512_shuffle_epi32(r, _MM_PERM_BADC));
  return combine<O>(r, _mm512_shuffle_epi32(r, _MM_PERM_CDAB));
}

// 32 lanes as two mask registers, for results that go straight into masked moves.
struct Lanes32 {
  __mmask16 lo, hi;
};

WS_INLINE Lanes32 lanes32(uint32_t k) {
  return {static_cast<__mmask16>(lo16(k)), static_cast<__mmask16>(hi16(k))};
}

WS_INLINE void put(Pair& d, Lanes32 lanes, __m512i value) {
  d.lo = _mm512_mask_mov_epi32(d.lo, lanes.lo, value);
  d.hi = _mm512_mask_mov_epi32(d.hi, lanes.hi, value);
}

// Puts each group's value on its lanes (a diverged warp without UB, whose groups the walk
// found). The group's value is `value(group)`.
template <class F>
WS_INLINE void store_per_group(const Groups& g, WarpLanes& out, F&& value) {
  Pair d{_mm512_setzero_si512(), _mm512_setzero_si512()};
  for (unsigned k = 0; k < g.n; ++k) put(d, lanes32(g.set[k]), value(g.set[k]));
  store(out.d.data(), d);
}

template <Op O>
WS_INLINE void redux_int(const model::Warp& w, const View& v, const Groups& g, WarpLanes& out) {
  Pair x;
  operand_halves(w, &x, nullptr);
  if (v.uniform) {
    const __m512i r = reduce<O>(x, shared_part(v));
    store(out.d.data(), {r, r});
    return;
  }
  store_per_group(g, out, [&](uint32_t group) WS_LAMBDA { return reduce<O>(x, group); });
}

// `redux_f32_rows`: min/max of order keys over the non-NaN participants, decoded per group.
struct F32Lanes {
  Pair key;      // order keys (after .abs)
  uint32_t nan;  // lanes holding a NaN
};

WS_INLINE F32Lanes f32_lanes(const model::Warp& w, bool abs) {
  Pair x;
  operand_halves(w, &x, nullptr);
  const __m512i magnitude = _mm512_set1_epi32(0x7fffffff);
  if (abs) x = and_(x, {magnitude, magnitude});
  const __m512i inf = _mm512_set1_epi32(0x7f800000);
  const uint32_t nan = join(_mm512_cmpgt_epu32_mask(_mm512_and_si512(x.lo, magnitude), inf),
                            _mm512_cmpgt_epu32_mask(_mm512_and_si512(x.hi, magnitude), inf));
  // f32_order_key: flip every bit of a negative pattern, only the sign of a positive one.
  const __m512i sign = _mm512_set1_epi32(static_cast<int>(0x80000000u));
  return {{_mm512_xor_si512(x.lo, _mm512_or_si512(_mm512_srai_epi32(x.lo, 31), sign)),
           _mm512_xor_si512(x.hi, _mm512_or_si512(_mm512_srai_epi32(x.hi, 31), sign))},
          nan};
}

WS_INLINE uint32_t f32_extreme(const F32Lanes& l, const spec::FormInfo& f, uint32_t group) {
  const uint32_t numbers = group & ~l.nan;
  if (numbers == 0 || (f.nan && (group & l.nan) != 0)) return spec::kCanonicalNanF32;
  const __m512i r = f.mode == spec::Mode::Max ? reduce<Op::MaxU>(l.key, numbers)
                                              : reduce<Op::MinU>(l.key, numbers);
  const auto best = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm512_castsi512_si128(r)));
  return best >> 31 ? best & 0x7fffffffu : ~best;
}

WS_INLINE void redux_f32(const model::Warp& w, const spec::FormInfo& f, const View& v,
                         const Groups& g, WarpLanes& out) {
  const F32Lanes l = f32_lanes(w, f.abs);
  if (v.uniform) {
    store(out.d.data(), bcast(f32_extreme(l, f, shared_part(v))));
    return;
  }
  store_per_group(g, out, [&](uint32_t group) WS_LAMBDA {
    return _mm512_set1_epi32(static_cast<int>(f32_extreme(l, f, group)));
  });
}

// `activemask_rows`: the executing lanes at each lane's site; no membermask, no UB. When every
// lane shares one site (the common case) the executing set is every lane's word.
WS_KERNEL void activemask(const model::Warp* warps, std::size_t n, WarpLanes* out) {
  for (std::size_t k = 0; k < n; ++k) {
    const model::Warp& w = warps[k];
    WarpLanes& o = out[k];
    const uint32_t execs = flags32(w.exec) & ~flags32(w.exited);
    const Pair site{load(w.site.data()), load(w.site.data() + 16)};
    const __m512i first = _mm512_set1_epi32(static_cast<int>(w.site[0]));
    if ((_mm512_cmpneq_epi32_mask(site.lo, first) | _mm512_cmpneq_epi32_mask(site.hi, first)) == 0)
      store(o.d.data(), bcast(execs));
    else
      store(o.d.data(), and_(equal_sets(earlier_equal(site)), bcast(execs)));
    o.executes = execs;
    o.p = 0;
    o.loose_d = 0;
    o.ub.fill(0);
  }
}

// `shfl_words` (generic.hpp). Each half computes its 16 lanes' source lanes as `shfl_source`
// does, op for op: the segment mask is c >> 8, the bound one ternary-logic op, .up compares
// signed, the others unsigned, and an out-of-range lane reads itself. The copy is one vpermi2d
// per half over the 32 operands' low words; a copy is undefined where the source lane's bit
// (vpsllvd, generic `one_hot`) misses the executing lanes the reader's mask names.
template <spec::Mode M>
WS_INLINE void shfl(const spec::Instr& in, const model::Warp& w, const View& v, WarpLanes& out) {
  const Pair b = in.imm_b ? bcast(*in.imm_b) : Pair{load(w.b.data()), load(w.b.data() + 16)};
  const Pair c = in.imm_c ? bcast(*in.imm_c) : Pair{load(w.c.data()), load(w.c.data() + 16)};
  Pair a;
  operand_halves(w, &a, nullptr);
  const Pair readable = v.uniform ? bcast(v.shared & v.execs) : and_(v.mask, bcast(v.execs));
  const __m512i k31 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
  constexpr int kAOrBAndC = 0xF8;   // a | (b & c)
  [[maybe_unused]] constexpr int kAXorBAndC = 0x78;  // a ^ (b & c); .bfly alone
  auto half = [&](__m512i lane, __m512i b, __m512i c, __m512i readable, __mmask16& in_range,
                  __mmask16& hit) WS_LAMBDA {
    // `outside`: the five lane bits outside the segment mask, ~c[12:8] & 31.
    const __m512i outside = _mm512_andnot_si512(_mm512_srli_epi32(c, 8), k31);
    const __m512i first = _mm512_andnot_si512(outside, lane);
    const __m512i bound = _mm512_ternarylogic_epi32(first, c, outside, kAOrBAndC);
    __m512i j;
    if constexpr (M == spec::Mode::Up) {
      j = _mm512_sub_epi32(lane, _mm512_and_si512(b, k31));
      in_range = _mm512_cmpge_epi32_mask(j, bound);
    } else {
      if constexpr (M == spec::Mode::Down) j = _mm512_add_epi32(lane, _mm512_and_si512(b, k31));
      if constexpr (M == spec::Mode::Bfly) j = _mm512_ternarylogic_epi32(lane, b, k31, kAXorBAndC);
      if constexpr (M == spec::Mode::Idx)
        j = _mm512_ternarylogic_epi32(first, b, outside, kAOrBAndC);
      in_range = _mm512_cmple_epu32_mask(j, bound);
    }
    const __m512i src = _mm512_mask_mov_epi32(lane, in_range, j);
    hit = _mm512_test_epi32_mask(_mm512_sllv_epi32(one, src), readable);
    return _mm512_permutex2var_epi32(a.lo, src, a.hi);
  };
  __mmask16 ok_lo, ok_hi, hit_lo, hit_hi;
  store(out.d.data(), {half(load(kLaneNumbers.w), b.lo, c.lo, readable.lo, ok_lo, hit_lo),
                       half(load(kLaneNumbers.w + 16), b.hi, c.hi, readable.hi, ok_hi, hit_hi)});
  out.p = v.execs & join(ok_lo, ok_hi);
  out.loose_d = v.execs & ~join(hit_lo, hit_hi);
}

// ---------------------------------------------------------------- batches

enum class Kind {
  MatchAny,
  MatchAll,
  Vote,
  ReduxInt,
  ReduxF32,
  Syncwarp,
  ShflUp,
  ShflDown,
  ShflBfly,
  ShflIdx,
  Elect
};

constexpr bool is_shfl(Kind k) {
  return k >= Kind::ShflUp && k <= Kind::ShflIdx;
}
constexpr spec::Mode shfl_mode(Kind k) {
  return k == Kind::ShflUp     ? spec::Mode::Up
         : k == Kind::ShflDown ? spec::Mode::Down
         : k == Kind::ShflBfly ? spec::Mode::Bfly
                               : spec::Mode::Idx;
}

// `Plain`: no immediate membermask and no sm_6x rules, the common case; the loop then carries
// no test for either.
template <Kind K, Op O, bool Plain>
WS_KERNEL void run_loop(const spec::Instr& in, bool pre_volta, const model::Warp* warps,
                        std::size_t n, WarpLanes* out) {
  const spec::FormInfo& f = spec::form_info(in.form);
  const bool wide = f.a_type == spec::OperandType::B64;
  for (std::size_t k = 0; k < n; ++k) {
    const model::Warp& w = warps[k];
    WarpLanes& o = out[k];
    const View v = view_of<Plain>(in, w);
    Groups g;  // filled by general_ub for a diverged warp free of self/absent UB
    if (v.uniform)
      uniform_ub(v, o);
    else
      general_ub(w, v, o, g);
    if constexpr (K == Kind::Elect) {
      // elect.sync does not excuse exited lanes: a named lane that does not execute fires
      // `peer_absent` (spec::ub_named_lane_missing). The mismatch term does not depend on it.
      o.ub[1] = v.uniform ? ((v.shared & ~v.execs) != 0 ? v.execs : 0)
                          : v.execs & test(v.mask, bcast(~v.execs));
    }
    if constexpr (is_shfl(K)) {
      // The lanes whose copy is undefined are reported whatever UB fires; they come with the
      // values, at no extra cost.
      shfl<shfl_mode(K)>(in, w, v, o);
    } else if ((o.ub[0] | o.ub[1] | o.ub[2]) != 0) {
      // UB leaves every lane of the instruction undefined: no value is worth computing.
      store(o.d.data(), bcast(0));
    } else {
      if constexpr (K == Kind::MatchAny) match_any(w, v, wide, o);
      if constexpr (K == Kind::MatchAll) {
        if (v.uniform)
          match_all_uniform(w, v, wide, o);
        else
          match_all(w, v, wide, o);
      }
      if constexpr (K == Kind::Vote) vote(w, v, f.mode, in.negate, o);
      if constexpr (K == Kind::Syncwarp) store(o.d.data(), bcast(0));
      if constexpr (K == Kind::ReduxInt) redux_int<O>(w, v, g, o);
      if constexpr (K == Kind::ReduxF32) redux_f32(w, f, v, g, o);
      if constexpr (K == Kind::Elect) {
        // `elect_words`: the leader is the lowest lane of the mask, p the lanes that are it.
        const Pair low = v.uniform ? bcast(v.shared & (0u - v.shared)) : lowest_bit(v.mask);
        store(o.d.data(), bit_position(low));
        o.p = v.execs & test(low, lane_bit_pair());
      }
    }
    if constexpr (!Plain && (K == Kind::Vote || K == Kind::Syncwarp || is_shfl(K))) {
      if (pre_volta) {
        // `ub_sm6x_named_converged` for vote and the shuffles.
        const uint32_t all = union_of_masks(v);
        o.ub[3] = not_converged(v, w) |
                  (K != Kind::Syncwarp ? v.execs & ~all : (all != v.execs ? v.execs : 0));
      }
    }
  }
}

template <Kind K, Op O = Op::Add>
void run(const spec::Instr& in, bool pre_volta, const model::Warp* warps, std::size_t n,
         WarpLanes* out) {
  if (in.imm_mask || pre_volta)
    run_loop<K, O, false>(in, pre_volta, warps, n, out);
  else
    run_loop<K, O, true>(in, pre_volta, warps, n, out);
}

using Kernel = void (*)(const spec::Instr&, bool, const model::Warp*, std::size_t, WarpLanes*);

Kernel redux_kernel(const spec::FormInfo& f) {
  const bool s = f.a_type == spec::OperandType::S32;
  switch (f.mode) {
    case spec::Mode::Add:
      return run<Kind::ReduxInt, Op::Add>;
    case spec::Mode::And:
      return run<Kind::ReduxInt, Op::And>;
    case spec::Mode::Or:
      return run<Kind::ReduxInt, Op::Or>;
    case spec::Mode::Xor:
      return run<Kind::ReduxInt, Op::Xor>;
    case spec::Mode::Min:
      return s ? run<Kind::ReduxInt, Op::MinS> : run<Kind::ReduxInt, Op::MinU>;
    default:
      return s ? run<Kind::ReduxInt, Op::MaxS> : run<Kind::ReduxInt, Op::MaxU>;
  }
}

Kernel kernel_for(const spec::FormInfo& f) {
  switch (f.family) {
    case spec::Family::Match:
      return f.mode == spec::Mode::Any ? run<Kind::MatchAny> : run<Kind::MatchAll>;
    case spec::Family::Vote:
      return run<Kind::Vote>;
    case spec::Family::Redux:
      return f.a_type == spec::OperandType::F32 ? run<Kind::ReduxF32> : redux_kernel(f);
    case spec::Family::Activemask:
      return [](const spec::Instr&, bool, const model::Warp* w, std::size_t n, WarpLanes* o) {
        activemask(w, n, o);
      };
    case spec::Family::Shfl:
      switch (f.mode) {
        case spec::Mode::Up:
          return run<Kind::ShflUp>;
        case spec::Mode::Down:
          return run<Kind::ShflDown>;
        case spec::Mode::Bfly:
          return run<Kind::ShflBfly>;
        default:
          return run<Kind::ShflIdx>;
      }
    case spec::Family::Elect:
      return run<Kind::Elect>;
    default:
      return run<Kind::Syncwarp>;
  }
}

}  // namespace

void evaluate(const spec::Instr& in, bool pre_volta, const model::Warp* warps, std::size_t n,
              WarpLanes* out) {
  kernel_for(spec::form_info(in.form))(in, pre_volta, warps, n, out);
}

WS_KERNEL void transpose32(const uint32_t rows[32], uint32_t out[32]) {
  store(out, transpose({load(rows), load(rows + 16)}));
}

WS_KERNEL void equal_sets32(const uint32_t values[32], uint32_t out[32]) {
  store(out, equal_sets(earlier_equal({load(values), load(values + 16)})));
}

WS_KERNEL void equal_sets64(const uint64_t values[32], uint32_t out[32]) {
  model::Warp w{};
  for (unsigned i = 0; i < 32; ++i) w.a[i] = values[i];
  Pair low, high;
  operand_halves(w, &low, &high);
  store(out, equal_sets_wide(low, high));
}

WS_KERNEL bool walk_groups32(const model::Warp& w, uint32_t groups[32], unsigned* count) {
  spec::Instr in;
  in.form = spec::FormId::ReduxAddU32;
  const View v = view_of<true>(in, w);
  Groups g;
  const bool clean = walk_groups(w, v, g);
  for (unsigned k = 0; k < g.n; ++k) groups[k] = g.set[k];
  *count = g.n;
  return clean;
}

#endif

}  // namespace warpspec::fast::avx512
