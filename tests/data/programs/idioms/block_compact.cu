// Correct: stream compaction across four warps (128 threads). Each warp ballots "v % 3 == 0"; a kept lane's rank
// is the number of set bits below it; lane 0 stores the warp's count; after a __syncthreads()
// every thread adds up the counts of the warps before its own to find its warp's base. Kept
// values land densely in thread order after out[0], the total.
extern "C" __global__ void block_compact(const unsigned* in, unsigned* out) {
  __shared__ unsigned cnt[32];
  unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
  unsigned v = in[t];
  unsigned keep = v % 3u == 0;
  unsigned b = __ballot_sync(0xffffffff, keep);
  unsigned c = __reduce_add_sync(0xffffffff, keep);
  unsigned rank = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) rank += j < lane ? (b >> j) & 1u : 0u;
  if (lane == 0) cnt[warp] = c;
  __syncthreads();
  unsigned base = 0, total = 0;
#pragma unroll
  for (unsigned w = 0; w < 4; ++w) {
    if (w < warp) base += cnt[w];
    total += cnt[w];
  }
  if (keep) out[1 + base + rank] = v;
  if (t == 0) out[0] = total;
}
