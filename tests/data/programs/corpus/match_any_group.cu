// Correct: __match_any_sync groups the lanes of a warp by key; every lane stores its group mask,
// and the lowest lane of each group (m & -m is its bit) stores the group size, obtained with
// __reduce_add_sync over that same mask, at out[32 + key].
extern "C" __global__ void match_any_group(const unsigned* keys, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned key = keys[lane];
  unsigned m = __match_any_sync(0xffffffff, key);
  unsigned size = __reduce_add_sync(m, 1u);
  out[lane] = m;
  if ((m & (0u - m)) == (1u << lane)) out[32 + key] = size;
}
