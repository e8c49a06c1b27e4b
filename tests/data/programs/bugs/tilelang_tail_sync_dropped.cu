// Bug (tile-ai/tilelang#2556): 64 threads, a guard tx < 48, and a shared-memory exchange inside
// it. The barrier the planner asked for would cover 48 threads, not a multiple of 32, and the pass
// dropped it instead of emitting it, so the reads race with the other threads' stores.
extern "C" __global__ void tilelang_tail_sync_dropped(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[48];
  unsigned tx = threadIdx.x;
  if (tx < 48) {
    s[tx] = in[tx] * 3u + 1u;
    out[tx] = s[47 - tx];
  }
}
