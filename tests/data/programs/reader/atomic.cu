// A global atomic (outside the subset): the reader must reject atom.global.add.u32 where it is.
__global__ void atomic(unsigned* counter, unsigned* out) {
  out[threadIdx.x] = atomicAdd(counter, 1u);
}
