// The process settings the CLI and the test runners make (model/process.hpp): this runner's main
// has made them, so memory freed here is reused without the kernel faulting it in again.
#include "model/process.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>

namespace warpspec::model {
namespace {

// Both helpers go unused in the builds that skip the test.
[[maybe_unused]] long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// Writes one byte of every page of a fresh block of `bytes`, then frees it.
[[maybe_unused]] void touch_and_free(std::size_t bytes) {
  auto* p = static_cast<volatile char*>(std::malloc(bytes));
  ASSERT_NE(p, nullptr);
  for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 1;
  std::free(const_cast<char*>(p));
}

TEST(Process, AFreedLargeBlockIsReusedWithoutPageFaults) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the sanitizer's allocator takes no glibc settings";
#elif !defined(__GLIBC__)
  GTEST_SKIP() << "keep_freed_memory() changes glibc's allocator only";
#else
  // 256 MiB is 65,536 pages: with glibc's defaults the block is a mapping of its own, unmapped
  // when freed, and every page faults again on the second pass.
  constexpr std::size_t kBytes = std::size_t{256} << 20;
  touch_and_free(kBytes);
  const long before = minor_faults();
  touch_and_free(kBytes);
  EXPECT_LT(minor_faults() - before, 1000) << "the freed block went back to the kernel";
#endif
}

}  // namespace
}  // namespace warpspec::model
