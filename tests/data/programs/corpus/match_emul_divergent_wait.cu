// Bug (the llvm-project#62477 pattern, made to hang): as match_emul_divergent, but the lanes
// with key 0 do not leave: they go on to a full-mask __syncwarp() in the else branch. The
// full-mask __ballot_sync inside the if names them while they wait at another collective, so
// neither side can ever execute.
extern "C" __global__ void match_emul_divergent_wait(const unsigned* keys, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned key = keys[lane];
  if (key != 0) {
    unsigned mask = __ballot_sync(0xffffffff, 1);
    unsigned group;
    for (;;) {
      unsigned leader = __reduce_min_sync(mask, lane);
      unsigned lk = __shfl_sync(mask, key, leader);
      unsigned b = __ballot_sync(mask, key == lk);
      if (key == lk) { group = b; break; }
      mask &= ~b;
    }
    out[lane] = group;
  } else {
    __syncwarp();
    out[lane] = 7;
  }
}
