// The capture kernels. Each variant is one inline-PTX instruction (or, where the intrinsic is the
// subject, one intrinsic call); a state is one warp (or one block), read from global memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "capture/harness/device.hpp"
#include "capture/variant_id.hpp"

namespace warpspec::capture::gpu {
namespace {

using V = VariantId;
__host__ __device__ constexpr int iv(V v) {
  return static_cast<int>(v);
}

// ---------------------------------------------------------------- warp instructions

// Each vote tests the whole 64-bit operand against 0 and returns the predicate as 0/1.
#define WS_VOTE_PRED(MODE, SRC)                                                                    \
  asm volatile("{\n\t.reg .pred s, r;\n\tsetp.ne.b64 s, %1, 0;\n\tvote.sync." MODE ".pred r, " SRC \
               ", %2;\n\tselp.u32 %0, 1, 0, r;\n\t}"                                               \
               : "=r"(d)                                                                           \
               : "l"(a), "r"(m))
#define WS_VOTE_BALLOT(SRC)                                                                   \
  asm volatile("{\n\t.reg .pred s;\n\tsetp.ne.b64 s, %1, 0;\n\tvote.sync.ballot.b32 %0, " SRC \
               ", %2;\n\t}"                                                                   \
               : "=r"(d)                                                                      \
               : "l"(a), "r"(m))
#define WS_REDUX(TEXT) asm volatile("redux.sync." TEXT " %0, %1, %2;" : "=r"(d) : "r"(a32), "r"(m))
// Each shuffle writes d and p, p returned as 0/1.
#define WS_SHFL(MODE)                                                     \
  asm volatile("{\n\t.reg .pred q;\n\tshfl.sync." MODE                    \
               ".b32 %0|q, %2, %3, %4, %5;\n\tselp.u32 %1, 1, 0, q;\n\t}" \
               : "=r"(d), "=r"(p)                                         \
               : "r"(a32), "r"(b), "r"(c), "r"(m))

/// One execution of warp variant Vi: operand a (and a shuffle's b and c, or an intrinsic
/// shuffle's width), membermask m; writes d (and p for match.all and the PTX shuffles). Inline
/// PTX writes the exact instruction form; the float and double match overloads and the `int`
/// shuffles call the intrinsic, since there the intrinsic is the subject.
template <int Vi>
__device__ __forceinline__ void op(uint64_t a, uint32_t b, uint32_t c, uint32_t width, uint32_t m,
                                   uint32_t& d, uint32_t& p) {
  const uint32_t a32 = static_cast<uint32_t>(a);
  p = 0;
  if constexpr (Vi == iv(V::MatchAnyB32)) {
    asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(d) : "r"(a32), "r"(m));
  } else if constexpr (Vi == iv(V::MatchAnyB64)) {
    asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(d) : "l"(a), "r"(m));
  } else if constexpr (Vi == iv(V::MatchAllB32)) {
    asm volatile(
        "{\n\t.reg .pred q;\n\tmatch.all.sync.b32 %0|q, %2, %3;\n\tselp.u32 %1, 1, 0, q;\n\t}"
        : "=r"(d), "=r"(p)
        : "r"(a32), "r"(m));
  } else if constexpr (Vi == iv(V::MatchAllB64)) {
    asm volatile(
        "{\n\t.reg .pred q;\n\tmatch.all.sync.b64 %0|q, %2, %3;\n\tselp.u32 %1, 1, 0, q;\n\t}"
        : "=r"(d), "=r"(p)
        : "l"(a), "r"(m));
  } else if constexpr (Vi == iv(V::MatchAnyF32)) {
    d = __match_any_sync(m, __uint_as_float(a32));
  } else if constexpr (Vi == iv(V::MatchAnyF64)) {
    d = __match_any_sync(m, __longlong_as_double(static_cast<long long>(a)));
  } else if constexpr (Vi == iv(V::MatchAllF32)) {
    int pr = 0;
    d = __match_all_sync(m, __uint_as_float(a32), &pr);
    p = pr != 0;
  } else if constexpr (Vi == iv(V::MatchAllF64)) {
    int pr = 0;
    d = __match_all_sync(m, __longlong_as_double(static_cast<long long>(a)), &pr);
    p = pr != 0;
  } else if constexpr (Vi == iv(V::VoteAll)) {
    WS_VOTE_PRED("all", "s");
  } else if constexpr (Vi == iv(V::VoteAllNeg)) {
    WS_VOTE_PRED("all", "!s");
  } else if constexpr (Vi == iv(V::VoteAny)) {
    WS_VOTE_PRED("any", "s");
  } else if constexpr (Vi == iv(V::VoteAnyNeg)) {
    WS_VOTE_PRED("any", "!s");
  } else if constexpr (Vi == iv(V::VoteUni)) {
    WS_VOTE_PRED("uni", "s");
  } else if constexpr (Vi == iv(V::VoteUniNeg)) {
    WS_VOTE_PRED("uni", "!s");
  } else if constexpr (Vi == iv(V::VoteBallot)) {
    WS_VOTE_BALLOT("s");
  } else if constexpr (Vi == iv(V::VoteBallotNeg)) {
    WS_VOTE_BALLOT("!s");
  } else if constexpr (Vi == iv(V::ReduxAddU32)) {
    WS_REDUX("add.u32");
  } else if constexpr (Vi == iv(V::ReduxAddS32)) {
    WS_REDUX("add.s32");
  } else if constexpr (Vi == iv(V::ReduxMinU32)) {
    WS_REDUX("min.u32");
  } else if constexpr (Vi == iv(V::ReduxMinS32)) {
    WS_REDUX("min.s32");
  } else if constexpr (Vi == iv(V::ReduxMaxU32)) {
    WS_REDUX("max.u32");
  } else if constexpr (Vi == iv(V::ReduxMaxS32)) {
    WS_REDUX("max.s32");
  } else if constexpr (Vi == iv(V::ReduxAnd)) {
    WS_REDUX("and.b32");
  } else if constexpr (Vi == iv(V::ReduxOr)) {
    WS_REDUX("or.b32");
  } else if constexpr (Vi == iv(V::ReduxXor)) {
    WS_REDUX("xor.b32");
  } else if constexpr (Vi == iv(V::BarWarpSync)) {
    asm volatile("bar.warp.sync %0;" ::"r"(m) : "memory");
    d = 0;  // no result: 0 marks "came back from the barrier"
  } else if constexpr (Vi == iv(V::Activemask)) {
    asm volatile("activemask.b32 %0;" : "=r"(d));
  } else if constexpr (Vi == iv(V::ActivemaskIntr)) {
    d = __activemask();
  } else if constexpr (Vi == iv(V::ShflUp)) {
    WS_SHFL("up");
  } else if constexpr (Vi == iv(V::ShflDown)) {
    WS_SHFL("down");
  } else if constexpr (Vi == iv(V::ShflBfly)) {
    WS_SHFL("bfly");
  } else if constexpr (Vi == iv(V::ShflIdx)) {
    WS_SHFL("idx");
  } else if constexpr (Vi == iv(V::ShflUpIntr)) {
    d = static_cast<uint32_t>(__shfl_up_sync(m, static_cast<int>(a32), b, static_cast<int>(width)));
  } else if constexpr (Vi == iv(V::ShflDownIntr)) {
    d = static_cast<uint32_t>(
        __shfl_down_sync(m, static_cast<int>(a32), b, static_cast<int>(width)));
  } else if constexpr (Vi == iv(V::ShflXorIntr)) {
    d = static_cast<uint32_t>(
        __shfl_xor_sync(m, static_cast<int>(a32), static_cast<int>(b), static_cast<int>(width)));
  } else if constexpr (Vi == iv(V::ShflIdxIntr)) {
    d = static_cast<uint32_t>(
        __shfl_sync(m, static_cast<int>(a32), static_cast<int>(b), static_cast<int>(width)));
  } else {
    static_assert(Vi == iv(V::ElectSync), "every warp variant has a branch here");
    asm volatile("{\n\t.reg .pred q;\n\telect.sync %0|q, %2;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(d), "=r"(p)
                 : "r"(m));
  }
  (void)b, (void)c, (void)width;
}
#undef WS_VOTE_PRED
#undef WS_VOTE_BALLOT
#undef WS_REDUX
#undef WS_SHFL

/// One warp state per block. Exited lanes return first (the warp is still converged, so they are
/// gone before anything else runs); inactive lanes skip the instruction and wait, alive, at the
/// closing __syncwarp; executing lanes reach the instruction from branch 0 or branch 1. Each
/// branch loads its mask with a volatile load from its own array and stores its own marker, so
/// the two instances cannot be merged into one.
template <int Vi>
__global__ void warp_kernel(const LaneIn* in, const uint32_t* mask_site1, LaneOut* out) {
  const std::size_t idx = std::size_t(blockIdx.x) * 32 + threadIdx.x;
  const LaneIn x = in[idx];
  if (x.status == kExited) return;
  uint32_t d = 0, p = 0, act = 0;
  if (x.status == kExecutes) {
    if (x.site == 0) {
      const uint32_t m = *reinterpret_cast<const volatile uint32_t*>(&in[idx].mask);
      act = __activemask();
      op<Vi>(x.a, x.b, x.c, x.width, m, d, p);
      *reinterpret_cast<volatile uint32_t*>(&out[idx].ran) = 1;
    } else {
      const uint32_t m = *reinterpret_cast<const volatile uint32_t*>(&mask_site1[idx]);
      act = __activemask();
      op<Vi>(x.a, x.b, x.c, x.width, m, d, p);
      *reinterpret_cast<volatile uint32_t*>(&out[idx].ran) = 2;
    }
  }
  __syncwarp(x.alive);
  out[idx].d = d;
  out[idx].p = p;
  out[idx].active = act;
}

// ---------------------------------------------------------------- block barriers

/// One block-barrier variant Vi with this thread's predicate; returns what the thread receives.
template <int Vi>
__device__ __forceinline__ uint32_t cta_op(uint32_t pred) {
  uint32_t d = 0;
  if constexpr (Vi == iv(V::BarSyncPtx)) {
    asm volatile("bar.sync 0;" ::: "memory");
  } else if constexpr (Vi == iv(V::BarSyncIntr)) {
    __syncthreads();
  } else if constexpr (Vi == iv(V::BarRedPopcIntr)) {
    d = static_cast<uint32_t>(__syncthreads_count(static_cast<int>(pred)));
  } else if constexpr (Vi == iv(V::BarRedAndIntr)) {
    d = static_cast<uint32_t>(__syncthreads_and(static_cast<int>(pred)));
  } else if constexpr (Vi == iv(V::BarRedOrIntr)) {
    d = static_cast<uint32_t>(__syncthreads_or(static_cast<int>(pred)));
  } else if constexpr (Vi == iv(V::BarRedPopcNeg)) {
    asm volatile("{\n\t.reg .pred s;\n\tsetp.ne.u32 s, %1, 0;\n\tbar.red.popc.u32 %0, 0, !s;\n\t}"
                 : "=r"(d)
                 : "r"(pred)
                 : "memory");
  } else if constexpr (Vi == iv(V::BarRedAndNeg)) {
    asm volatile(
        "{\n\t.reg .pred s, r;\n\tsetp.ne.u32 s, %1, 0;\n\tbar.red.and.pred r, 0, !s;\n\tselp.u32 "
        "%0, 1, 0, r;\n\t}"
        : "=r"(d)
        : "r"(pred)
        : "memory");
  } else {
    static_assert(Vi == iv(V::BarRedOrNeg), "every __syncthreads-family variant has a branch here");
    asm volatile(
        "{\n\t.reg .pred s, r;\n\tsetp.ne.u32 s, %1, 0;\n\tbar.red.or.pred r, 0, !s;\n\tselp.u32 "
        "%0, 1, 0, r;\n\t}"
        : "=r"(d)
        : "r"(pred)
        : "memory");
  }
  return d;
}

/// One block state per block; exited threads return before the barrier, every other thread
/// reaches it.
template <int Vi>
__global__ void cta_kernel(const uint8_t* exited, const uint32_t* pred, uint32_t* d, uint32_t* ran,
                           unsigned n) {
  const std::size_t idx = std::size_t(blockIdx.x) * n + threadIdx.x;
  if (exited[idx]) return;
  const uint32_t r = cta_op<Vi>(pred[idx]);
  d[idx] = r;
  ran[idx] = 1;
}

// ---------------------------------------------------------------- named block barriers

/// The immediate variants: each is compiled once per pair of kNamedImmediates.
__host__ __device__ constexpr bool named_imm(int v) {
  return v == iv(V::BarArriveImm) || v == iv(V::BarSyncNamedImm) ||
         v == iv(V::BarRedPopcNamedImm) || v == iv(V::BarRedAndNamedImm) ||
         v == iv(V::BarRedOrNamedImm);
}
__host__ __device__ constexpr unsigned imm_a(int k) {
  return k < 0 ? 0 : kNamedImmediates[k].a;
}
__host__ __device__ constexpr unsigned imm_b(int k) {
  return k < 0 ? 0 : kNamedImmediates[k].b;
}

// bar.red with this thread's predicate: the count as it is, an AND or OR returned as 0/1.
#define WS_RED_U32(TEXT, ...)                                                 \
  asm volatile("{\n\t.reg .pred s;\n\tsetp.ne.u32 s, %1, 0;\n\t" TEXT "\n\t}" \
               : "=r"(d)                                                      \
               : "r"(pred), __VA_ARGS__                                       \
               : "memory")
#define WS_RED_PRED(TEXT, ...)                                           \
  asm volatile("{\n\t.reg .pred s, r;\n\tsetp.ne.u32 s, %1, 0;\n\t" TEXT \
               "\n\tselp.u32 %0, 1, 0, r;\n\t}"                          \
               : "=r"(d)                                                 \
               : "r"(pred), __VA_ARGS__                                  \
               : "memory")

/// One named-barrier variant Vi (Imm: its pair of kNamedImmediates, or -1) with this thread's
/// predicate, barrier number a and thread count b; returns what the thread receives.
template <int Vi, int Imm>
__device__ __forceinline__ uint32_t named_op(uint32_t pred, uint32_t a, uint32_t b) {
  constexpr unsigned A = imm_a(Imm), B = imm_b(Imm);
  uint32_t d = 0;
  if constexpr (Vi == iv(V::BarArrivePtx)) {
    asm volatile("bar.arrive %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (Vi == iv(V::BarArriveImm)) {
    asm volatile("bar.arrive %0, %1;" ::"n"(A), "n"(B) : "memory");
  } else if constexpr (Vi == iv(V::BarArriveAligned)) {
    asm volatile("barrier.cta.arrive.aligned %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (Vi == iv(V::BarSyncNamed)) {
    asm volatile("bar.sync %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (Vi == iv(V::BarSyncNamedImm)) {
    asm volatile("bar.sync %0, %1;" ::"n"(A), "n"(B) : "memory");
  } else if constexpr (Vi == iv(V::BarSyncNamedNoCount)) {
    asm volatile("bar.sync %0;" ::"r"(a) : "memory");
  } else if constexpr (Vi == iv(V::BarSyncAligned)) {
    asm volatile("barrier.cta.sync.aligned %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (Vi == iv(V::BarRedPopcNamed)) {
    WS_RED_U32("bar.red.popc.u32 %0, %2, %3, s;", "r"(a), "r"(b));
  } else if constexpr (Vi == iv(V::BarRedPopcNamedNeg)) {
    WS_RED_U32("bar.red.popc.u32 %0, %2, %3, !s;", "r"(a), "r"(b));
  } else if constexpr (Vi == iv(V::BarRedPopcNamedImm)) {
    WS_RED_U32("bar.red.popc.u32 %0, %2, %3, s;", "n"(A), "n"(B));
  } else if constexpr (Vi == iv(V::BarRedPopcNamedNoCount)) {
    WS_RED_U32("bar.red.popc.u32 %0, %2, s;", "r"(a));
  } else if constexpr (Vi == iv(V::BarRedPopcAligned)) {
    WS_RED_U32("barrier.cta.red.popc.aligned.u32 %0, %2, %3, s;", "r"(a), "r"(b));
  } else if constexpr (Vi == iv(V::BarRedAndNamed)) {
    WS_RED_PRED("bar.red.and.pred r, %2, %3, s;", "r"(a), "r"(b));
  } else if constexpr (Vi == iv(V::BarRedAndNamedNeg)) {
    WS_RED_PRED("bar.red.and.pred r, %2, %3, !s;", "r"(a), "r"(b));
  } else if constexpr (Vi == iv(V::BarRedAndNamedImm)) {
    WS_RED_PRED("bar.red.and.pred r, %2, %3, s;", "n"(A), "n"(B));
  } else if constexpr (Vi == iv(V::BarRedOrNamed)) {
    WS_RED_PRED("bar.red.or.pred r, %2, %3, s;", "r"(a), "r"(b));
  } else if constexpr (Vi == iv(V::BarRedOrNamedNeg)) {
    WS_RED_PRED("bar.red.or.pred r, %2, %3, !s;", "r"(a), "r"(b));
  } else {
    static_assert(Vi == iv(V::BarRedOrNamedImm), "every named variant has a branch here");
    WS_RED_PRED("bar.red.or.pred r, %2, %3, s;", "n"(A), "n"(B));
  }
  (void)pred, (void)a, (void)b;
  return d;
}
#undef WS_RED_U32
#undef WS_RED_PRED

/// The partner form of variant Vi with the same operands, spelled the same way: bar.sync beside
/// bar.arrive and bar.red, bar.arrive beside bar.sync. bar.sync without a count has no partner
/// (bar.arrive needs one); the host never asks for it.
template <int Vi, int Imm>
__device__ __forceinline__ void named_partner(uint32_t a, uint32_t b) {
  constexpr unsigned A = imm_a(Imm), B = imm_b(Imm);
  constexpr bool sync = Vi == iv(V::BarSyncNamed) || Vi == iv(V::BarSyncNamedImm) ||
                        Vi == iv(V::BarSyncAligned) || Vi == iv(V::BarSyncNamedNoCount);
  constexpr bool aligned = Vi == iv(V::BarArriveAligned) || Vi == iv(V::BarSyncAligned) ||
                           Vi == iv(V::BarRedPopcAligned);
  if constexpr (Vi == iv(V::BarSyncNamedNoCount)) {
    asm volatile("trap;");
  } else if constexpr (sync && aligned) {
    asm volatile("barrier.cta.arrive.aligned %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (sync && named_imm(Vi)) {
    asm volatile("bar.arrive %0, %1;" ::"n"(A), "n"(B) : "memory");
  } else if constexpr (sync) {
    asm volatile("bar.arrive %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (aligned) {
    asm volatile("barrier.cta.sync.aligned %0, %1;" ::"r"(a), "r"(b) : "memory");
  } else if constexpr (named_imm(Vi)) {
    asm volatile("bar.sync %0, %1;" ::"n"(A), "n"(B) : "memory");
  } else if constexpr (Vi == iv(V::BarRedPopcNamedNoCount)) {
    asm volatile("bar.sync %0;" ::"r"(a) : "memory");
  } else {
    asm volatile("bar.sync %0, %1;" ::"r"(a), "r"(b) : "memory");
  }
  (void)a, (void)b;
}

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// One named-barrier block state per block. Exited threads return first; threads elsewhere stay
/// alive for `idle_us` at no barrier, then finish; the others arrive through the instruction or
/// its partner form. Each thread leaves its marks (and d) in host memory as it goes, so that
/// what happened before a hang can be read.
template <int Vi, int Imm>
__global__ void named_kernel(const NamedIn* in, NamedOut* out, unsigned n, unsigned idle_us) {
  const std::size_t idx = std::size_t(blockIdx.x) * n + threadIdx.x;
  const NamedIn x = in[idx];
  if (x.role == kExited) return;
  volatile NamedOut* o = out + idx;
  o->mark = kEntered;
  if (x.role == kElsewhere) {
    const uint64_t t0 = global_ns();
    while (global_ns() - t0 < uint64_t{idle_us} * 1000) __nanosleep(1000);
    o->mark = kLeft;
    return;
  }
  uint32_t d = 0;
  if (x.role == kPartner)
    named_partner<Vi, Imm>(x.bar, x.count);
  else
    d = named_op<Vi, Imm>(x.pred, x.bar, x.count);
  o->d = d;
  __threadfence_system();
  o->mark = kCameBack;
}

// ---------------------------------------------------------------- throughput

constexpr int kUnroll = 8;

/// Each thread runs `iters` x kUnroll instances, each operand depending on the last result. A
/// shuffle reads one lane further on (b = 1) in a whole-warp segment (width 32, and the c the
/// intrinsics make of it).
template <int Vi, bool RuntimeMask>
__global__ void warp_bench(uint64_t seed, unsigned iters, int distinct, uint32_t mask,
                           uint64_t* sink) {
  uint64_t x = distinct ? seed + 0x9e3779b97f4a7c15ull * (threadIdx.x % 32) : seed;
  const uint32_t m = RuntimeMask ? mask : 0xffffffffu;
  constexpr uint32_t c = Vi == iv(V::ShflUp) ? 0 : 0x1f;
  for (unsigned i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      uint32_t d, p;
      op<Vi>(x, 1, c, 32, m, d, p);
      x += d + p;
    }
  }
  sink[std::size_t(blockIdx.x) * blockDim.x + threadIdx.x] = x;
}

template <int Vi>
__global__ void cta_bench(uint64_t seed, unsigned iters, int distinct, uint64_t* sink) {
  uint32_t x = static_cast<uint32_t>(distinct ? seed + threadIdx.x : seed);
  for (unsigned i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) x += cta_op<Vi>(x & 1u) + 1;
  }
  sink[std::size_t(blockIdx.x) * blockDim.x + threadIdx.x] = x;
}

// ---------------------------------------------------------------- dispatch

using WarpLaunch = void (*)(const LaneIn*, const uint32_t*, LaneOut*, unsigned);
using CtaLaunch = void (*)(const uint8_t*, const uint32_t*, uint32_t*, uint32_t*, unsigned,
                           unsigned);
using BenchLaunch = void (*)(unsigned, unsigned, unsigned, int, bool, uint64_t*);
using NamedLaunchFn = void (*)(const NamedIn*, NamedOut*, unsigned, unsigned, unsigned,
                               cudaStream_t);

template <int Vi>
void launch_warp(const LaneIn* in, const uint32_t* m1, LaneOut* out, unsigned states) {
  warp_kernel<Vi><<<states, 32>>>(in, m1, out);
}
template <int Vi>
void launch_cta(const uint8_t* ex, const uint32_t* pred, uint32_t* d, uint32_t* ran, unsigned n,
                unsigned blocks) {
  cta_kernel<Vi><<<blocks, n>>>(ex, pred, d, ran, n);
}
template <int Vi, int Imm>
void launch_named(const NamedIn* in, NamedOut* out, unsigned n, unsigned blocks, unsigned idle_us,
                  cudaStream_t s) {
  named_kernel<Vi, Imm><<<blocks, n, 0, s>>>(in, out, n, idle_us);
}
template <int Vi>
void launch_bench(unsigned blocks, unsigned threads, unsigned iters, int distinct,
                  bool runtime_mask, uint64_t* sink) {
  constexpr uint64_t seed = 0x0123456789abcdefull;
  if constexpr (Vi < kFirstCtaVariant) {
    if (runtime_mask)
      warp_bench<Vi, true><<<blocks, threads>>>(seed, iters, distinct, 0xffffffffu, sink);
    else
      warp_bench<Vi, false><<<blocks, threads>>>(seed, iters, distinct, 0xffffffffu, sink);
  } else {
    cta_bench<Vi><<<blocks, threads>>>(seed, iters, distinct, sink);
  }
}

template <std::size_t... I>
constexpr auto warp_table(std::index_sequence<I...>) {
  return std::array<WarpLaunch, sizeof...(I)>{&launch_warp<int(I)>...};
}
template <std::size_t... I>
constexpr auto cta_table(std::index_sequence<I...>) {
  return std::array<CtaLaunch, sizeof...(I)>{&launch_cta<kFirstCtaVariant + int(I)>...};
}
template <std::size_t... I>
constexpr auto bench_table(std::index_sequence<I...>) {
  return std::array<BenchLaunch, sizeof...(I)>{&launch_bench<int(I)>...};
}
/// A named variant's launchers: column 0 for a register variant, column 1 + k for an immediate
/// variant's pair k; the others are null.
using NamedRow = std::array<NamedLaunchFn, kNamedImmediateCount + 1>;
template <int Vi, std::size_t... P>
constexpr NamedRow named_row(std::index_sequence<P...>) {
  if constexpr (named_imm(Vi))
    return NamedRow{nullptr, &launch_named<Vi, int(P)>...};
  else
    return NamedRow{&launch_named<Vi, -1>, (void(P), nullptr)...};
}
template <std::size_t... I>
constexpr auto named_table(std::index_sequence<I...>) {
  return std::array<NamedRow, sizeof...(I)>{
      named_row<kFirstNamedVariant + int(I)>(std::make_index_sequence<kNamedImmediateCount>{})...};
}
const auto kWarpLaunch = warp_table(std::make_index_sequence<kFirstCtaVariant>{});
const auto kCtaLaunch =
    cta_table(std::make_index_sequence<kFirstNamedVariant - kFirstCtaVariant>{});
const auto kBenchLaunch = bench_table(std::make_index_sequence<kFirstNamedVariant>{});
const auto kNamedLaunch =
    named_table(std::make_index_sequence<kVariantCount - kFirstNamedVariant>{});

bool check(cudaError_t e, const char* what, std::string& err) {
  if (e == cudaSuccess) return true;
  err = std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  return false;
}

/// Device buffers released on every path out.
template <class T>
struct DevBuf {
  T* p = nullptr;
  ~DevBuf() {
    if (p) cudaFree(p);
  }
  bool alloc(std::size_t n, std::string& err) {
    return check(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc", err);
  }
};

}  // namespace

bool device_info(DeviceInfo& out, std::string& err) {
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties", err)) return false;
  out.name = prop.name;
  out.major = prop.major;
  out.minor = prop.minor;
  out.sms = prop.multiProcessorCount;
  if (!check(cudaDriverGetVersion(&out.driver), "cudaDriverGetVersion", err)) return false;
  if (!check(cudaRuntimeGetVersion(&out.runtime), "cudaRuntimeGetVersion", err)) return false;
  if (cudaDeviceGetAttribute(&out.clock_khz, cudaDevAttrClockRate, 0) != cudaSuccess) {
    out.clock_khz = 0;
    cudaGetLastError();
  }
  out.compiler = "nvcc " + std::to_string(__CUDACC_VER_MAJOR__) + "." +
                 std::to_string(__CUDACC_VER_MINOR__) + "." + std::to_string(__CUDACC_VER_BUILD__);
  return true;
}

bool run_warp_batch(int variant, const LaneIn* in, LaneOut* out, std::size_t states,
                    double deadline_s, std::string& err, std::string& fault, bool& hung) {
  hung = false;
  if (variant < 0 || variant >= kFirstCtaVariant) {
    err = "not a warp variant";
    return false;
  }
  const std::size_t lanes = states * 32;
  std::vector<uint32_t> m1(lanes);
  for (std::size_t i = 0; i < lanes; ++i) m1[i] = in[i].mask;
  DevBuf<LaneIn> din;
  DevBuf<uint32_t> dm1;
  DevBuf<LaneOut> dout;
  if (!din.alloc(lanes, err) || !dm1.alloc(lanes, err) || !dout.alloc(lanes, err)) return false;
  if (!check(cudaMemcpy(din.p, in, lanes * sizeof(LaneIn), cudaMemcpyHostToDevice), "copy in",
             err) ||
      !check(cudaMemcpy(dm1.p, m1.data(), lanes * sizeof(uint32_t), cudaMemcpyHostToDevice),
             "copy masks", err) ||
      !check(cudaMemset(dout.p, 0, lanes * sizeof(LaneOut)), "clear out", err))
    return false;
  kWarpLaunch[variant](din.p, dm1.p, dout.p, static_cast<unsigned>(states));
  if (!check(cudaGetLastError(), "launch", err)) return false;
  // Poll rather than synchronise, so that a state whose lanes wait for each other for ever is
  // found out.
  const auto t0 = std::chrono::steady_clock::now();
  cudaError_t e = cudaStreamQuery(0);
  while (e == cudaErrorNotReady &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() <
             deadline_s) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    e = cudaStreamQuery(0);
  }
  if (e == cudaErrorNotReady) {
    hung = true;
    char buf[64];
    std::snprintf(buf, sizeof buf, "hang (no return within %g s)", deadline_s);
    fault = err = buf;
    din.p = nullptr, dm1.p = nullptr, dout.p = nullptr;  // freeing would wait for the kernel
    return false;
  }
  if (e != cudaSuccess) {
    fault = cudaGetErrorName(e);
    return check(e, "kernel", err);
  }
  return check(cudaMemcpy(out, dout.p, lanes * sizeof(LaneOut), cudaMemcpyDeviceToHost), "copy out",
               err);
}

bool run_cta_batch(int variant, unsigned threads, const uint8_t* exited, const uint32_t* pred,
                   uint32_t* d, uint32_t* ran, std::size_t blocks, std::string& err) {
  if (variant < kFirstCtaVariant || variant >= kFirstNamedVariant || threads < 1 ||
      threads > 1024) {
    err = "not a __syncthreads-family variant, or a bad block size";
    return false;
  }
  const std::size_t n = blocks * threads;
  DevBuf<uint8_t> dex;
  DevBuf<uint32_t> dpred, dd, dran;
  if (!dex.alloc(n, err) || !dpred.alloc(n, err) || !dd.alloc(n, err) || !dran.alloc(n, err))
    return false;
  if (!check(cudaMemcpy(dex.p, exited, n, cudaMemcpyHostToDevice), "copy exited", err) ||
      !check(cudaMemcpy(dpred.p, pred, n * 4, cudaMemcpyHostToDevice), "copy pred", err) ||
      !check(cudaMemset(dd.p, 0, n * 4), "clear d", err) ||
      !check(cudaMemset(dran.p, 0, n * 4), "clear ran", err))
    return false;
  kCtaLaunch[variant - kFirstCtaVariant](dex.p, dpred.p, dd.p, dran.p, threads,
                                         static_cast<unsigned>(blocks));
  if (!check(cudaGetLastError(), "launch", err) || !check(cudaDeviceSynchronize(), "kernel", err))
    return false;
  return check(cudaMemcpy(d, dd.p, n * 4, cudaMemcpyDeviceToHost), "copy d", err) &&
         check(cudaMemcpy(ran, dran.p, n * 4, cudaMemcpyDeviceToHost), "copy ran", err);
}

bool run_named(int variant, NamedLaunch* launches, std::size_t count, double deadline_s,
               unsigned idle_us, std::string& err, std::string& fault, bool& hung) {
  hung = false;
  if (variant < kFirstNamedVariant || variant >= kVariantCount) {
    err = "not a named-barrier variant";
    return false;
  }
  const NamedRow& row = kNamedLaunch[variant - kFirstNamedVariant];
  struct Job {
    NamedIn* in = nullptr;
    NamedOut* out = nullptr;  // host memory the kernel writes through
    cudaStream_t stream = nullptr;
    std::size_t threads = 0;
  };
  std::vector<Job> jobs(count);
  auto release = [&] {
    for (auto& j : jobs) {
      if (j.in) cudaFree(j.in);
      if (j.out) cudaFreeHost(j.out);
      if (j.stream) cudaStreamDestroy(j.stream);
    }
  };
  for (std::size_t i = 0; i < count; ++i) {
    const NamedLaunch& l = launches[i];
    const int col = l.imm + 1;
    if (l.threads < 1 || l.threads > 1024 || col < 0 || col > kNamedImmediateCount || !row[col]) {
      err = "no kernel for this block size and immediate pair";
      release();
      return false;
    }
    Job& j = jobs[i];
    j.threads = l.blocks * l.threads;
    if (!check(cudaMalloc(&j.in, std::max<std::size_t>(j.threads, 1) * sizeof(NamedIn)),
               "cudaMalloc", err) ||
        !check(cudaMemcpy(j.in, l.in, j.threads * sizeof(NamedIn), cudaMemcpyHostToDevice),
               "copy in", err) ||
        !check(cudaHostAlloc(&j.out, std::max<std::size_t>(j.threads, 1) * sizeof(NamedOut),
                             cudaHostAllocMapped),
               "cudaHostAlloc", err) ||
        !check(cudaStreamCreateWithFlags(&j.stream, cudaStreamNonBlocking), "stream", err)) {
      release();
      return false;
    }
    std::memset(j.out, 0, j.threads * sizeof(NamedOut));
  }
  for (std::size_t i = 0; i < count; ++i) {
    NamedOut* dev_out = nullptr;
    if (!check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev_out), jobs[i].out, 0),
               "cudaHostGetDevicePointer", err)) {
      release();
      return false;
    }
    row[launches[i].imm + 1](jobs[i].in, dev_out, launches[i].threads,
                             static_cast<unsigned>(launches[i].blocks), idle_us, jobs[i].stream);
    if (!check(cudaGetLastError(), "launch", err)) {
      release();
      return false;
    }
  }
  // Poll every stream: a block whose threads wait for ever must not keep the others' results
  // from being read.
  const auto t0 = std::chrono::steady_clock::now();
  cudaError_t failed = cudaSuccess;
  bool done = false;
  while (!done && failed == cudaSuccess &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() <
             deadline_s) {
    done = true;
    for (auto& j : jobs) {
      const cudaError_t e = cudaStreamQuery(j.stream);
      if (e == cudaErrorNotReady)
        done = false;
      else if (e != cudaSuccess)
        failed = e;
    }
    if (!done && failed == cudaSuccess) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  for (std::size_t i = 0; i < count; ++i)
    std::memcpy(launches[i].out, jobs[i].out, jobs[i].threads * sizeof(NamedOut));
  if (failed != cudaSuccess) {
    fault = cudaGetErrorName(failed);
    return check(failed, "kernel", err);  // the context is lost; the process ends soon
  }
  if (!done) {
    hung = true;
    char buf[64];
    std::snprintf(buf, sizeof buf, "hang (no return within %g s)", deadline_s);
    fault = err = buf;
    return false;  // freeing would wait for the kernel: leave it all to the process's end
  }
  release();
  return true;
}

bool bench(int variant, bool distinct, bool runtime_mask, BenchResult& out, std::string& err) {
  if (variant < 0 || variant >= kFirstNamedVariant) {
    err = "no throughput measurement for this variant";
    return false;
  }
  int sms = 0;
  if (!check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute", err))
    return false;
  // 8 blocks of 256 threads per multiprocessor: 64 resident warps, the most an SM holds.
  out.runtime_mask = runtime_mask;
  out.threads = 256;
  out.blocks = static_cast<unsigned>(sms) * 8;
  DevBuf<uint64_t> sink;
  if (!sink.alloc(std::size_t(out.blocks) * out.threads, err)) return false;
  cudaEvent_t t0, t1;
  if (!check(cudaEventCreate(&t0), "event", err) || !check(cudaEventCreate(&t1), "event", err))
    return false;
  auto timed = [&](unsigned iters, float& ms) {
    cudaEventRecord(t0);
    kBenchLaunch[variant](out.blocks, out.threads, iters, distinct ? 1 : 0, runtime_mask, sink.p);
    cudaEventRecord(t1);
    return check(cudaGetLastError(), "launch", err) &&
           check(cudaEventSynchronize(t1), "kernel", err) &&
           check(cudaEventElapsedTime(&ms, t0, t1), "elapsed", err);
  };
  // Warm up, then size the loop so one launch takes about 50 ms, then take the median of 5.
  float ms = 0;
  unsigned iters = 64;
  bool ok = timed(iters, ms) && timed(iters, ms);
  while (ok && ms < 5.0f && iters < (1u << 22)) {
    iters *= 4;
    ok = timed(iters, ms);
  }
  if (ok && ms > 0) iters = std::max(1u, static_cast<unsigned>(iters * (50.0 / ms)));
  std::vector<float> runs;
  for (int r = 0; ok && r < 5; ++r) {
    ok = timed(iters, ms);
    runs.push_back(ms);
  }
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  if (!ok) return false;
  std::sort(runs.begin(), runs.end());
  out.ms = runs[runs.size() / 2];
  out.repeats = static_cast<int>(runs.size());
  out.per_thread = static_cast<unsigned long long>(iters) * kUnroll;
  out.warp_instructions = double(out.blocks) * (out.threads / 32) * double(out.per_thread);
  out.per_second = out.warp_instructions / (out.ms * 1e-3);
  return true;
}

}  // namespace warpspec::capture::gpu
