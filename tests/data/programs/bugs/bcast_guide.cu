// The broadcast example of the CUDA programming guide, as run in gpgpu-sim/gpgpu-sim_distribution#230:
// only lane 0 assigns `value`, then a full-mask __shfl_sync copies lane 0's value to every lane of
// the warp. The other lanes' own `value` is never set and never used. Here each warp's lane 0
// loads its warp's argument from memory (in the guide it is a kernel argument, which nvcc folds
// into every lane). out[t] is the value received, out[64 + t] is 1 where the guide's check would
// report a failure.
extern "C" __global__ void bcast_guide(const unsigned* arg, unsigned* out) {
  unsigned laneId = threadIdx.x & 0x1f;
  unsigned value;
  if (laneId == 0) value = arg[threadIdx.x >> 5];
  value = __shfl_sync(0xffffffffu, value, 0);
  out[threadIdx.x] = value;
  out[64 + threadIdx.x] = value != arg[threadIdx.x >> 5] ? 1u : 0u;
}
