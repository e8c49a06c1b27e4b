// From pytorch/FBGEMM#5857: threads past `total` (here all of warp 2, a whole trailing group)
// return before the block barriers of a shared-memory max reduction; the report calls this a hang
// on ROCm and latent undefined behaviour on NVIDIA. On sm_70+ a block barrier waits only for
// threads that have not exited, so the remaining groups meet at every barrier.
extern "C" __global__ void fbgemm_early_return_sync(const unsigned* in, unsigned* out,
                                                    unsigned total) {
  __shared__ unsigned smem[96];
  unsigned t = threadIdx.x;
  if (t >= total) return;
  unsigned g = t >> 5, lane = t & 31;
  smem[t] = in[t];
  __syncthreads();
  for (unsigned off = 16; off > 0; off >>= 1) {
    unsigned mine = smem[t];
    unsigned other = smem[(g << 5) | (lane ^ off)];
    __syncthreads();
    smem[t] = mine > other ? mine : other;
    __syncthreads();
  }
  out[t] = smem[g << 5];
}
