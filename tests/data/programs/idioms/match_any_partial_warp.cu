// Full mask in a partial warp, harmless for match_any: 40 threads, warp 1 has lanes 0-7. Each lane
// gets the set of lanes, among those of the mask that exist, holding its key; absent lanes never
// appear in a result.
extern "C" __global__ void match_any_partial_warp(const unsigned* keys, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned key = keys[t];
  out[t] = __match_any_sync(0xffffffff, key);
}
