// The PTX reader on real `nvcc -arch=sm_90 -ptx` output (tests/data/programs/reader, the .cu
// beside each .ptx) and on small modules that each break one rule.
#include "programs/ptx_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace warpspec::programs {
namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(WARPSPEC_TEST_DATA "/programs/reader/" + name);
  EXPECT_TRUE(in) << "cannot open " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Program read_ok(const std::string& text, std::string_view entry = {}) {
  auto r = read_ptx(text, entry);
  if (const auto* e = std::get_if<ReadError>(&r)) {
    ADD_FAILURE() << "line " << e->loc.line << ", column " << e->loc.column << ": " << e->message;
    return {};
  }
  return std::get<Program>(std::move(r));
}

ReadError read_error(const std::string& text, std::string_view entry = {}) {
  auto r = read_ptx(text, entry);
  if (const auto* e = std::get_if<ReadError>(&r)) return *e;
  ADD_FAILURE() << "read without error";
  return {};
}

// The register a name means at the top of the body (the first declared with that name).
uint32_t reg(const Program& p, std::string_view name) {
  for (uint32_t i = 0; i < p.regs.size(); ++i)
    if (p.regs[i].name == name) return i;
  ADD_FAILURE() << "no register " << name;
  return ~0u;
}

// The index of the instruction written as `text` (blanks collapsed, no ';').
std::size_t index_of(const Program& p, std::string_view text) {
  for (std::size_t i = 0; i < p.code.size(); ++i)
    if (p.code[i].text == text) return i;
  ADD_FAILURE() << "no instruction '" << text << "'";
  return 0;
}

const Instruction& at(const Program& p, std::string_view text) {
  static const Instruction none;
  return p.code.empty() ? none : p.code[index_of(p, text)];
}

Operand reg_op(uint32_t r) {
  return {.kind = Operand::Kind::Reg, .reg = r};
}

void expect_operand(const Operand& got, const Operand& want) {
  EXPECT_EQ(got.kind, want.kind);
  EXPECT_EQ(got.reg, want.reg);
  EXPECT_EQ(got.imm, want.imm);
  EXPECT_EQ(got.special, want.special);
  EXPECT_EQ(got.symbol, want.symbol);
  EXPECT_EQ(got.negate, want.negate);
}

void expect_loc(const SourceLoc& loc, unsigned line, unsigned column) {
  EXPECT_EQ(loc.line, line);
  EXPECT_EQ(loc.column, column);
}

// ---------------------------------------------------------------- shfl_reduce.cu

TEST(PtxReader, ShuffleReductionModuleAndDeclarations) {
  const Program p = read_ok(read_data("shfl_reduce.ptx"));
  EXPECT_EQ(p.name, "_Z11shfl_reducePKjPjj");
  EXPECT_EQ(p.target, "sm_90");
  EXPECT_EQ(p.version, "9.0");
  expect_loc(p.loc, 16, 10);
  ASSERT_EQ(p.params.size(), 3u);
  EXPECT_EQ(p.params[0].name, "_Z11shfl_reducePKjPjj_param_0");
  EXPECT_EQ(p.params[0].type, Type::U64);
  EXPECT_EQ(p.params[1].offset, 8u);
  EXPECT_EQ(p.params[2].type, Type::U32);
  EXPECT_EQ(p.params[2].offset, 16u);
  // %p<16>, %r<57>, %rd<9>: every numbered register, %p0 first.
  ASSERT_EQ(p.regs.size(), 16u + 57u + 9u);
  EXPECT_EQ(p.regs[0].name, "%p0");
  EXPECT_EQ(p.regs[0].type, Type::Pred);
  EXPECT_EQ(p.regs[16].name, "%r0");
  EXPECT_EQ(p.regs[16].type, Type::B32);
  EXPECT_EQ(p.regs[81].name, "%rd8");
  EXPECT_EQ(p.regs[81].type, Type::B64);
  ASSERT_EQ(p.shared.size(), 1u);
  EXPECT_EQ(p.shared[0].name, "_ZZ11shfl_reducePKjPjjE7partial");
  EXPECT_EQ(p.shared[0].size, 128u);
  EXPECT_EQ(p.shared[0].align, 4u);
  EXPECT_EQ(p.shared[0].offset, 0u);
  EXPECT_EQ(p.shared_bytes, 128u);
  EXPECT_EQ(p.code.size(), 73u);
}

TEST(PtxReader, ShuffleReductionShflIsTheCatalogsFormWithRegisterIndices) {
  const Program p = read_ok(read_data("shfl_reduce.ptx"));
  const Instruction& in = at(p, "shfl.sync.down.b32 %r19|%p2, %r55, %r17, %r16, %r18");
  EXPECT_EQ(in.op, Op::Collective);
  expect_loc(in.loc, 49, 2);
  ASSERT_TRUE(in.collective);
  const Collective& c = *in.collective;
  EXPECT_EQ(c.parsed.instr.form, spec::FormId::ShflDown);
  EXPECT_TRUE(c.parsed.instr.write_p);
  EXPECT_EQ(c.d, reg(p, "%r19"));
  EXPECT_EQ(c.p, reg(p, "%p2"));
  EXPECT_EQ(c.a, reg(p, "%r55"));
  EXPECT_EQ(c.b, reg(p, "%r17"));
  EXPECT_EQ(c.c, reg(p, "%r16"));
  EXPECT_EQ(c.mask, reg(p, "%r18"));
  EXPECT_FALSE(c.bar);
  EXPECT_FALSE(c.count);
  const Instruction& bar = at(p, "bar.sync 0");
  ASSERT_TRUE(bar.collective);
  EXPECT_EQ(bar.collective->parsed.instr.form, spec::FormId::BarSync);
  EXPECT_EQ(bar.collective->parsed.instr.imm_bar, 0u);
  EXPECT_FALSE(bar.collective->parsed.instr.has_count);
}

TEST(PtxReader, ShuffleReductionBranchesTargetTheInstructionAfterTheirLabel) {
  const Program p = read_ok(read_data("shfl_reduce.ptx"));
  const Instruction& bra = at(p, "@%p1 bra $L__BB0_2");
  EXPECT_EQ(bra.op, Op::Bra);
  EXPECT_FALSE(bra.uniform);
  expect_loc(bra.loc, 37, 7);  // the opcode, after the guard
  ASSERT_TRUE(bra.guard);
  expect_operand(*bra.guard, reg_op(reg(p, "%p1")));
  EXPECT_EQ(bra.target, index_of(p, "mov.u32 %r15, 2"));  // first after $L__BB0_2:
  EXPECT_EQ(at(p, "@%p8 bra $L__BB0_9").target, index_of(p, "ret"));
  EXPECT_EQ(index_of(p, "ret"), 72u);
}

TEST(PtxReader, ShuffleReductionOperandsOfTheIntegerSubset) {
  const Program p = read_ok(read_data("shfl_reduce.ptx"));
  const Instruction& ld = p.code[0];
  EXPECT_EQ(ld.text, "ld.param.u64 %rd1, [_Z11shfl_reducePKjPjj_param_0]");
  EXPECT_EQ(ld.op, Op::Ld);
  EXPECT_EQ(ld.space, Space::Param);
  EXPECT_EQ(ld.type, Type::U64);
  expect_operand(ld.addr, {.kind = Operand::Kind::Param, .symbol = 0});
  expect_operand(ld.dst.at(0), reg_op(reg(p, "%rd1")));
  EXPECT_EQ(at(p, "ld.param.u32 %r14, [_Z11shfl_reducePKjPjj_param_2]").addr.symbol, 2u);

  expect_operand(at(p, "mov.u32 %r1, %ntid.x").src.at(0),
                 {.kind = Operand::Kind::Special, .special = Special::NtidX});
  expect_operand(at(p, "mov.u32 %r18, -1").src.at(0),
                 {.kind = Operand::Kind::Imm, .imm = 0xffffffffu});
  expect_operand(at(p, "mov.u32 %r32, _ZZ11shfl_reducePKjPjjE7partial").src.at(0),
                 {.kind = Operand::Kind::Shared, .symbol = 0});

  const Instruction& mad = at(p, "mad.lo.s32 %r4, %r2, %r1, %r3");
  EXPECT_EQ(mad.op, Op::Mad);
  EXPECT_EQ(mad.mul, MulMode::Lo);
  EXPECT_EQ(mad.type, Type::S32);
  ASSERT_EQ(mad.src.size(), 3u);
  expect_operand(mad.src[2], reg_op(reg(p, "%r3")));

  const Instruction& wide = at(p, "mul.wide.u32 %rd4, %r4, 4");
  EXPECT_EQ(wide.op, Op::Mul);
  EXPECT_EQ(wide.mul, MulMode::Wide);
  EXPECT_EQ(wide.type, Type::U32);
  expect_operand(wide.dst.at(0), reg_op(reg(p, "%rd4")));
  expect_operand(wide.src.at(1), {.kind = Operand::Kind::Imm, .imm = 4});

  const Instruction& setp = at(p, "setp.ge.u32 %p1, %r4, %r14");
  EXPECT_EQ(setp.op, Op::Setp);
  EXPECT_EQ(setp.cmp, Cmp::Ge);
  EXPECT_EQ(setp.src_type, Type::U32);

  const Instruction& cvta = at(p, "cvta.to.global.u64 %rd3, %rd1");
  EXPECT_EQ(cvta.op, Op::Cvta);
  EXPECT_EQ(cvta.space, Space::Global);
  EXPECT_FALSE(cvta.to_generic);

  const Instruction& st = at(p, "st.shared.u32 [%r33], %r7");
  EXPECT_EQ(st.op, Op::St);
  EXPECT_EQ(st.space, Space::Shared);
  expect_operand(st.addr, reg_op(reg(p, "%r33")));
  EXPECT_EQ(st.offset, 0);
  expect_operand(st.src.at(0), reg_op(reg(p, "%r7")));
  EXPECT_EQ(at(p, "ld.global.u32 %r55, [%rd5]").space, Space::Global);
  EXPECT_EQ(at(p, "shr.u32 %r8, %r3, 5").op, Op::Shr);
}

// ---------------------------------------------------------------- vote_sync.cu

TEST(PtxReader, VoteSyncBallotActivemaskAndSyncwarp) {
  const Program p = read_ok(read_data("vote_sync.ptx"));
  EXPECT_EQ(p.name, "_Z9vote_syncPKiPj");
  EXPECT_EQ(p.params.size(), 2u);
  EXPECT_EQ(p.regs.size(), 7u + 12u + 10u);
  EXPECT_EQ(p.shared_bytes, 0u);

  const Instruction& ballot = at(p, "vote.sync.ballot.b32 %r1, %p2, %r7");
  ASSERT_TRUE(ballot.collective);
  EXPECT_EQ(ballot.collective->parsed.instr.form, spec::FormId::VoteBallot);
  EXPECT_EQ(ballot.collective->d, reg(p, "%r1"));
  EXPECT_EQ(ballot.collective->a, reg(p, "%p2"));
  EXPECT_EQ(ballot.collective->mask, reg(p, "%r7"));

  const Instruction& active = at(p, "activemask.b32 %r11");
  ASSERT_TRUE(active.collective);
  EXPECT_EQ(active.collective->parsed.instr.form, spec::FormId::Activemask);
  EXPECT_EQ(active.collective->d, reg(p, "%r11"));
  expect_loc(active.loc, 45, 2);

  const Instruction& sync_reg = at(p, "bar.warp.sync %r11");
  ASSERT_TRUE(sync_reg.collective);
  EXPECT_EQ(sync_reg.collective->mask, reg(p, "%r11"));
  EXPECT_FALSE(sync_reg.collective->parsed.instr.imm_mask);

  // nvcc writes the full mask as -1, which the catalog's parser reads as 0xffffffff.
  const Instruction& sync_all = at(p, "bar.warp.sync -1");
  ASSERT_TRUE(sync_all.collective);
  EXPECT_EQ(sync_all.collective->parsed.instr.form, spec::FormId::BarWarpSync);
  EXPECT_EQ(sync_all.collective->parsed.instr.imm_mask, 0xffffffffu);
  EXPECT_FALSE(sync_all.collective->mask);
  EXPECT_EQ(at(p, "@%p6 bra $L__BB0_2").target, index_of(p, "bar.warp.sync -1"));
}

TEST(PtxReader, VoteSyncPredicateLogicAndConversions) {
  const Program p = read_ok(read_data("vote_sync.ptx"));
  const Instruction& mov = at(p, "mov.pred %p4, 0");
  EXPECT_EQ(mov.type, Type::Pred);
  expect_operand(mov.src.at(0), {.kind = Operand::Kind::Imm, .imm = 0});
  const Instruction& x = at(p, "xor.pred %p5, %p3, %p4");
  EXPECT_EQ(x.op, Op::Xor);
  EXPECT_EQ(x.type, Type::Pred);
  const Instruction& n = at(p, "not.pred %p6, %p5");
  EXPECT_EQ(n.op, Op::Not);
  ASSERT_EQ(n.src.size(), 1u);
  const Instruction& setp = at(p, "setp.eq.b32 %p3, %r8, 1");
  EXPECT_EQ(setp.cmp, Cmp::Eq);
  EXPECT_EQ(setp.src_type, Type::B32);
  EXPECT_EQ(setp.type, Type::Pred);
  expect_operand(setp.dst.at(0), reg_op(reg(p, "%p3")));
  expect_operand(setp.src.at(1), {.kind = Operand::Kind::Imm, .imm = 1});
  const Instruction& cvt = at(p, "cvt.u64.u32 %rd1, %r5");
  EXPECT_EQ(cvt.op, Op::Cvt);
  EXPECT_EQ(cvt.type, Type::U64);
  EXPECT_EQ(cvt.src_type, Type::U32);
  expect_operand(at(p, "shl.b64 %rd8, %rd1, 2").src.at(1), {.kind = Operand::Kind::Imm, .imm = 2});
}

// ---------------------------------------------------------------- match_redux.cu

TEST(PtxReader, MatchReduxAndSyncthreadsCount) {
  const Program p = read_ok(read_data("match_redux.ptx"));
  EXPECT_EQ(p.params.size(), 4u);
  EXPECT_EQ(p.params[3].offset, 24u);
  const Instruction& match = at(p, "match.any.sync.b32 %r8, %r6, %r7");
  ASSERT_TRUE(match.collective);
  EXPECT_EQ(match.collective->parsed.instr.form, spec::FormId::MatchAnyB32);
  EXPECT_EQ(match.collective->d, reg(p, "%r8"));
  EXPECT_EQ(match.collective->a, reg(p, "%r6"));
  EXPECT_EQ(match.collective->mask, reg(p, "%r7"));
  const Instruction& redux = at(p, "redux.sync.add.s32 %r9, %r6, %r8");
  ASSERT_TRUE(redux.collective);
  EXPECT_EQ(redux.collective->parsed.instr.form, spec::FormId::ReduxAddS32);
  EXPECT_EQ(redux.collective->mask, reg(p, "%r8"));
  const Instruction& selp = at(p, "selp.u32 %r10, 1, 0, %p1");
  EXPECT_EQ(selp.op, Op::Selp);
  ASSERT_EQ(selp.src.size(), 3u);
  expect_operand(selp.src[0], {.kind = Operand::Kind::Imm, .imm = 1});
  expect_operand(selp.src[1], {.kind = Operand::Kind::Imm, .imm = 0});
  expect_operand(selp.src[2], reg_op(reg(p, "%p1")));
}

// nvcc wraps bar.red in `{ .reg .pred %p1; ... }`: the inner %p1 is a register of its own.
TEST(PtxReader, NestedBlockShadowsARegister) {
  const Program p = read_ok(read_data("match_redux.ptx"));
  ASSERT_EQ(p.regs.size(), 3u + 11u + 15u + 1u);
  EXPECT_EQ(p.regs[29].name, "%p1");
  EXPECT_EQ(p.regs[29].type, Type::Pred);
  expect_operand(at(p, "setp.gt.s32 %p1, %r6, 0").dst.at(0), reg_op(1));
  const Instruction& inner = at(p, "setp.ne.u32 %p1, %r10, 0");
  expect_operand(inner.dst.at(0), reg_op(29));
  const Instruction& count = at(p, "bar.red.popc.u32 %r2, 0, %p1");
  ASSERT_TRUE(count.collective);
  EXPECT_EQ(count.collective->parsed.instr.form, spec::FormId::BarRedPopc);
  EXPECT_EQ(count.collective->parsed.instr.imm_bar, 0u);
  EXPECT_EQ(count.collective->d, reg(p, "%r2"));
  EXPECT_EQ(count.collective->a, 29u);
}

// ---------------------------------------------------------------- named_barrier.cu

TEST(PtxReader, NamedBarriersAndElect) {
  const Program p = read_ok(read_data("named_barrier.ptx"));
  EXPECT_EQ(p.shared_bytes, 256u);
  const Instruction& arrive = at(p, "bar.arrive 1, 128");
  ASSERT_TRUE(arrive.collective);
  EXPECT_EQ(arrive.collective->parsed.instr.form, spec::FormId::BarArrive);
  EXPECT_EQ(arrive.collective->parsed.instr.imm_bar, 1u);
  EXPECT_EQ(arrive.collective->parsed.instr.imm_count, 128u);
  expect_loc(arrive.loc, 41, 2);
  const Instruction& sync = at(p, "bar.sync 1, 128");
  ASSERT_TRUE(sync.collective);
  EXPECT_EQ(sync.collective->parsed.instr.form, spec::FormId::BarSync);
  EXPECT_TRUE(sync.collective->parsed.instr.has_count);

  // cooperative groups' invoke_one: `{ .reg .pred p; elect.sync %r7|p, %r9; @p mov.s32 %r8, 1; }`
  ASSERT_EQ(p.regs.size(), 4u + 13u + 9u + 1u);
  EXPECT_EQ(p.regs[26].name, "p");
  const Instruction& elect = at(p, "elect.sync %r7|p, %r9");
  ASSERT_TRUE(elect.collective);
  EXPECT_EQ(elect.collective->parsed.instr.form, spec::FormId::ElectSync);
  EXPECT_EQ(elect.collective->d, reg(p, "%r7"));
  EXPECT_EQ(elect.collective->p, 26u);
  EXPECT_EQ(elect.collective->mask, reg(p, "%r9"));
  expect_loc(elect.loc, 65, 4);
  const Instruction& guarded = at(p, "@p mov.s32 %r8, 1");
  ASSERT_TRUE(guarded.guard);
  expect_operand(*guarded.guard, reg_op(26));
}

TEST(PtxReader, NamedBarrierAddressesAndUniformBranches) {
  const Program p = read_ok(read_data("named_barrier.ptx"));
  const Instruction& ld = at(p, "ld.shared.u32 %r5, [%r2+-256]");
  EXPECT_EQ(ld.space, Space::Shared);
  expect_operand(ld.addr, reg_op(reg(p, "%r2")));
  EXPECT_EQ(ld.offset, -256);
  const Instruction& uni = at(p, "bra.uni $L__BB0_1");
  EXPECT_TRUE(uni.uniform);
  EXPECT_EQ(uni.target, index_of(p, "setp.gt.u32 %p2, %r1, 127"));
  EXPECT_EQ(at(p, "@%p1 bra $L__BB0_3").target, index_of(p, "mul.lo.s32 %r6, %r1, 3"));
}

// ---------------------------------------------------------------- choosing an entry

TEST(PtxReader, TwoEntriesNeedAName) {
  const std::string text = read_data("two_entries.ptx");
  const ReadError e = read_error(text);
  expect_loc(e.loc, 36, 10);  // the second .entry
  EXPECT_NE(e.message.find("2 entries (_Z5firstPj, _Z6secondPji)"), std::string::npos) << e.message;

  const Program second = read_ok(text, "_Z6secondPji");
  EXPECT_EQ(second.name, "_Z6secondPji");
  ASSERT_EQ(second.params.size(), 2u);
  EXPECT_EQ(second.params[1].type, Type::U32);
  EXPECT_EQ(second.params[1].offset, 8u);
  EXPECT_EQ(second.regs.size(), 3u + 6u + 5u);
  EXPECT_EQ(at(second, "vote.sync.ballot.b32 %r5, %p1, %r4").collective->a, reg(second, "%p1"));

  const Program first = read_ok(text, "_Z5firstPj");
  EXPECT_EQ(first.params.size(), 1u);
  EXPECT_EQ(first.code.size(), 8u);
}

TEST(PtxReader, AnEntryDefinedTwiceIsRefused) {
  // The second kernel renamed to the first's name: which body a name means would be a guess.
  std::string text = read_data("two_entries.ptx");
  const auto at = text.find(".entry _Z6secondPji");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + 7, 12, "_Z5firstPj");
  for (const std::string_view entry : {"", "_Z5firstPj"}) {
    const ReadError e = read_error(text, entry);
    expect_loc(e.loc, 36, 17);  // the second name
    EXPECT_EQ(e.message, "a second .entry named '_Z5firstPj' (the first is at line 15)");
  }
}

TEST(PtxReader, AnEntryThatIsNotThereIsNamed) {
  const ReadError e = read_error(read_data("two_entries.ptx"), "third");
  expect_loc(e.loc, 1, 1);
  EXPECT_NE(e.message.find("no .entry named 'third'; the module has _Z5firstPj, _Z6secondPji"),
            std::string::npos)
      << e.message;
}

// ---------------------------------------------------------------- rejected nvcc output

TEST(PtxReader, AtomicIsRejectedWhereItIs) {
  const ReadError e = read_error(read_data("atomic.ptx"));
  expect_loc(e.loc, 28, 2);
  EXPECT_EQ(e.message, "unsupported instruction 'atom.global.add.u32'");
}

TEST(PtxReader, FunctionCallsAreRejected) {
  // nvcc opens the call sequence with `.param .b32 param0;` before `call.uni`.
  const ReadError e = read_error(read_data("call.ptx"));
  expect_loc(e.loc, 41, 2);
  EXPECT_NE(e.message.find("function calls are not supported"), std::string::npos) << e.message;
}

// ---------------------------------------------------------------- small modules

// A kernel whose body lines start at line 11; `.reg` gives %p0-1, %r0-2, %rd0-1.
std::string module(const std::string& body) {
  return ".version 8.0\n"
         ".target sm_90a\n"
         ".address_size 64 /* a comment\n"
         "   over two lines */\n"
         ".visible .entry k(.param .u32 k_p0, .param .u64 k_p1)\n"
         "{\n"
         "  .reg .pred %p<2>;\n"
         "  .reg .b32 %r<3>;\n"
         "  .reg .b64 %rd<2>;\n"
         "  .shared .align 8 .u32 s[3];  // 12 bytes at 0\n" +
         body + "}\n";
}

TEST(PtxReader, SmallModuleDeclarationsAndLabelAtTheEnd) {
  const Program p =
      read_ok(module("  .shared .u16 h; .shared .align 8 .b64 w;\n"
                     "  .reg .u32 %x, %y;\n"
                     "  mov.u32 %x, s;\n"
                     "  ld.shared.u16 %r1, [h+2];\n"
                     "  @!%p1 bra.uni $L__end;\n"
                     "  cvta.shared.u64 %rd1, w;\n"
                     "  st.u32 [%rd1+-4], -2;\n"
                     "  .pragma \"nounroll\";\n"
                     "  ld.param.u32 %r1, [k_p1+4];\n"
                     "  cvta.to.shared.u64 %rd1, %rd0;\n"
                     "  mov.u32 %r0, %laneid;\n"
                     "$L__end:\n"));
  EXPECT_EQ(p.target, "sm_90a");
  EXPECT_EQ(p.version, "8.0");
  expect_loc(p.loc, 5, 10);
  ASSERT_EQ(p.params.size(), 2u);
  EXPECT_EQ(p.params[1].offset, 8u);  // a .u64 after a .u32 is aligned to 8
  ASSERT_EQ(p.shared.size(), 3u);
  EXPECT_EQ(p.shared[1].offset, 12u);
  EXPECT_EQ(p.shared[1].size, 2u);
  EXPECT_EQ(p.shared[2].offset, 16u);
  EXPECT_EQ(p.shared_bytes, 24u);
  ASSERT_EQ(p.regs.size(), 9u);
  EXPECT_EQ(p.regs[8].name, "%y");
  EXPECT_EQ(p.regs[8].type, Type::U32);
  ASSERT_EQ(p.code.size(), 8u);
  expect_operand(p.code[0].src.at(0), {.kind = Operand::Kind::Shared, .symbol = 0});
  expect_operand(p.code[1].addr, {.kind = Operand::Kind::Shared, .symbol = 1});
  EXPECT_EQ(p.code[1].offset, 2);
  const Instruction& bra = p.code[2];
  expect_operand(*bra.guard, {.kind = Operand::Kind::Reg, .reg = 1, .negate = true});
  EXPECT_TRUE(bra.uniform);
  EXPECT_EQ(bra.target, 8u);  // the label after the last instruction
  EXPECT_TRUE(p.code[3].to_generic);
  EXPECT_EQ(p.code[3].space, Space::Shared);
  expect_operand(p.code[3].src.at(0), {.kind = Operand::Kind::Shared, .symbol = 2});
  EXPECT_EQ(p.code[4].space, Space::Generic);
  EXPECT_EQ(p.code[4].offset, -4);
  expect_operand(p.code[4].src.at(0), {.kind = Operand::Kind::Imm, .imm = 0xfffffffeu});
  expect_loc(p.code[4].loc, 17, 3);
  expect_operand(p.code[5].addr, {.kind = Operand::Kind::Param, .symbol = 1});
  EXPECT_EQ(p.code[5].offset, 4);
  EXPECT_EQ(p.code[6].space, Space::Shared);
  EXPECT_FALSE(p.code[6].to_generic);
  expect_operand(p.code[7].src.at(0), {.kind = Operand::Kind::Special, .special = Special::LaneId});
  expect_loc(p.code[7].loc, 21, 3);
}

TEST(PtxReader, SetpWithTwoDestinationsAndImmediates) {
  const Program p =
      read_ok(module("  setp.lo.u32 %p0|%p1, %r0, 0xff;\n  exit;\n  mov.pred %p1, -1;\n"));
  ASSERT_EQ(p.code.size(), 3u);
  // nvcc writes a true predicate as -1.
  expect_operand(p.code[2].src.at(0), {.kind = Operand::Kind::Imm, .imm = 1});
  EXPECT_EQ(p.code[0].cmp, Cmp::Lo);
  ASSERT_EQ(p.code[0].dst.size(), 2u);
  expect_operand(p.code[0].dst[1], reg_op(1));
  expect_operand(p.code[0].src[1], {.kind = Operand::Kind::Imm, .imm = 0xff});
  EXPECT_EQ(p.code[1].op, Op::Exit);
}

struct BadLine {
  std::string body;
  unsigned line, column;
  std::string message;
};

void expect_rejected(const BadLine& b) {
  const ReadError e = read_error(module(b.body));
  EXPECT_EQ(e.loc.line, b.line) << b.body << e.message;
  EXPECT_EQ(e.loc.column, b.column) << b.body << e.message;
  EXPECT_NE(e.message.find(b.message), std::string::npos) << b.body << "\n" << e.message;
}

TEST(PtxReader, UndeclaredRegisterIsNamedAtItsColumn) {
  expect_rejected(
      {"  mov.u32 %r1, 0;\n  add.s32 %r1, %r1, %r9;\n", 12, 21, "undeclared register '%r9'"});
  expect_rejected({"  @%p7 ret;\n", 11, 4, "undeclared register '%p7'"});
  expect_rejected({"  vote.sync.ballot.b32 %r1, %p5, -1;\n", 11, 29, "undeclared register '%p5'"});
}

TEST(PtxReader, UnknownLabelIsNamedAtTheBranch) {
  expect_rejected({"  ret;\n  @%p0 bra $L__nowhere;\n", 12, 12, "unknown label '$L__nowhere'"});
}

TEST(PtxReader, CallIsRejected) {
  expect_rejected({"  call.uni foo;\n", 11, 3, "function calls are not supported"});
}

TEST(PtxReader, FuncElsewhereInTheModuleIsSkipped) {
  const std::string text =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".func (.param .b32 r) f(.param .b32 a) { .reg .b32 %r<2>; ret; }\n"
      ".entry k() { ret; }\n";
  const Program p = read_ok(text);
  EXPECT_EQ(p.name, "k");
  expect_loc(p.loc, 5, 1);
  EXPECT_EQ(p.code.size(), 1u);
}

TEST(PtxReader, MalformedLinesSayWhatWasExpected) {
  expect_rejected({"  add.s32 %r1 %r2, %r0;\n", 11, 15, "expected ',' or ';' after an operand"});
  expect_rejected({"  add.s32 %r1, %r2;\n", 11, 3, "add.s32 takes 3 operands, found 2"});
  expect_rejected({"  mov.u32 %r1, %r2, %r0;\n", 11, 21, "mov.u32 takes 2 operands, found 3"});
  expect_rejected({"  mov.u32 %r1, 1\n  ret;\n", 12, 3, "expected ',' or ';'"});
  expect_rejected({"  mov.u32 %r1, # 1;\n", 11, 16, "unexpected character '#'"});
  expect_rejected({"  ld.global.u32 %r1, %rd1;\n", 11, 22, "expected an address '[...]'"});
}

TEST(PtxReader, RegistersMustFitTheirOperands) {
  expect_rejected({"  add.s32 %rd1, %r1, %r2;\n", 11, 11,
                   "expected a 32-bit register, found '%rd1' of type .b64"});
  expect_rejected({"  ld.global.u32 %r1, [%r0];\n", 11, 23, "expected a 64-bit address register"});
  expect_rejected({"  selp.b32 %r1, %r1, %r2, %r0;\n", 11, 27, "expected a .pred register"});
  expect_rejected({"  mov.u32 %r1, 4294967296;\n", 11, 16, "does not fit in 32 bits"});
  expect_rejected(
      {"  shfl.sync.down.b32 %rd1|%p0, %r0, 1, 31, -1;\n", 11, 22, "expected a 32-bit register"});
}

TEST(PtxReader, OutsideTheSubsetIsNamed) {
  expect_rejected(
      {"  ld.global.v2.u32 {%r1, %r2}, [%rd1];\n", 11, 3,
       "unsupported instruction 'ld.global.v2.u32': vector operands (.v2, .v4) are not supported"});
  expect_rejected(
      {"  ld.relaxed.gpu.global.u32 %r1, [%rd1];\n", 11, 3, "'.relaxed' is not supported"});
  const Program p =
      read_ok(module("  ld.global.nc.u32 %r1, [%rd1];\n  ld.volatile.shared.u32 %r2, [%r1];\n"));
  ASSERT_EQ(p.code.size(), 2u);
  EXPECT_EQ(p.code[0].space, Space::Global);
  EXPECT_EQ(p.code[1].space, Space::Shared);
  expect_rejected({"  add.f32 %r1, %r1, %r2;\n", 11, 3, "floating-point types are not supported"});
  expect_rejected({"  add.sat.s32 %r1, %r1, %r2;\n", 11, 3, "'.sat' is not supported"});
  expect_rejected({"  add.cc.u32 %r1, %r1, %r2;\n", 11, 3, "'.cc' is not supported"});
  expect_rejected({"  cvt.rzi.s32.s32 %r1, %r2;\n", 11, 3, "rounding and saturation"});
  expect_rejected({"  setp.ne.and.s32 %p0, %r1, %r2, %p1;\n", 11, 3, "third predicate"});
  expect_rejected({"  mov.b32 %r1, 0f3F800000;\n", 11, 16, "floating-point immediate"});
  expect_rejected({"  membar.gl;\n", 11, 3, "unsupported instruction 'membar.gl'"});
  expect_rejected(
      {"  .local .align 4 .b8 buf[16];\n", 11, 3, ".local declarations are not supported"});
  expect_rejected({"  mov.u32 %r1, %clock;\n", 11, 16, "undeclared register '%clock'"});
  expect_rejected({"  add.u32 %r1, %tid.x, 1;\n", 11, 16, "only read by mov"});
}

TEST(PtxReader, ModuleVariablesAreRejected) {
  const ReadError e = read_error(
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".global .align 4 .u32 counter;\n.entry k() { ret; }\n");
  expect_loc(e.loc, 4, 1);
  EXPECT_NE(e.message.find("module variables (.global) are not supported"), std::string::npos)
      << e.message;
}

// The catalog's parser reads the text after the guard; its columns are mapped back to the
// line, past the -1 rewritten for it.
TEST(PtxReader, CollectiveParseErrorsKeepTheirColumns) {
  expect_rejected(
      {"  @%p0 vote.sync.bogus.pred %p1, %p0, -1;\n", 11, 17, "unknown qualifier '.bogus'"});
  expect_rejected({"  vote.sync.ballot.b32 %r1, %p0, -1, %r2;\n", 11, 36,
                   "unexpected ',' after the instruction"});
  expect_rejected({"  shfl.down.b32 %r1, %r0, 1, 31;\n", 11, 7, "unknown qualifier '.down'"});
}

}  // namespace
}  // namespace warpspec::programs

namespace warpspec::programs {
namespace {

TEST(PtxReader, LineInformationGivesEachInstructionItsCudaLine) {
  // `nvcc -lineinfo` output: a `.loc` before the instructions of each CUDA line; an intrinsic's
  // body is inlined from a header, and its call site (inlined_at) is the line a user wrote.
  const auto p = read_ok(R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<3>;
	.loc	1 6 0
  mov.u32 %r1, %tid.x;
	.loc	2 110 3, function_name $L__info_string0, inlined_at 1 11 5
  bar.warp.sync -1;
  ret;
}
	.file	1 "/home/user/src/kernel.cu"
	.file	2 "/usr/local/cuda/include/sm_30_intrinsics.hpp", 1700000000, 12345
)");
  ASSERT_EQ(p.code.size(), 3u);
  EXPECT_EQ(p.code[0].source.file, 1u);
  EXPECT_EQ(p.code[0].source.line, 6u);
  EXPECT_EQ(p.code[1].source.file, 1u);
  EXPECT_EQ(p.code[1].source.line, 11u);
  EXPECT_EQ(p.files.at(1), "/home/user/src/kernel.cu");
  EXPECT_EQ(p.files.at(2), "/usr/local/cuda/include/sm_30_intrinsics.hpp");
  // Without line information, instructions have none.
  const auto plain = read_ok(".version 9.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k()\n{\n  ret;\n}\n");
  EXPECT_EQ(plain.code[0].source.file, 0u);
  EXPECT_TRUE(plain.files.empty());
  // A .loc without a line is malformed.
  EXPECT_NE(read_error(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                       "\t.loc\t1\n  ret;\n}\n")
                .message.find(".loc needs a file and a line"),
            std::string::npos);
}

}  // namespace
}  // namespace warpspec::programs
