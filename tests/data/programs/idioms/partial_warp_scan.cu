// Correct: 100 threads, so warp 3 has lanes 0-3. Each warp computes the mask of its lanes that
// exist, scans with up-shuffles under that mask (a source lane is always below the caller, so it
// exists), and broadcasts the warp total from its last lane.
extern "C" __global__ void partial_warp_scan(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned live = blockDim.x - warp * 32;
  if (live > 32) live = 32;
  unsigned mask = live == 32 ? 0xffffffffu : (1u << live) - 1u;
  unsigned v = in[t];
  for (unsigned off = 1; off < 32; off <<= 1) {
    unsigned y = __shfl_up_sync(mask, v, off);
    if (lane >= off) v += y;
  }
  unsigned total = __shfl_sync(mask, v, live - 1);
  out[t] = v;
  if (lane == 0) out[100 + warp] = total;
}
