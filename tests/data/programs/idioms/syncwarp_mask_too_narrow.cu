// Bug: each half of the warp syncs with a mask of its own half only, then reads a slot the other
// half stored. Every call is well formed (each half's lanes all pass the same mask, which names
// themselves), but nothing orders a store by one half before the other half's load.
extern "C" __global__ void syncwarp_mask_too_narrow(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[32];
  unsigned lane = threadIdx.x;
  s[lane] = in[lane] * 3;
  __syncwarp(lane < 16 ? 0x0000ffffu : 0xffff0000u);
  out[lane] = s[lane ^ 16];
}
