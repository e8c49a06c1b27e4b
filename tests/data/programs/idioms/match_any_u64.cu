// Correct: __match_any_sync on a 64-bit key built from two words. Keys that agree in their low
// word but not their high word are different keys, so they fall in different groups.
extern "C" __global__ void match_any_u64(const unsigned* lo, const unsigned* hi, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned long long key = ((unsigned long long)hi[lane] << 32) | lo[lane];
  out[lane] = __match_any_sync(0xffffffff, key);
}
