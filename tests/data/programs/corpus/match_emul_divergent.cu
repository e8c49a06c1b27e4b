// Bug (the llvm-project#62477 pattern): the ballot-based match_any emulation runs inside the
// branch and takes its starting mask from a full-mask __ballot_sync(0xffffffff, 1) there, as if
// that returned the active lanes. Lanes with key 0 are named but never execute it.
extern "C" __global__ void match_emul_divergent(const unsigned* keys, unsigned* out) {
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
  }
}
