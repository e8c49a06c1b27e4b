// Correct: a warp-specialised block of 128 threads. Warp 0 loads a tile into shared memory and
// arrives on barrier 1 (bar.arrive 1, 128); warps 1-3 wait on it (bar.sync 1, 128), each reduces
// the tile with its own weight, lane 0 stores the warp's result, and they arrive on barrier 2
// (barrier.cta.arrive 2, 128), on which warp 0 waits (barrier.cta.sync 2, 128) before storing the
// three results and their sum.
extern "C" __global__ void named_warp_specialized(const unsigned* in, unsigned* out) {
  __shared__ unsigned tile[32];
  __shared__ unsigned part[3];
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (warp == 0) {
    tile[lane] = in[lane] * 2 + 1;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
    asm volatile("barrier.cta.sync 2, 128;" ::: "memory");
    if (lane < 3) out[lane] = part[lane];
    if (lane == 3) out[3] = part[0] + part[1] + part[2];
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    unsigned x = __reduce_add_sync(0xffffffff, tile[lane] * (warp + lane));
    if (lane == 0) part[warp - 1] = x;
    asm volatile("barrier.cta.arrive 2, 128;" ::: "memory");
  }
}
