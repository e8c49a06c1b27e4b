// The runner of every GoogleTest binary of the suite: the process settings the CLI makes (the
// proofs and witness searches here do the CLI's Z3 work), then the tests.
#include <gtest/gtest.h>

#include "model/process.hpp"

int main(int argc, char** argv) {
  warpspec::model::keep_freed_memory();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
