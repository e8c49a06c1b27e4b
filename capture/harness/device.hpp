#pragma once
// The boundary between the host driver and the CUDA kernels: plain structs and functions only,
// so the kernels' translation unit needs nothing from the rest of the project.
#include <cstddef>
#include <cstdint>
#include <string>

namespace warpspec::capture::gpu {

/// Lane status codes as the kernels read them.
enum : uint32_t { kExecutes = 0, kExited = 1, kInactive = 2 };

/// One lane of one warp state.
struct LaneIn {
  uint64_t a;       ///< operand (low 32 bits for 32-bit forms; compared with 0 for predicates)
  uint32_t mask;    ///< membermask
  uint32_t alive;   ///< the non-exited lanes of the warp (for the closing __syncwarp)
  uint32_t status;  ///< kExecutes, kExited or kInactive
  uint32_t site;    ///< 0 or 1: which of two branches reaches the instruction
  uint32_t b;       ///< shuffles: source lane or offset
  uint32_t c;       ///< shuffle PTX: segment mask and clamp
  uint32_t width;   ///< shuffle intrinsics: the width argument (they make c from it)
};

/// What one lane observed.
struct LaneOut {
  uint32_t d;       ///< destination (0 for forms without one)
  uint32_t p;       ///< predicate destination of match.all (0/1)
  uint32_t ran;     ///< 0: did not execute; 1 + site: executed from that branch
  uint32_t active;  ///< __activemask() just before the instruction
};

/// The device and software the capture runs on.
struct DeviceInfo {
  std::string name;
  int major = 0, minor = 0;  ///< compute capability
  int driver = 0;            ///< cudaDriverGetVersion, e.g. 13000
  int runtime = 0;           ///< cudaRuntimeGetVersion
  int sms = 0;               ///< multiprocessors
  int clock_khz = 0;         ///< SM clock the device reports (0 when unknown)
  std::string compiler;      ///< e.g. "nvcc 13.0.88"
};

/// Reads device 0's description; false with a message on failure.
bool device_info(DeviceInfo& out, std::string& err);

/// Runs `states` warp states (32 LaneIn each) of a warp variant, one warp per block. When the
/// kernel itself fails (a trap), `fault` receives the error's name, e.g.
/// "cudaErrorIllegalInstruction"; the context is unusable after that. When it has not returned
/// after `deadline_s` seconds, `hung` is set and `fault` says so; the kernel still runs, its
/// buffers are left to the process's end, and the caller must leave without synchronising
/// (exit through std::_Exit).
bool run_warp_batch(int variant, const LaneIn* in, LaneOut* out, std::size_t states,
                    double deadline_s, std::string& err, std::string& fault, bool& hung);

/// Runs `blocks` blocks of `threads` threads of a __syncthreads-family variant. Per thread
/// (block-major): exited flag and predicate in; result and a ran flag out.
bool run_cta_batch(int variant, unsigned threads, const uint8_t* exited, const uint32_t* pred,
                   uint32_t* d, uint32_t* ran, std::size_t blocks, std::string& err);

/// Roles of a thread in a named-barrier block (kExited as above).
enum : uint32_t { kArrives = 0, kElsewhere = 2, kPartner = 3 };

/// One thread of a named-barrier block state.
struct NamedIn {
  uint32_t role;   ///< kArrives (the instruction), kPartner (its partner form), kElsewhere, kExited
  uint32_t pred;   ///< bar.red's predicate c
  uint32_t bar;    ///< a, where the variant takes it from a register
  uint32_t count;  ///< b, likewise
};

/// Marks a thread leaves as it goes: in host memory, so they can be read while a launch hangs.
enum : uint32_t { kNoMark = 0, kEntered = 1, kCameBack = 2, kLeft = 3 };

/// What one thread of a named-barrier block left behind.
struct NamedOut {
  uint32_t d;     ///< the instruction's result (bar.red), 0 otherwise; valid once mark is kCameBack
  uint32_t mark;  ///< kEntered on the way in; kCameBack past the barrier; kLeft when a thread
                  ///< elsewhere finishes; kNoMark for an exited thread or one that never started
};

/// One launch of a named variant: `blocks` blocks of `threads` threads, each block one state.
struct NamedLaunch {
  unsigned threads = 0;
  int imm = -1;  ///< index into kNamedImmediates for an immediate variant, else -1
  std::size_t blocks = 0;
  const NamedIn* in = nullptr;  ///< blocks * threads, block-major
  NamedOut* out = nullptr;      ///< likewise; filled on return, whatever happened
};

/// Runs the launches of a named variant side by side (one stream each) and polls them until all
/// have returned or `deadline_s` has passed; threads elsewhere stay alive for `idle_us` before
/// they finish. The kernels write their marks and results straight into host memory, so `out`
/// holds what every thread had done by the end, even when a launch never returned: `hung` is
/// set then, the device memory is left to the process's end, and the caller must leave without
/// synchronising (std::_Exit). A trap sets `fault` to the error's name.
bool run_named(int variant, NamedLaunch* launches, std::size_t count, double deadline_s,
               unsigned idle_us, std::string& err, std::string& fault, bool& hung);

/// A throughput measurement of one variant over the whole GPU.
struct BenchResult {
  bool runtime_mask = false;  ///< the full mask came from a kernel argument
  unsigned blocks = 0, threads = 0;
  unsigned long long per_thread = 0;  ///< instructions each thread executed
  double ms = 0;                      ///< median of the timed launches
  double warp_instructions = 0;       ///< blocks * warps per block * per_thread
  double per_second = 0;              ///< warp_instructions / seconds
  int repeats = 0;
};

/// Measures a variant's warp-instructions per second (a warp variant or the __syncthreads family):
/// a full-occupancy grid, each thread a loop of dependent instructions with the full membermask.
/// `distinct`: lanes hold different operands. `runtime_mask`: the mask is a kernel argument, so the
/// compiler cannot see that it is full and emits its convergence check around each instruction, as
/// it does for any mask it cannot prove full.
bool bench(int variant, bool distinct, bool runtime_mask, BenchResult& out, std::string& err);

}  // namespace warpspec::capture::gpu
