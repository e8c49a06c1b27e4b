// Two warps produce into shared memory and arrive at named barrier 1; two warps wait there for
// all 128 threads and consume. Then one lane per warp is elected (cooperative groups' invoke_one,
// which lowers to elect.sync on sm_90) to record the warp's leader.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void record(unsigned* leaders, unsigned t) { leaders[t / 32] = t; }

__global__ void named_barrier(int* buf, unsigned* leaders) {
  __shared__ int slot[64];
  unsigned t = threadIdx.x;
  if (t < 64) {
    slot[t] = (int)t * 3;
    asm volatile("bar.arrive 1, 128;");
  } else if (t < 128) {
    asm volatile("bar.sync 1, 128;");
    buf[t] = slot[t - 64];
  }
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::invoke_one(warp, record, leaders, t);
}
