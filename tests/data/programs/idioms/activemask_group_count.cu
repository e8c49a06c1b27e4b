// Schedule-dependent: the five lanes with an odd input count their group with
// __reduce_add_sync(__activemask(), 1). The mask is a valid one, so there is no undefined
// behaviour, but the groups, and so the counts, depend on which lanes run together.
extern "C" __global__ void activemask_group_count(const unsigned* in, unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = in[lane];
  if (v & 1u) out[lane] = __reduce_add_sync(__activemask(), 1u);
}
