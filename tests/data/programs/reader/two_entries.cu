// Two kernels in one module; the reader picks one by its (mangled) name.
__global__ void first(unsigned* out) { out[threadIdx.x] = __activemask(); }

__global__ void second(unsigned* out, int bias) {
  out[threadIdx.x] = __ballot_sync(0xffffffffu, (int)threadIdx.x + bias > 7);
}
