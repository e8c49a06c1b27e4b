// The instruction parser: accepted spellings, canonical text, and errors with their columns.
#include <gtest/gtest.h>

#include <bit>

#include "spec/instr_parse.hpp"

namespace warpspec {
namespace {

using spec::FormId;

spec::ParsedInstr ok(const std::string& text) {
  auto r = spec::parse_instruction(text);
  if (auto* e = std::get_if<spec::ParseError>(&r)) ADD_FAILURE() << text << ": " << e->message;
  return std::holds_alternative<spec::ParsedInstr>(r) ? std::get<spec::ParsedInstr>(r)
                                                      : spec::ParsedInstr{};
}

spec::ParseError err(const std::string& text) {
  auto r = spec::parse_instruction(text);
  EXPECT_TRUE(std::holds_alternative<spec::ParseError>(r)) << text << " was accepted";
  return std::holds_alternative<spec::ParseError>(r) ? std::get<spec::ParseError>(r)
                                                     : spec::ParseError{};
}

TEST(Parse, EveryCatalogFormParsesFromItsOwnSyntax) {
  for (const auto& f : spec::kForms) {
    std::string syntax(f.syntax);
    // Make the written syntax concrete: optional and negation markers resolved.
    auto replace = [&](const std::string& a, const std::string& b) {
      if (auto pos = syntax.find(a); pos != std::string::npos) syntax.replace(pos, a.size(), b);
    };
    replace("d[|p]", "d|p");
    replace("{!}a", "!a");
    replace("{!}c", "!c");
    replace("a{, b}", "a, b");
    replace("membermask", "0xffffffff");
    auto p = ok(std::string(f.name) + " " + syntax + ";");
    EXPECT_EQ(p.instr.form, f.id) << f.name;
    EXPECT_EQ(p.instr.negate, f.negatable) << f.name;
    EXPECT_EQ(p.instr.write_p, f.optional_p) << f.name;
  }
}

TEST(Parse, ImmediateAndRegisterMasks) {
  auto p = ok("match.all.sync.b64 d|p, a, 0x0000ffff;");
  EXPECT_EQ(p.instr.imm_mask, 0x0000ffffu);
  EXPECT_EQ(p.text, "match.all.sync.b64 d|p, a, 0x0000ffff;");
  auto q = ok("  vote.sync.ballot.b32 %r1, !%p2, %mask ;  // comment");
  EXPECT_FALSE(q.instr.imm_mask);
  EXPECT_EQ(q.mask_register, "%mask");
  EXPECT_TRUE(q.instr.negate);
  EXPECT_EQ(ok("redux.sync.add.s32 dst, src, 255;").instr.imm_mask, 255u);
}

TEST(Parse, SinkOnMatchAll) {
  auto p = ok("match.all.sync.b32 _|p, a, 0xffffffff;");
  EXPECT_FALSE(p.instr.write_d);
  EXPECT_TRUE(p.instr.write_p);
  auto q = ok("match.all.sync.b32 d|_, a, 0xffffffff;");
  EXPECT_TRUE(q.instr.write_d);
  EXPECT_FALSE(q.instr.write_p);
  auto r = ok("match.all.sync.b32 d, a, 0xffffffff;");
  EXPECT_FALSE(r.instr.write_p);
}

TEST(Parse, Errors) {
  auto e = err("match.any.sync.b16 d, a, 0xffffffff;");
  EXPECT_EQ(e.column, 15u);
  EXPECT_NE(e.message.find(".b32, .b64"), std::string::npos) << e.message;
  EXPECT_EQ(err("match.any.sync d, a, 0xffffffff;").column, 15u);
  EXPECT_EQ(err("vote.sync.ballot.b32 d, !p, 0x1ffffffff;").column, 29u);
  EXPECT_NE(err("redux.sync.add.f32 d, a, m;").message.find(".u32, .s32"), std::string::npos);
  EXPECT_EQ(err("match.all.sync.b32 _|_, a, m;").column, 20u);
  EXPECT_EQ(err("match.any.sync.b32 _, a, m;").column, 20u);
  EXPECT_EQ(err("match.any.sync.b32 d|p, a, m;").column, 21u);
  EXPECT_EQ(err("redux.sync.add.u32 d, !a, m;").column, 23u);
  EXPECT_EQ(err("vote.sync.all.pred d, a, m; x").column, 29u);
  EXPECT_EQ(err("vote.sync.all.pred d a, m;").column, 22u);
  EXPECT_EQ(err("").column, 1u);
  EXPECT_EQ(err("@p vote.sync.all.pred d, a, m;").column, 1u);
  EXPECT_EQ(err("bar.sync 16;").column, 10u);
  EXPECT_EQ(err("frobnicate d;").column, 1u);
}

TEST(Parse, Intrinsics) {
  auto p = ok("__match_any_sync(0xffffffff, (float)x)");
  EXPECT_EQ(p.instr.form, FormId::MatchAnyB32);
  ASSERT_NE(p.intrinsic, nullptr);
  EXPECT_EQ(p.intrinsic->value_type, spec::CType::Float);
  EXPECT_EQ(ok("__match_all_sync(m, (double)v, &pred);").instr.form, FormId::MatchAllB64);
  EXPECT_TRUE(ok("__match_all_sync(m, (double)v, &pred);").instr.write_p);
  EXPECT_EQ(ok("__match_any_sync(m, (unsigned long)v)").instr.form, FormId::MatchAnyB64);
  EXPECT_EQ(ok("__reduce_min_sync(0xff, (unsigned)v)").instr.form, FormId::ReduxMinU32);
  EXPECT_EQ(ok("__reduce_min_sync(0xff, v)").instr.form, FormId::ReduxMinS32);  // int by default
  EXPECT_EQ(ok("__syncwarp()").instr.imm_mask, 0xffffffffu);
  // The 64-bit shuffle overloads lower to the b32 form run on each word, with the width as c.
  const auto wide = ok("__shfl_sync(0xffffffff, (long long)x, 3, 8)");
  EXPECT_EQ(wide.instr.form, FormId::ShflIdx);
  EXPECT_TRUE(wide.instr.wide);
  EXPECT_EQ(wide.instr.imm_c, 0x181fu);
  EXPECT_EQ(wide.intrinsic->value_type, spec::CType::LongLong);
  EXPECT_TRUE(ok("__shfl_up_sync(m, (double)x, 1)").instr.wide);
  EXPECT_EQ(ok("__shfl_up_sync(m, (double)x, 1)").instr.imm_c, 0u);
  EXPECT_TRUE(ok("__shfl_xor_sync(m, (unsigned long)x, 1, 16)").instr.wide);
  EXPECT_FALSE(ok("__shfl_down_sync(m, (float)x, 1)").instr.wide);
  EXPECT_FALSE(ok("__shfl_sync(m, x, 1)").instr.wide);
  EXPECT_EQ(spec::value_syntax(ok("__shfl_sync(m, (double)x, 1)")).bits, 64);
  EXPECT_EQ(ok("__syncthreads_count(p)").instr.form, FormId::BarRedPopc);
  EXPECT_EQ(ok("__syncthreads()").instr.form, FormId::BarSync);
  EXPECT_NE(err("__reduce_and_sync(0xffffffff, (float)x)").message.find("unsigned"),
            std::string::npos);
  EXPECT_EQ(err("__match_all_sync(0xffffffff, x)").column, 31u);
  EXPECT_EQ(err("__ballot_sync(0xffffffff, p, q)").column, 28u);
  EXPECT_EQ(err("__nope_sync(1, 2)").column, 1u);
}

TEST(ParseValue, IntegersFloatsAndWidths) {
  uint64_t v = 0;
  spec::ValueSyntax b32{32, false, false, false}, b64{64, false, false, false};
  spec::ValueSyntax f32{32, true, false, false}, f64{64, true, false, false};
  spec::ValueSyntax pred{32, false, true, false};
  EXPECT_EQ(spec::parse_value("-1", b32, v), "");
  EXPECT_EQ(v, 0xffffffffu);
  EXPECT_EQ(spec::parse_value("-2147483648", b32, v), "");
  EXPECT_EQ(v, 0x80000000u);
  EXPECT_NE(spec::parse_value("-2147483649", b32, v), "");
  EXPECT_NE(spec::parse_value("4294967296", b32, v), "");
  EXPECT_NE(spec::parse_value("0x100000000", b32, v), "");
  EXPECT_EQ(spec::parse_value("0x100000000", b64, v), "");
  EXPECT_NE(spec::parse_value("1.5", b32, v), "");
  EXPECT_EQ(spec::parse_value("-0.0", f32, v), "");
  EXPECT_EQ(v, 0x80000000u);
  EXPECT_EQ(spec::parse_value("1", f32, v), "");
  EXPECT_EQ(v, 0x3f800000u);
  EXPECT_EQ(spec::parse_value("0x7fc00001", f32, v), "");  // raw bits, a NaN payload
  EXPECT_EQ(v, 0x7fc00001u);
  EXPECT_EQ(spec::parse_value("-0.0", f64, v), "");
  EXPECT_EQ(v, 0x8000000000000000ull);
  EXPECT_EQ(spec::parse_value("inf", f32, v), "");
  EXPECT_EQ(v, 0x7f800000u);
  EXPECT_EQ(spec::parse_value("true", pred, v), "");
  EXPECT_EQ(v, 1u);
  EXPECT_NE(spec::parse_value("2", pred, v), "");
  EXPECT_NE(spec::parse_value("", b32, v), "");
}

}  // namespace
}  // namespace warpspec
