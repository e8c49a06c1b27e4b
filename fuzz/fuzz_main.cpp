// The libFuzzer entry point of one target; WARPSPEC_FUZZ_TARGET names its harness function.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "fuzz/harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    warpspec::fuzz::WARPSPEC_FUZZ_TARGET(
        std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const warpspec::fuzz::Violation& v) {
    std::fprintf(stderr, "reader contract broken: %s\n", v.what());
    std::abort();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "uncaught exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
