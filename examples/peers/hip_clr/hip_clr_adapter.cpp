// hip_clr_adapter.cpp: runs AMD's HIP implementation of the CUDA warp-sync intrinsics
// (ROCm/clr, hipamd/include/hip/amd_detail/amd_warp_sync_functions.h and what it includes) on
// the CPU, one emulated AMDGPU wave of 32 (or 64) lanes, and checks it with warpspec's C API.
//
// Nothing of the header is copied here: it is #included from the checkout given at build time
// (-I$HIP_CLR_ROOT/hipamd/include, see build.sh). What this file supplies is what a HIP device
// compilation would: the AMDGPU builtins and device-library functions the header calls
// (__builtin_amdgcn_readfirstlane, __builtin_amdgcn_uicmp, __builtin_amdgcn_mbcnt_lo/hi,
// __builtin_amdgcn_ds_bpermute, __ockl_wfany_i32, __ockl_wfall_i32, __builtin_trap), each a
// wave-level operation over the lanes whose EXEC bit is on at that point. See README.md for the
// lockstep model and its limits.
//
// Usage:
//   hip_clr_adapter VECTORS.jsonl [--results OUT.jsonl] [--json] [--deadline-ms N] [--float-overloads]
//   hip_clr_adapter --float-tests
// Exit: 0 every compared vector agrees, 1 a mismatch, 2 nothing compared, 3 setup error.

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "warpspec.h"

#ifndef HIPEMU_WAVE
#define HIPEMU_WAVE 32 /* wave32 (RDNA-style); build with -DHIPEMU_WAVE=64 for a wave64 GPU */
#endif
#if HIPEMU_WAVE != 32 && HIPEMU_WAVE != 64
#error "HIPEMU_WAVE must be 32 or 64"
#endif

// ------------------------------------------------------------------------------------------
// The emulated wave. Every builtin the header calls is a rendezvous: a lane blocks until every
// lane still running the intrinsic call has blocked at a builtin or returned; then the group to
// run is chosen (see pick below), the operation is computed over that group (its EXEC mask), and
// the group's lanes resume. Lanes that do not execute the instruction (vector lanes exited or
// inactive) are never started: their EXEC bit is off for the whole call.

namespace hipemu {

enum Op { OP_RFL, OP_BALLOT, OP_ANY, OP_ALL, OP_BPERMUTE };
static const char *op_name(Op o) {
  switch (o) {
  case OP_RFL: return "readfirstlane";
  case OP_BALLOT: return "uicmp/ballot";
  case OP_ANY: return "__ockl_wfany_i32";
  case OP_ALL: return "__ockl_wfall_i32";
  case OP_BPERMUTE: return "ds_bpermute";
  }
  return "?";
}

enum AbortKind { AB_NONE = 0, AB_TRAP = 1, AB_LIVELOCK = 2, AB_EMU = 3 };
struct Abort {};

enum St : uint8_t { ABSENT, RUNNING, BLOCKED, DONE };

struct Wave {
  std::mutex m;
  std::condition_variable cv;
  St st[64];
  Op op[64];
  uint64_t arg[64];
  const void *site[64];
  uint64_t epoch[64], pend[64];
  uint64_t res[64];
  int abort_kind = AB_NONE;
  std::string why;
  long steps = 0;
  long step_cap = 20000;
};

static Wave *g_wave = nullptr;
static thread_local int t_lane = -1;

static void abort_locked(Wave &w, int kind, const std::string &why) {
  if (w.abort_kind == AB_NONE) {
    w.abort_kind = kind;
    w.why = why;
  }
  w.cv.notify_all();
}

// Called with the lock held whenever a lane blocks or returns. Runs one group when no lane is
// running. The group: among blocked lanes, those with the smallest pending epoch. A lane's epoch
// counts the __ockl_wfany_i32 calls it has made (a call it waits in counts): every waterfall
// loop of the header is `while (__any(!done)) { if (!done) { ... } }`, so a lane waiting at the
// loop head of the next iteration has a larger epoch than a lane still inside this iteration's
// body, and on the GPU it is exactly such a lane whose EXEC bit is off until the body's lanes
// reach the loop head (structured reconvergence). Lanes of the chosen group must be at the same
// builtin call (same operation, same return address): otherwise the model cannot tell the GPU's
// order and the round is abandoned as an emulation error (never reported as the header's fault).
static void schedule_locked(Wave &w) {
  if (w.abort_kind) return;
  uint64_t minp = UINT64_MAX;
  for (int l = 0; l < HIPEMU_WAVE; ++l) {
    if (w.st[l] == RUNNING) return;
    if (w.st[l] == BLOCKED && w.pend[l] < minp) minp = w.pend[l];
  }
  if (minp == UINT64_MAX) return;  // every lane returned
  uint64_t exec = 0;
  int first = -1;
  for (int l = 0; l < HIPEMU_WAVE; ++l)
    if (w.st[l] == BLOCKED && w.pend[l] == minp) {
      exec |= 1ull << l;
      if (first < 0) first = l;
      else if (w.op[l] != w.op[first] || w.site[l] != w.site[first]) {
        char b[200];
        snprintf(b, sizeof b, "lanes %d (%s) and %d (%s) wait at different builtins in one epoch", first,
                 op_name(w.op[first]), l, op_name(w.op[l]));
        abort_locked(w, AB_EMU, b);
        return;
      }
    }
  if (++w.steps > w.step_cap) {
    abort_locked(w, AB_LIVELOCK, "the waterfall loop did not terminate (step cap)");
    return;
  }
  Op op = w.op[first];
  uint64_t ballot = 0, r = 0;
  for (int l = 0; l < HIPEMU_WAVE; ++l)
    if ((exec >> l & 1) && (w.arg[l] & 0xffffffffu)) ballot |= 1ull << l;
  switch (op) {
  case OP_RFL: r = (uint32_t)w.arg[first]; break;  // the lowest lane with EXEC on
  case OP_BALLOT: r = ballot; break;
  case OP_ANY: r = ballot != 0; break;
  case OP_ALL: r = ballot == exec; break;
  case OP_BPERMUTE: break;
  }
  for (int l = 0; l < HIPEMU_WAVE; ++l)
    if (exec >> l & 1) {
      if (op == OP_BPERMUTE) {
        // index (byte address / 4, modulo the wave) in the high word, the value in the low word.
        int src = (int)((uint32_t)(w.arg[l] >> 32) >> 2) % HIPEMU_WAVE;
        w.res[l] = (exec >> src & 1) ? (uint32_t)w.arg[src] : 0;  // an inactive source reads 0 here
      } else {
        w.res[l] = r;
      }
      w.st[l] = RUNNING;
    }
  w.cv.notify_all();
}

static uint64_t collective(Op op, uint64_t arg, const void *site) {
  Wave &w = *g_wave;
  std::unique_lock<std::mutex> lk(w.m);
  if (w.abort_kind) throw Abort{};
  int L = t_lane;
  w.op[L] = op;
  w.arg[L] = arg;
  w.site[L] = site;
  w.pend[L] = w.epoch[L] + (op == OP_ANY ? 1 : 0);
  w.st[L] = BLOCKED;
  schedule_locked(w);
  w.cv.wait(lk, [&] { return w.st[L] != BLOCKED || w.abort_kind != AB_NONE; });
  if (w.st[L] == BLOCKED) throw Abort{};
  w.epoch[L] = w.pend[L];
  return w.res[L];
}

[[noreturn]] static void trap() {
  Wave &w = *g_wave;
  {
    std::lock_guard<std::mutex> lk(w.m);
    char b[64];
    snprintf(b, sizeof b, "__builtin_trap (a failed __hip_assert) on lane %d", t_lane);
    abort_locked(w, AB_TRAP, b);
  }
  throw Abort{};
}

[[noreturn]] static void unsupported(const char *what) {
  Wave &w = *g_wave;
  {
    std::lock_guard<std::mutex> lk(w.m);
    abort_locked(w, AB_EMU, std::string("builtin not emulated: ") + what);
  }
  throw Abort{};
}

}  // namespace hipemu

// The builtins, under names that are not reserved; the header's spellings are mapped to them by
// the macros below. noinline keeps __builtin_return_address(0) a per-call-site identity.
__attribute__((noinline)) static int hipemu_readfirstlane(int v) {
  return (int)(uint32_t)hipemu::collective(hipemu::OP_RFL, (uint32_t)v, __builtin_return_address(0));
}
__attribute__((noinline)) static unsigned long long hipemu_uicmp(unsigned a, unsigned b, int pred) {
  bool c;
  switch (pred) {  // llvm::CmpInst predicates
  case 32: c = a == b; break;
  case 33: c = a != b; break;
  case 34: c = a > b; break;
  case 35: c = a >= b; break;
  case 36: c = a < b; break;
  case 37: c = a <= b; break;
  default: hipemu::unsupported("__builtin_amdgcn_uicmp predicate");
  }
  return hipemu::collective(hipemu::OP_BALLOT, c ? 1 : 0, __builtin_return_address(0));
}
static unsigned hipemu_mbcnt_lo(unsigned m, unsigned add) {
  int l = hipemu::t_lane;
  unsigned below = l >= 32 ? 0xffffffffu : (l == 0 ? 0u : (0xffffffffu >> (32 - l)));
  return add + (unsigned)__builtin_popcount(m & below);
}
static unsigned hipemu_mbcnt_hi(unsigned m, unsigned add) {
  int l = hipemu::t_lane - 32;
  unsigned below = l <= 0 ? 0u : (0xffffffffu >> (32 - l));
  return add + (unsigned)__builtin_popcount(m & below);
}
__attribute__((noinline)) static int hipemu_ds_bpermute(int index, int src) {
  uint64_t a = ((uint64_t)(uint32_t)index << 32) | (uint32_t)src;
  return (int)(uint32_t)hipemu::collective(hipemu::OP_BPERMUTE, a, __builtin_return_address(0));
}
static int hipemu_ds_permute(int, int) { hipemu::unsupported("ds_permute"); }
static int hipemu_ds_swizzle(int, int) { hipemu::unsupported("ds_swizzle"); }
static int hipemu_mov_dpp(int, int, int, int, bool) { hipemu::unsupported("mov_dpp"); }
[[noreturn]] static void hipemu_trap() { hipemu::trap(); }

// ------------------------------------------------------------------------------------------
// The header, as a HIP device compilation would see it.

// What hip_runtime.h provides before these headers: the type traits the static_asserts use.
namespace __hip_internal {
using std::is_floating_point;
using std::is_integral;
}  // namespace __hip_internal

#define HIP_ENABLE_WARP_SYNC_BUILTINS 1  // the header is a preview, off unless this is set
#define __AMDGCN_WAVEFRONT_SIZE HIPEMU_WAVE
#define __builtin_amdgcn_readfirstlane hipemu_readfirstlane
#define __builtin_amdgcn_uicmp hipemu_uicmp
#define __builtin_amdgcn_mbcnt_lo hipemu_mbcnt_lo
#define __builtin_amdgcn_mbcnt_hi hipemu_mbcnt_hi
#define __builtin_amdgcn_ds_bpermute hipemu_ds_bpermute
#define __builtin_amdgcn_ds_permute hipemu_ds_permute
#define __builtin_amdgcn_ds_swizzle hipemu_ds_swizzle
#define __builtin_amdgcn_mov_dpp hipemu_mov_dpp
#define __builtin_trap hipemu_trap
// hip_assert.h defines device versions of abort/__assert_fail; keep them off libc's names.
#define abort hipemu_unused_abort
#define __assert_fail hipemu_unused_assert_fail
#define __assertfail hipemu_unused_assertfail
// The device library declares __ockl_wfany_i32/__ockl_wfall_i32 __attribute__((const)); on the
// GPU they are also convergent, but a host compiler would take `const` as licence to merge or
// hoist the loop-head calls of the waterfall loops. Attributes are dropped inside the header.
#define __attribute__(x)
#include <hip/amd_detail/amd_warp_sync_functions.h>
#undef __attribute__
#undef abort
#undef __assert_fail
#undef __assertfail
#undef __builtin_trap

#ifndef HIP_INCLUDE_HIP_AMD_DETAIL_WARP_FUNCTIONS_H
#error "amd_warp_functions.h was not included: is HIP_CLR_ROOT a ROCm/clr checkout?"
#endif

extern "C" bool __ockl_wfany_i32(int p) {
  return hipemu::collective(hipemu::OP_ANY, (uint32_t)(p != 0), __builtin_return_address(0)) != 0;
}
extern "C" bool __ockl_wfall_i32(int p) {
  return hipemu::collective(hipemu::OP_ALL, (uint32_t)(p != 0), __builtin_return_address(0)) != 0;
}
// Only referenced by hip_assert.h's (unused) __assert_fail.
extern "C" uint64_t __ockl_fprintf_stderr_begin() { return 0; }
extern "C" uint64_t __ockl_fprintf_append_args(uint64_t, uint32_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                                uint64_t, uint64_t, uint64_t, uint32_t) {
  return 0;
}
extern "C" uint64_t __ockl_fprintf_append_string_n(uint64_t, const char *, uint64_t, uint32_t) { return 0; }

// ------------------------------------------------------------------------------------------
// Running one call of an intrinsic on a warp state.

namespace {

// What one lane does: call the intrinsic and store its results.
using LaneFn = std::function<void(int lane, uint64_t &d, int &p)>;

struct RoundOut {
  int32_t abort_kind;  // hipemu::AbortKind
  uint8_t present[32];
  uint8_t p[32];
  uint64_t d[32];
  char why[160];
};

RoundOut run_round(const ws_warp_state &s, const LaneFn &fn) {
  RoundOut out;
  memset(&out, 0, sizeof out);
  hipemu::Wave w;
  for (int l = 0; l < 64; ++l) {
    w.st[l] = hipemu::ABSENT;
    w.epoch[l] = w.pend[l] = 0;
    w.res[l] = 0;
    w.arg[l] = 0;
    w.site[l] = nullptr;
    w.op[l] = hipemu::OP_RFL;
  }
  for (int l = 0; l < 32; ++l)
    if (s.status[l] == WS_EXECUTES) w.st[l] = hipemu::RUNNING;
  hipemu::g_wave = &w;
  std::vector<std::thread> ts;
  for (int l = 0; l < 32; ++l) {
    if (s.status[l] != WS_EXECUTES) continue;
    ts.emplace_back([&, l] {
      hipemu::t_lane = l;
      uint64_t d = 0;
      int p = 0;
      bool ok = true;
      try {
        fn(l, d, p);
      } catch (hipemu::Abort &) {
        ok = false;
      }
      std::lock_guard<std::mutex> lk(w.m);
      if (ok) {
        out.d[l] = d;
        out.p[l] = (uint8_t)(p != 0);
        out.present[l] = 1;
      }
      w.st[l] = hipemu::DONE;
      hipemu::schedule_locked(w);
    });
  }
  for (auto &t : ts) t.join();
  out.abort_kind = w.abort_kind;
  snprintf(out.why, sizeof out.why, "%s", w.why.c_str());
  if (out.abort_kind) memset(out.present, 0, sizeof out.present);  // the wave died: no lane returned
  hipemu::g_wave = nullptr;
  return out;
}

bool g_float_overloads = false;  // --float-overloads: match .b32/.b64 through float/double

// The intrinsic call for a catalog form, or null when the header has none.
LaneFn lane_fn_for(const ws_instr *in, const ws_warp_state &s) {
  std::string form = ws_instr_form(in);
  std::string text = ws_instr_text(in);
  bool neg = text.find("!a") != std::string::npos;
  // The CUDA mask is 32 bits; the header insists on a 64-bit mask type (static_assert), so the
  // caller widens it, as ported CUDA code must: zero-extended (lanes 32-63 not named).
  auto mask = [&s](int l) { return (unsigned long long)s.mask[l]; };
  auto pred = [&s, neg](int l) {
    int v = (int)(uint32_t)s.a[l];
    return neg ? !v : v;
  };
  if (form == "vote.sync.ballot.b32")
    return [=](int l, uint64_t &d, int &) { d = __ballot_sync(mask(l), pred(l)); };
  if (form == "vote.sync.any.pred")
    return [=](int l, uint64_t &d, int &) { d = (uint32_t)__any_sync(mask(l), pred(l)); };
  if (form == "vote.sync.all.pred")
    return [=](int l, uint64_t &d, int &) { d = (uint32_t)__all_sync(mask(l), pred(l)); };
  if (g_float_overloads && form.rfind("match.", 0) == 0) {
    // The float/double overloads: the operand's bits reinterpreted, as CUDA's
    // __match_*_sync(mask, float/double) reach match.*.sync.b32/.b64 on __float_as_uint /
    // __double_as_longlong of the value.
    bool all = form.rfind("match.all", 0) == 0, b64 = form.find(".b64") != std::string::npos;
    return [&s, mask, all, b64](int l, uint64_t &d, int &p) {
      if (b64) {
        double x;
        memcpy(&x, &s.a[l], 8);
        d = all ? __match_all_sync(mask(l), x, &p) : __match_any_sync(mask(l), x);
      } else {
        uint32_t b = (uint32_t)s.a[l];
        float x;
        memcpy(&x, &b, 4);
        d = all ? __match_all_sync(mask(l), x, &p) : __match_any_sync(mask(l), x);
      }
    };
  }
  if (form == "match.any.sync.b32")
    return [&s, mask](int l, uint64_t &d, int &) { d = __match_any_sync(mask(l), (unsigned)s.a[l]); };
  if (form == "match.any.sync.b64")
    return [&s, mask](int l, uint64_t &d, int &) {
      d = __match_any_sync(mask(l), (unsigned long long)s.a[l]);
    };
  if (form == "match.all.sync.b32")
    return [&s, mask](int l, uint64_t &d, int &p) {
      d = __match_all_sync(mask(l), (unsigned)s.a[l], &p);
    };
  if (form == "match.all.sync.b64")
    return [&s, mask](int l, uint64_t &d, int &p) {
      d = __match_all_sync(mask(l), (unsigned long long)s.a[l], &p);
    };
  // vote.sync.uni (no __uni_sync), redux.sync.* (no __reduce_*_sync), bar.warp.sync (no
  // __syncwarp) are not in this header; bar.sync/bar.red are block barriers.
  return nullptr;
}

bool read_full(int fd, void *buf, size_t n, int deadline_ms, const timespec &t0) {
  char *p = (char *)buf;
  while (n) {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long el = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
    if (el >= deadline_ms) return false;
    pollfd pf{fd, POLLIN, 0};
    int r = poll(&pf, 1, (int)(deadline_ms - el));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return true;
}

// Runs the rounds of one vector in a child process (so that a collective that never returns, or
// a crash, costs only that vector), with a deadline for the whole vector. Returns the rounds
// that completed; `timed_out` when the child was killed.
std::vector<RoundOut> run_vector_isolated(const ws_instr *in, const std::vector<ws_warp_state> &states,
                                          int deadline_ms, bool &timed_out) {
  timed_out = false;
  std::vector<RoundOut> outs;
  int fds[2];
  if (pipe(fds) != 0) return outs;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    for (const auto &s : states) {
      RoundOut o = run_round(s, lane_fn_for(in, s));
      const char *p = (const char *)&o;
      size_t n = sizeof o;
      while (n) {
        ssize_t k = write(fds[1], p, n);
        if (k <= 0) _exit(3);
        p += k;
        n -= (size_t)k;
      }
      if (o.abort_kind) break;
    }
    _exit(0);
  }
  close(fds[1]);
  timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t k = 0; k < states.size(); ++k) {
    RoundOut o;
    if (!read_full(fds[0], &o, sizeof o, deadline_ms, t0)) {
      timed_out = true;
      break;
    }
    outs.push_back(o);
    if (o.abort_kind) break;
  }
  if (timed_out) kill(pid, SIGKILL);
  int st;
  waitpid(pid, &st, 0);
  if (!timed_out && !(WIFEXITED(st) && WEXITSTATUS(st) == 0) && outs.size() < states.size()) timed_out = true;
  close(fds[0]);
  return outs;
}

int run_vectors(const char *path, const char *results_path, bool json, int deadline_ms) {
  ws_vectors *vs;
  if (ws_vectors_open(path, &vs) != WS_OK) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 3;
  }
  std::map<std::string, int> skipped, traps, livelocks, timeouts, emu, high_bits;
  int ran = 0;
  ws_vector v;
  ws_status st;
  while ((st = ws_vectors_next(vs, &v)) == WS_OK) {
    std::string form = ws_instr_form(v.instr);
    if (v.is_block) {
      ws_vectors_skip(vs);
      skipped[form]++;
      continue;
    }
    std::vector<ws_warp_state> states(v.rounds);
    for (size_t k = 0; k < v.rounds; ++k) ws_vectors_round_warp(vs, k, &states[k], nullptr);
    if (!lane_fn_for(v.instr, states[0])) {
      ws_vectors_skip(vs);
      skipped[form]++;
      continue;
    }
    bool timed_out;
    std::vector<RoundOut> outs = run_vector_isolated(v.instr, states, deadline_ms, timed_out);
    bool emu_err = false;
    for (auto &o : outs)
      if (o.abort_kind == hipemu::AB_EMU) {
        emu_err = true;
        fprintf(stderr, "vector %llu: emulation cannot decide: %s\n", (unsigned long long)v.id, o.why);
      }
    if (emu_err) {  // never charged to the header
      ws_vectors_skip(vs);
      emu[form]++;
      continue;
    }
    ++ran;
    bool writes_p = ws_instr_writes_p(v.instr);
    for (size_t k = 0; k < outs.size(); ++k) {
      const RoundOut &o = outs[k];
      if (o.abort_kind) {
        (o.abort_kind == hipemu::AB_TRAP ? traps : livelocks)[form]++;
        ws_vectors_answer_warp(vs, k, nullptr, nullptr, nullptr, 1);
        break;
      }
      uint32_t d[32];
      for (int l = 0; l < 32; ++l) {
        d[l] = (uint32_t)o.d[l];
        if (o.present[l] && (o.d[l] >> 32)) high_bits[form]++;
      }
      ws_vectors_answer_warp(vs, k, d, writes_p ? o.p : nullptr, o.present, 0);
    }
    if (timed_out) {
      timeouts[form]++;
      ws_vectors_answer_warp(vs, outs.size(), nullptr, nullptr, nullptr, 1);
    }
  }
  if (st != WS_END) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 3;
  }
  if (results_path) {
    char *r = ws_vectors_results(vs);
    FILE *f = fopen(results_path, "w");
    if (f && r) fputs(r, f);
    if (f) fclose(f);
    ws_free(r);
  }
  ws_report *rep;
  if (ws_vectors_check(vs, &rep) != WS_OK) {
    fprintf(stderr, "%s\n", ws_last_error());
    return 3;
  }
  fputs(json ? ws_report_json(rep) : ws_report_text(rep), stdout);
  auto dump = [](const char *what, const std::map<std::string, int> &m) {
    if (m.empty()) return;
    fprintf(stderr, "  %s:", what);
    for (auto &e : m) fprintf(stderr, " %s=%d", e.first.c_str(), e.second);
    fprintf(stderr, "\n");
  };
  fprintf(stderr, "hip_clr adapter (wave%d, %s%s): %d vectors run on the emulated wave\n", HIPEMU_WAVE,
#ifdef NDEBUG
          "NDEBUG: __hip_assert compiled out",
#else
          "__hip_assert on",
#endif
          g_float_overloads ? ", match through the float/double overloads" : ", match through unsigned/unsigned long long", ran);
  dump("skipped (no such intrinsic in the header, or a block barrier)", skipped);
  dump("rounds ended by __builtin_trap (answered hang=1)", traps);
  dump("rounds that never returned: livelock step cap (answered hang=1)", livelocks);
  dump("rounds that never returned: per-vector deadline (answered hang=1)", timeouts);
  dump("emulation could not order the lanes (skipped, not the header's fault)", emu);
  dump("results with bits 32-63 set (dropped)", high_bits);
  uint64_t compared = ws_report_compared(rep), bad = ws_report_mismatches(rep);
  fprintf(stderr, "  report: %llu vectors, %llu compared, %llu mismatching\n",
          (unsigned long long)ws_report_vectors(rep), (unsigned long long)compared, (unsigned long long)bad);
  ws_report_free(rep);
  ws_vectors_close(vs);
  return compared == 0 ? 2 : bad ? 1 : 0;
}

// ------------------------------------------------------------------------------------------
// The float/double overloads, which no vector file reaches (the vectors are PTX .b32/.b64):
// hand-made states, each run through the header and stepped against warpspec with the
// intrinsic's own spelling (which compares bit patterns), and the .bNN PTX form as a cross-check.

struct FloatCase {
  const char *name;
  bool dbl;
  bool all;  // __match_all_sync (else __match_any_sync)
  std::vector<uint64_t> bits;  // repeated to fill 32 lanes
};

int float_tests(int deadline_ms) {
  const uint64_t qnan = 0x7fc00000, qnan2 = 0x7fc00001, nz = 0x80000000, one = 0x3f800000;
  const uint64_t dqnan = 0x7ff8000000000000ull, dnz = 0x8000000000000000ull, done_ = 0x3ff0000000000000ull;
  std::vector<FloatCase> cases = {
      {"float any: every lane the same quiet NaN", false, false, {qnan}},
      {"float any: lanes 0-15 1.0f, 16-31 the same NaN", false, false, {one}},
      {"float any: lanes alternate NaN payloads 0x7fc00000/0x7fc00001", false, false, {qnan, qnan2}},
      {"float any: lanes alternate +0.0f/-0.0f", false, false, {0, nz}},
      {"float all: every lane the same quiet NaN", false, true, {qnan}},
      {"float all: lanes alternate +0.0f/-0.0f", false, true, {0, nz}},
      {"float any: all lanes 1.0f (control)", false, false, {one}},
      {"double any: every lane the same quiet NaN", true, false, {dqnan}},
      {"double any: lanes alternate +0.0/-0.0", true, false, {0, dnz}},
      {"double all: every lane the same quiet NaN", true, true, {dqnan}},
      {"double all: lanes alternate +0.0/-0.0", true, true, {0, dnz}},
      {"double all: all lanes 1.0 (control)", true, true, {done_}},
  };
  int disagree = 0;
  for (auto &c : cases) {
    ws_warp_state s;
    ws_warp_state_init(&s);
    for (int l = 0; l < 32; ++l) s.a[l] = c.bits[l % c.bits.size()];
    if (std::string(c.name).find("0-15 1.0f") != std::string::npos)
      for (int l = 16; l < 32; ++l) s.a[l] = qnan;
    std::string intr = std::string(c.all ? "__match_all_sync(m, (" : "__match_any_sync(m, (") +
                       (c.dbl ? "double" : "float") + ")x" + (c.all ? ", &p)" : ")");
    std::string ptx = std::string(c.all ? "match.all.sync." : "match.any.sync.") + (c.dbl ? "b64" : "b32") +
                      (c.all ? " d|p, a, m;" : " d, a, m;");
    ws_instr *in = nullptr, *inp = nullptr;
    if (ws_instr_parse(intr.c_str(), "sm_90", nullptr, &in) != WS_OK ||
        ws_instr_parse(ptx.c_str(), "sm_90", nullptr, &inp) != WS_OK) {
      fprintf(stderr, "%s\n", ws_last_error());
      return 3;
    }
    LaneFn fn;
    bool dbl = c.dbl, all = c.all;
    fn = [&s, dbl, all](int l, uint64_t &d, int &p) {
      unsigned long long m = s.mask[l];
      if (dbl) {
        double x;
        memcpy(&x, &s.a[l], 8);
        d = all ? __match_all_sync(m, x, &p) : __match_any_sync(m, x);
      } else {
        float x;
        uint32_t b = (uint32_t)s.a[l];
        memcpy(&x, &b, 4);
        d = all ? __match_all_sync(m, x, &p) : __match_any_sync(m, x);
      }
    };
    bool timed_out = false;
    // One round, isolated like the vectors (the NaN cases are expected to loop).
    std::vector<RoundOut> outs;
    {
      int fds[2];
      if (pipe(fds) != 0) return 3;
      fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        RoundOut o = run_round(s, fn);
        if (write(fds[1], &o, sizeof o) != (ssize_t)sizeof o) _exit(3);
        _exit(0);
      }
      close(fds[1]);
      timespec t0;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      RoundOut o;
      if (read_full(fds[0], &o, sizeof o, deadline_ms, t0)) outs.push_back(o);
      else {
        timed_out = true;
        kill(pid, SIGKILL);
      }
      int stt;
      waitpid(pid, &stt, 0);
      close(fds[0]);
    }
    uint32_t d[32] = {0};
    uint8_t p[32] = {0}, present[32] = {0};
    int hang = timed_out || outs.empty() || outs[0].abort_kind != 0;
    const char *how = timed_out ? "deadline" : hang ? (outs[0].abort_kind == hipemu::AB_TRAP ? "trap" : "livelock") : "returned";
    if (!hang) {
      for (int l = 0; l < 32; ++l) {
        d[l] = (uint32_t)outs[0].d[l];
        p[l] = outs[0].p[l];
        present[l] = outs[0].present[l];
      }
    }
    ws_verdict vi, vp;
    ws_step_warp(in, &s, d, c.all ? p : nullptr, present, hang, &vi);
    ws_step_warp(inp, &s, d, c.all ? p : nullptr, present, hang, &vp);
    ws_warp_answer exp;
    ws_eval_warp(in, &s, &exp);
    printf("%-62s HIP %-8s d[0]=0x%08x%s  expected d[0]=0x%08x%s  -> %s (%s%s%s)  [%s: %s]\n", c.name, how, d[0],
           c.all ? (p[0] ? " p=1" : " p=0") : "", exp.d[0], c.all ? (exp.p[0] ? " p=1" : " p=0") : "",
           vi.agree ? "agree" : "DISAGREE", vi.agree ? "" : vi.what, vi.agree ? "" : ", ", vi.agree ? "" : vi.clause,
           ptx.c_str(), vp.agree ? "agree" : "disagree");
    if (!vi.agree) {
      ++disagree;
      if (getenv("HIPEMU_EXPLAIN")) {
        char *e = ws_step_explain_warp(in, &s, d, c.all ? p : nullptr, present, hang);
        if (e) fputs(e, stdout);
        ws_free(e);
      }
    }
    ws_instr_free(in);
    ws_instr_free(inp);
  }
  printf("float/double cases: %zu, disagreeing: %d\n", cases.size(), disagree);
  return disagree ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  const char *vectors = nullptr, *results = nullptr;
  bool json = false, ftests = false;
  int deadline_ms = 5000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--results" && i + 1 < argc) results = argv[++i];
    else if (a == "--json") json = true;
    else if (a == "--float-tests") ftests = true;
    else if (a == "--float-overloads") g_float_overloads = true;
    else if (a == "--deadline-ms" && i + 1 < argc) deadline_ms = atoi(argv[++i]);
    else if (a[0] != '-' && !vectors) vectors = argv[i];
    else {
      fprintf(stderr, "usage: %s VECTORS.jsonl [--results OUT] [--json] [--deadline-ms N] [--float-overloads] | --float-tests\n", argv[0]);
      return 3;
    }
  }
  if (ftests) return float_tests(deadline_ms);
  if (!vectors) {
    fprintf(stderr, "usage: %s VECTORS.jsonl [--results OUT] [--json] [--deadline-ms N] [--float-overloads] | --float-tests\n", argv[0]);
    return 3;
  }
  return run_vectors(vectors, results, json, deadline_ms);
}
