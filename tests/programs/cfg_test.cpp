// Where the lanes a branch splits meet again before Volta: the branch's immediate
// post-dominator, worked out by hand for each shape of control flow below.
#include "programs/cfg.hpp"

#include <gtest/gtest.h>

#include "programs/ptx_reader.hpp"

namespace warpspec::programs {
namespace {

Program kernel(const std::string& body) {
  auto r = read_ptx(
      ".version 9.0\n.target sm_60\n.address_size 64\n"
      ".visible .entry k()\n{\n  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n" +
      body + "}\n");
  if (auto* e = std::get_if<ReadError>(&r)) ADD_FAILURE() << e->loc.line << ": " << e->message;
  return std::holds_alternative<Program>(r) ? std::get<Program>(r) : Program{};
}

TEST(Reconvergence, AnIfMeetsAfterItsBody) {
  const auto p = kernel(R"(
  setp.eq.u32 %p1, %r1, 0;   // 0
  @%p1 bra $L_join;          // 1
  add.u32 %r2, %r2, 1;       // 2
$L_join:
  ret;                       // 3
)");
  EXPECT_EQ(reconvergence_points(p)[1], 3u);
}

TEST(Reconvergence, AnIfElseMeetsWhereBothSidesJoin) {
  const auto p = kernel(R"(
  setp.eq.u32 %p1, %r1, 0;   // 0
  @%p1 bra $L_else;          // 1
  add.u32 %r2, %r2, 1;       // 2
  bra.uni $L_join;           // 3
$L_else:
  add.u32 %r2, %r2, 2;       // 4
$L_join:
  add.u32 %r2, %r2, 3;       // 5
  ret;                       // 6
)");
  EXPECT_EQ(reconvergence_points(p)[1], 5u);
}

TEST(Reconvergence, ALoopMeetsAtItsExit) {
  const auto p = kernel(R"(
$L_top:
  add.u32 %r1, %r1, 1;       // 0
  setp.lt.u32 %p1, %r1, 5;   // 1
  @%p1 bra $L_top;           // 2
  add.u32 %r2, %r1, 1;       // 3
  ret;                       // 4
)");
  EXPECT_EQ(reconvergence_points(p)[2], 3u);
}

TEST(Reconvergence, ABranchToAnEarlyReturnMeetsOnlyAtTheEnd) {
  // One side returns, the other runs on and returns elsewhere: no instruction is on every
  // path, so the lanes meet only when the kernel ends.
  const auto p = kernel(R"(
  setp.eq.u32 %p1, %r1, 0;   // 0
  @%p1 bra $L_out;           // 1
  add.u32 %r2, %r2, 1;       // 2
  ret;                       // 3
$L_out:
  ret;                       // 4
)");
  EXPECT_EQ(reconvergence_points(p)[1], p.code.size());
}

TEST(Reconvergence, NestedIfsMeetInsideOut) {
  const auto p = kernel(R"(
  setp.eq.u32 %p1, %r1, 0;   // 0
  @%p1 bra $L_outer;         // 1
  setp.eq.u32 %p2, %r2, 0;   // 2
  @%p2 bra $L_inner;         // 3
  add.u32 %r3, %r3, 1;       // 4
$L_inner:
  add.u32 %r3, %r3, 2;       // 5
$L_outer:
  ret;                       // 6
)");
  const auto r = reconvergence_points(p);
  EXPECT_EQ(r[3], 5u);
  EXPECT_EQ(r[1], 6u);
}

}  // namespace
}  // namespace warpspec::programs
