// Bug (NVIDIA/cutlass#1094): the warp index is made warp-uniform with __shfl_sync(0x1f, ...): the
// mask names lanes 0-4 only, but all 32 lanes of each warp execute the shuffle. The fix in the
// report is the mask 0xffffffff.
extern "C" __global__ void cutlass_warp_idx_mask(unsigned* out) {
  unsigned warp_idx = __shfl_sync(0x1f, threadIdx.x / 32, 0);
  out[threadIdx.x] = warp_idx;
}
