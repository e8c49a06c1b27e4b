// From gunrock/gunrock#324 (the hang of #312, reduced there): lanes 0 and 16 swap a value with
// __shfl_xor_sync(0x00010001, ..., 16) inside a branch only they take, then the whole warp runs a
// full-mask __shfl_up_sync. The report saw it hang with CUDA 9.1. Both masks name exactly the
// lanes that execute each shuffle, and the xor partner of 0 and 16 is in the mask.
extern "C" __global__ void gunrock_shfl_pair(unsigned* d) {
  __syncthreads();
  unsigned lane_id = threadIdx.x & 0x1f;
  unsigned lane_local = lane_id;
  unsigned lane_recv = lane_id + 32;
  if ((lane_id & 0xfu) == 0) {
    lane_local += lane_recv;
    lane_recv = __shfl_xor_sync(0x00010001u, lane_local, 0x10u);
  }
  lane_local = lane_recv;
  lane_recv = __shfl_up_sync(0xffffffffu, lane_local, 8);
  __syncthreads();
  d[threadIdx.x] = lane_recv;
}
