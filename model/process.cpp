#include "model/process.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace warpspec::model {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Blocks of any size up to 1 GiB come from the heap (not each from a mapping of its own that
  // is unmapped when freed), and the heap's free top is kept up to 1 GiB. One heap for all
  // threads: a thread's own heap is unmapped in 64 MiB pieces whenever its top is free, whatever
  // the limit, and the proofs' two threads contend little for the one heap's lock.
  constexpr int kKeep = 1 << 30;
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, kKeep);
  mallopt(M_TRIM_THRESHOLD, kKeep);
#endif
}

}  // namespace warpspec::model
