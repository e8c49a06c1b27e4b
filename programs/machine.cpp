#include "programs/machine.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>

#include "model/eval.hpp"
#include "model/render.hpp"
#include "programs/alu.hpp"
#include "programs/machine_detail.hpp"
#include "spec/cta.hpp"
#include "spec/target.hpp"

namespace warpspec::programs {

// ---------------------------------------------------------------- the block pool

#if defined(__SANITIZE_ADDRESS__)
#define WARPSPEC_POOL_BLOCKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPSPEC_POOL_BLOCKS 0
#endif
#endif
#ifndef WARPSPEC_POOL_BLOCKS
#define WARPSPEC_POOL_BLOCKS 1
#endif

namespace {

// Set when this thread's pool is gone (a block freed later goes to the general allocator).
thread_local bool pool_gone = false;

// A few sizes of blocks, each with its free blocks as a list threaded through them. A size not
// among them takes the place of the one used longest ago, whose blocks go back to the general
// allocator: a process that walks kernel after kernel keeps blocks of the sizes in use only.
class BlockPool {
 public:
  BlockPool() = default;
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  ~BlockPool() {
    pool_gone = true;
    for (auto& c : classes_) empty(c);
  }
  void* allocate(std::size_t bytes) {
    if (Class* c = find(bytes); c && c->free) {
      Free* block = c->free;
      c->free = block->next;
      return block;
    }
    return ::operator new(std::max(bytes, sizeof(Free)));
  }
  void release(void* block, std::size_t bytes) noexcept {
    if (Class* c = find(bytes)) {
      auto* f = static_cast<Free*>(block);
      f->next = c->free;
      c->free = f;
      return;
    }
    ::operator delete(block);
  }

 private:
  struct Free {
    Free* next;
  };
  struct Class {
    std::size_t bytes = 0;
    Free* free = nullptr;
    uint64_t used = 0;  // the tick of its last use
  };
  static void empty(Class& c) {
    while (c.free) {
      Free* next = c.free->next;
      ::operator delete(c.free);
      c.free = next;
    }
  }
  Class* find(std::size_t bytes) {
    ++tick_;
    Class* oldest = &classes_[0];
    for (auto& c : classes_) {
      if (c.bytes == bytes) {
        c.used = tick_;
        return &c;
      }
      if (c.used < oldest->used) oldest = &c;
    }
    empty(*oldest);
    *oldest = Class{bytes, nullptr, tick_};
    return oldest;
  }
  std::array<Class, 16> classes_{};
  uint64_t tick_ = 0;
};

BlockPool& block_pool() {
  thread_local BlockPool pool;
  return pool;
}

}  // namespace

void* detail::pool_allocate(std::size_t bytes) {
  if (!WARPSPEC_POOL_BLOCKS || pool_gone) return ::operator new(bytes);
  return block_pool().allocate(bytes);
}

void detail::pool_free(void* block, std::size_t bytes) noexcept {
  if (!WARPSPEC_POOL_BLOCKS || pool_gone) {
    ::operator delete(block);
    return;
  }
  block_pool().release(block, bytes);
}

using namespace detail;
namespace {

// Instructions a thread runs before the others get a turn: a thread that spins on memory another
// thread will write lets that thread run. And instructions one settling of the block may take
// before its path is given up (a spin nothing ends, an endless loop).
constexpr unsigned kSlice = 1u << 12;
constexpr uint64_t kRunLimit = uint64_t{1} << 24;

uint64_t width_mask(unsigned bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}
int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t sign = uint64_t{1} << (bits - 1);
  v &= width_mask(bits);
  return static_cast<int64_t>((v ^ sign) - sign);
}

// ---------------------------------------------------------------- one thread's instructions

struct Exec {
  const Program& p;
  const Launch& l;
  Machine& m;
  unsigned t;
  Thread& th;

  void stop(ProgramClause c, const std::string& what) {
    const auto& in = p.code[th.pc];
    m.stop = finding(std::string(clause_key(c)),
                     "thread " + std::to_string(t) + " at " + where(p, th.pc) + ": " + what, {t},
                     {in.loc});
  }

  Val special(Special s) const {
    switch (s) {
      case Special::TidX:
        return {t};
      case Special::NtidX:
        return {l.threads};
      case Special::NtidY:
      case Special::NtidZ:
      case Special::NctaidX:
      case Special::NctaidY:
      case Special::NctaidZ:
        return {1};
      case Special::LaneId:
        return {t % kWarp};
      case Special::WarpId:
        return {t / kWarp};
      case Special::NwarpId:
        return {(l.threads + kWarp - 1) / kWarp};
      default:
        return {0};
    }
  }

  [[gnu::always_inline]] Val read(const Operand& o, unsigned bits) const {
    Val v;
    switch (o.kind) {
      case Operand::Kind::Reg:
        v = {th.regs[o.reg], th.undef[o.reg] != 0, th.terms.empty() ? 0 : th.terms[o.reg]};
        if (o.negate) {
          v.v = v.v == 0;
          if (v.term) v.term = l.terms->is_zero(v.term);
        }
        break;
      case Operand::Kind::Imm:
        v = {o.imm};
        break;
      case Operand::Kind::Special:
        v = special(o.special);
        break;
      case Operand::Kind::Shared:
        v = {p.shared[o.symbol].offset};
        break;
      default:
        break;
    }
    v.v &= width_mask(bits);
    if (v.term && bits < 64) v.term = l.terms->cut(v.term, bits);
    return v;
  }

  [[gnu::always_inline]] void write(const Operand& o, Val v, unsigned bits) {
    if (o.kind != Operand::Kind::Reg) return;
    th.regs[o.reg] = v.v & width_mask(bits);
    th.undef[o.reg] = v.undef;
    if (!th.terms.empty())
      th.terms[o.reg] = v.term && bits < 64 ? l.terms->cut(v.term, bits) : v.term;
  }

  // The walk relies on `v` having the value it has (terms.hpp).
  void pin(const Val& v) const {
    if (v.term) l.terms->pin(v.term, v.v);
  }

  // The buffer and byte offset an address names; nullopt (and the path stopped) outside them.
  std::optional<std::pair<std::size_t, std::size_t>> locate(Space space, uint64_t addr,
                                                            unsigned bytes) {
    std::size_t buf = 0;
    uint64_t off = addr;
    if (space == Space::Global || space == Space::Generic) {
      const uint64_t tag = addr >> kTagShift;
      off = addr & kOffsetMask;
      if (tag == kSharedTag && space == Space::Generic)
        buf = 0;
      else if (tag >= 1 && tag < m.buffers.size() && tag != kSharedTag)
        buf = tag;
      else
        buf = SIZE_MAX;
    }
    if (buf == SIZE_MAX || off + bytes > m.buffers[buf]->bytes.size()) {
      stop(ProgramClause::BadAddress, "an access of " + std::to_string(bytes) +
                                          " bytes at address " + model::format_hex(addr, 64) +
                                          " is outside every buffer");
      return std::nullopt;
    }
    // Addresses must be aligned to the access's size.
    if (off % bytes != 0) {
      stop(ProgramClause::BadAddress, "an access of " + std::to_string(bytes) +
                                          " bytes at address " + model::format_hex(addr, 64) +
                                          " is not aligned to its size");
      return std::nullopt;
    }
    return std::pair{buf, static_cast<std::size_t>(off)};
  }

  // An access at `base` (a term) went outside every buffer or was misaligned: what the walk
  // relied on is only that, not the address itself. Per buffer the bases where an access of
  // `bytes` fits, as a range of generic (or shared) addresses.
  void pin_bad_address(const Instruction& in, const Val& base, unsigned bytes) {
    std::vector<std::pair<uint64_t, uint64_t>> fits;
    auto add = [&](uint64_t start, std::size_t size) {
      if (size >= bytes) fits.push_back({start - in.offset, start - in.offset + size - bytes + 1});
    };
    if (in.space == Space::Shared) {
      add(0, m.buffers[0]->bytes.size());
    } else {
      if (in.space == Space::Generic) add(kSharedTag << kTagShift, m.buffers[0]->bytes.size());
      for (uint64_t k = 1; k < m.buffers.size(); ++k)
        add(k << kTagShift, m.buffers[k]->bytes.size());
    }
    for (const auto& [lo, hi] : fits)
      if (base.v - lo < hi - lo) {
        // Inside a buffer, so misaligned.
        l.terms->pin_range(base.term, lo, hi, true);
        l.terms->pin_aligned(base.term, static_cast<uint64_t>(in.offset), bytes, false);
        return;
      }
    for (const auto& [lo, hi] : fits) l.terms->pin_range(base.term, lo, hi, false);
  }

  // Byte `addr` of the parameter space, where a parameter lies.
  // Its term goes to `term`.
  std::optional<uint8_t> param_byte(uint64_t addr, uint32_t* term) const {
    for (std::size_t k = 0; k < p.params.size(); ++k) {
      const uint64_t at = p.params[k].offset, size = bits(p.params[k].type) / 8;
      if (addr >= at && addr < at + size) {
        if (!m.param_terms.empty() && m.param_terms[k])
          *term = l.terms->byte(m.param_terms[k], static_cast<unsigned>(addr - at));
        return static_cast<uint8_t>(m.params[k] >> (8 * (addr - at)));
      }
    }
    return std::nullopt;
  }

  // Race check and log for one byte access.
  bool log_access(Buffer& b, std::size_t off, bool is_write) {
    auto& log = b.log[off / LogPage::kBytes].mut().at[off % LogPage::kBytes];
    const bool strong = p.code[th.pc].strong;
    // Two volatile accesses are not a race, but their order is one the walk does not vary.
    auto ordered = [&](const Epoch& e) {
      if (e.thread == t || e.clock <= (*th.clock)[e.thread]) return true;
      if (strong && e.strong) {
        m.strong_order = true;
        return true;
      }
      return false;
    };
    std::optional<Epoch> other;
    if (log.write && !ordered(*log.write)) other = log.write;
    if (is_write && !other)
      for (const auto& r : log.reads)
        if (!ordered(r)) other = r;
    if (other) {
      const auto& in = p.code[th.pc];
      m.stop = finding(std::string(clause_key(ProgramClause::DataRace)),
                       std::string(is_write ? "a write" : "a read") + " by thread " +
                           std::to_string(t) + " at " + where(p, th.pc) + " conflicts with " +
                           (log.write && *log.write == *other ? "a write" : "a read") +
                           " by thread " + std::to_string(other->thread) + " at " +
                           where(p, other->pc) + ", with no barrier between them",
                       {other->thread, t}, {in.loc, p.code[other->pc].loc});
      return false;
    }
    const Epoch now{t, (*th.clock)[t], th.pc, strong};
    if (is_write) {
      log.write = now;
      log.reads.clear();
    } else if (std::find(log.reads.begin(), log.reads.end(), now) == log.reads.end()) {
      std::erase_if(log.reads, [&](const Epoch& e) { return e.thread == t; });
      log.reads.push_back(now);
    }
    return true;
  }

  bool load_store(const Instruction& in) {
    const unsigned bytes = bits(in.type) / 8;
    Val base;
    if (in.addr.kind == Operand::Kind::Param) {
      // The parameter space: read-only, laid out by Program::params.
      const uint64_t addr = p.params[in.addr.symbol].offset + static_cast<uint64_t>(in.offset);
      Val v;
      std::array<uint32_t, 8> terms{};
      std::array<uint8_t, 8> values{};
      for (unsigned k = 0; k < bytes; ++k) {
        const auto b = param_byte(addr + k, &terms[k]);
        if (!b || addr % bytes != 0) {
          stop(ProgramClause::BadAddress,
               "ld.param of " + std::to_string(bytes) + " bytes at offset " + std::to_string(addr) +
                   (b ? " is misaligned" : " is outside the parameters"));
          return false;
        }
        v.v |= uint64_t{*b} << (8 * k);
        values[k] = *b;
      }
      if (is_signed(in.type)) v.v = static_cast<uint64_t>(sext(v.v, 8 * bytes));
      if (std::any_of(terms.begin(), terms.end(), [](uint32_t x) { return x != 0; }))
        v.term = l.terms->join(terms.data(), values.data(), bytes, is_signed(in.type));
      write(in.dst[0], v, bits(p.regs[in.dst[0].reg].type));
      th.pc++;
      return true;
    }
    base = read(in.addr, 64);
    if (base.undef) {
      stop(ProgramClause::UndefinedControl, "an address is an undefined value");
      return false;
    }
    const uint64_t addr = base.v + static_cast<uint64_t>(in.offset);
    const auto at = locate(in.space, addr, bytes);
    if (!at) {
      if (base.term) pin_bad_address(in, base, bytes);
      return false;
    }
    pin(base);
    auto& b = m.buffers[at->first].mut();
    const bool is_store = in.op == Op::St;
    for (unsigned k = 0; k < bytes; ++k)
      if (!log_access(b, at->second + k, is_store)) return false;
    if (is_store) {
      const Val v = read(in.src[0], bits(in.type));
      if (v.term && b.terms.empty()) b.terms.assign(b.bytes.size(), 0);
      for (unsigned k = 0; k < bytes; ++k) {
        b.bytes[at->second + k] = static_cast<uint8_t>(v.v >> (8 * k));
        b.undef[at->second + k] = v.undef;
        if (!b.terms.empty()) b.terms[at->second + k] = v.term ? l.terms->byte(v.term, k) : 0;
      }
    } else {
      Val v;
      for (unsigned k = 0; k < bytes; ++k) {
        v.v |= uint64_t{b.bytes[at->second + k]} << (8 * k);
        v.undef = v.undef || b.undef[at->second + k];
      }
      if (is_signed(in.type)) v.v = static_cast<uint64_t>(sext(v.v, 8 * bytes));
      const uint32_t* terms = b.terms.empty() ? nullptr : &b.terms[at->second];
      if (terms && std::any_of(terms, terms + bytes, [](uint32_t x) { return x != 0; }))
        v.term = l.terms->join(terms, &b.bytes[at->second], bytes, is_signed(in.type));
      write(in.dst[0], v, bits(p.regs[in.dst[0].reg].type));
    }
    th.pc++;
    return true;
  }

  // The value an arithmetic, logic, cvt, setp or selp instruction writes (programs/alu.hpp),
  // undefined where a source it depends on is, or where it divides by zero.
  Val compute(const Instruction& in) {
    // Each source read on its own (a zeroed array costs a `rep stos` on this path, the hottest
    // of the machine).
    const std::size_t n = in.src.size();
    auto source = [&](std::size_t k) __attribute__((always_inline)) {
      return k < n ? read(in.src[k], alu::source_bits(in, k)) : Val{};
    };
    const Val v0 = source(0), v1 = source(1), v2 = source(2), v3 = source(3);
    const std::array<uint64_t, 4> src{v0.v, v1.v, v2.v, v3.v};
    const std::array<bool, 4> undef{v0.undef, v1.undef, v2.undef, v3.undef};
    const std::array<uint32_t, 4> terms{v0.term, v1.term, v2.term, v3.term};
    if (alu::divides(in) && terms[1]) l.terms->pin_zero(terms[1], src[1] == 0);
    if (alu::divides(in) && src[1] == 0) return {0, true};
    Val r{alu::value(alu::ConcreteInt{}, in, src), undef[0] || undef[1] || undef[2] || undef[3]};
    if (in.op == Op::Selp) {
      // selp's result is as defined as the operand it selects: which one that is decides it.
      r.undef = undef[2] || undef[src[2] != 0 ? 0 : 1];
      if (undef[0] != undef[1] && terms[2]) l.terms->pin_zero(terms[2], src[2] == 0);
    }
    if (terms[0] || terms[1] || terms[2] || terms[3]) r.term = l.terms->value(in, terms, src);
    return r;
  }

  // Runs one instruction that is not a collective. False when the path stopped.
  bool local(const Instruction& in) {
    const unsigned w = bits(in.type);
    switch (in.op) {
      case Op::Cvta: {
        Val v = read(in.src[0], 64);
        pin(v);
        v.term = 0;
        if (in.space == Space::Shared) {
          v.v = in.to_generic ? (kSharedTag << kTagShift) | (v.v & kOffsetMask) : v.v & kOffsetMask;
        }
        write(in.dst[0], v, w);
        break;
      }
      case Op::Ld:
      case Op::St:
        return load_store(in);
      case Op::Bra:
        th.pc = in.target;
        return true;
      case Op::Ret:
      case Op::Exit:
        th.status = Status::Exited;
        exit_owing(p, m, t);
        return true;
      default: {
        const Val r = compute(in);
        if (in.op == Op::Setp) {
          write(in.dst[0], r, 1);
          if (in.dst.size() > 1)
            write(in.dst[1], {r.v == 0, r.undef, r.term ? l.terms->is_zero(r.term) : 0}, 1);
        } else {
          write(in.dst[0], r,
                in.op == Op::Cvt ? bits(p.regs[in.dst[0].reg].type) : alu::result_bits(in));
        }
        break;
      }
    }
    th.pc++;
    return true;
  }
};

// ---------------------------------------------------------------- threads

// Runs thread t until it waits, exits, its path stops or its slice ends. True when it moved.
bool run_thread(const Program& p, const Launch& l, Machine& m, unsigned t) {
  auto& th = m.threads[t].mut();
  bool moved = false;
  for (unsigned n = 0; th.status == Status::Runs && !m.stop && n < kSlice; ++n) {
    if (th.pc >= p.code.size()) {
      th.status = Status::Exited;
      exit_owing(p, m, t);
      moved = true;
      break;
    }
    const auto& in = p.code[th.pc];
    ++m.steps;
    trace_step(m, t, th.pc);
    Exec x{p, l, m, t, th};
    if (in.guard) {
      const Val g = x.read(*in.guard, 1);
      if (g.undef) {
        x.stop(ProgramClause::UndefinedControl, "a guard predicate is an undefined value");
        break;
      }
      x.pin(g);
      if (in.op == Op::Bra) th.path = th.path * 1000003u + (g.v ? in.target : th.pc) + 1;
      if (g.v == 0) {
        th.pc++;
        moved = true;
        continue;
      }
    }
    moved = true;
    if (in.op == Op::Collective) {
      pin_collective_operands(p, l, m, t);
      if (is_block_barrier(in) && in.collective->parsed.instr.has_count && m.stacks.empty())
        th.status = Status::AtBarrier;
      else if (is_block_barrier(in))
        arrive_at_barrier(p, m, t);
      else
        th.status = Status::Waits;
      break;
    }
    if (!x.local(in)) break;
  }
  return moved;
}

}  // namespace

// ---------------------------------------------------------------- public

std::string_view clause_key(ProgramClause c) {
  switch (c) {
    case ProgramClause::CollectivePeerElsewhere:
      return "program.collective_peer_elsewhere";
    case ProgramClause::BarrierNeverCompletes:
      return "program.barrier_never_completes";
    case ProgramClause::BarrierDivergent:
      return "program.barrier_divergent";
    case ProgramClause::DataRace:
      return "program.data_race";
    case ProgramClause::UndefinedControl:
      return "program.undefined_control";
    case ProgramClause::BadAddress:
      return "program.bad_address";
    case ProgramClause::Unavailable:
      return "program.unavailable";
    case ProgramClause::RunsAway:
      return "program.runs_away";
  }
  return "program.unknown";
}

std::optional<ProgramClause> find_program_clause(std::string_view key) {
  for (auto c : kProgramClauses)
    if (clause_key(c) == key) return c;
  return std::nullopt;
}

bool is_undefined(std::string_view key) {
  return key != clause_key(ProgramClause::DataRace) &&
         key != clause_key(ProgramClause::BarrierNeverCompletes) &&
         key != clause_key(ProgramClause::RunsAway);
}

std::string_view clause_text(ProgramClause c) {
  switch (c) {
    case ProgramClause::CollectivePeerElsewhere:
      return "a warp collective's membermask names a thread that waits at another instruction, "
             "so the collective can never execute";
    case ProgramClause::BarrierNeverCompletes:
      return "threads wait at a block barrier that the rest of the block never reaches";
    case ProgramClause::BarrierDivergent:
      return "a barrier without a thread count (__syncthreads) is reached through different "
             "instructions: its condition is not the same across the block";
    case ProgramClause::DataRace:
      return "two threads access the same byte, at least one writes, and no barrier orders them";
    case ProgramClause::UndefinedControl:
      return "a guard, an address, a membermask or a barrier operand is an undefined value";
    case ProgramClause::BadAddress:
      return "a load or store outside every buffer";
    case ProgramClause::Unavailable:
      return "a collective that the target or PTX version does not have";
    case ProgramClause::RunsAway:
      return "a thread runs on without reaching a synchronisation (a spin loop or an endless loop)";
  }
  return "";
}

std::string describe(const Program& p, const Machine& m, const Choice& c) {
  const bool one = c.threads.size() == 1;
  if (c.kind == Choice::Kind::PathOrder) {
    // The side these threads are on, of the two on top of their warp's stack.
    const auto& stack = m.stacks[c.threads.front() / kWarp];
    const auto& side = (stack.back().mask >> (c.threads.front() % kWarp)) & 1
                           ? stack.back()
                           : stack[stack.size() - 2];
    return "a branch splits the warp: " + thread_ranges(c.threads) + ", going to " +
           where(p, side.pc) + (one ? ", runs" : ", run") + " first";
  }
  if (c.kind == Choice::Kind::Arrive)
    return where(p, m.threads[c.threads.front()]->pc) + ": " + thread_ranges(c.threads) +
           (one ? " arrives" : " arrive");
  auto verb = [&](bool alone) {
    return c.kind == Choice::Kind::Activemask
               ? (alone ? " reads it alone" : " read it together")
               : (alone ? " executes it alone" : " execute it together");
  };
  if (c.parts.empty())
    return where(p, m.threads[c.threads.front()]->pc) + ": " + thread_ranges(c.threads) + verb(one);
  // Each group in turn, its instruction named where it differs from the group's before.
  std::string s;
  uint32_t at = UINT32_MAX;
  for (const auto& g : c.parts) {
    const uint32_t pc = m.threads[g.front()]->pc;
    if (!s.empty()) s += pc == at ? ", " : "; ";
    if (pc != at) s += where(p, pc) + ": ";
    s += thread_ranges(g) + verb(g.size() == 1);
    at = pc;
  }
  return s;
}

std::string thread_ranges(const std::vector<unsigned>& threads) {
  auto ts = threads;
  std::sort(ts.begin(), ts.end());
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
  return (ts.size() == 1 ? "thread " : "threads ") + model::format_threads(ts);
}

Machine start(const Program& p, const Launch& l) {
  if (l.threads == 0 || l.threads > model::kMaxCtaThreads)
    throw std::invalid_argument("a block has 1 to 1024 threads, not " + std::to_string(l.threads));
  if (l.params.size() != p.params.size())
    throw std::invalid_argument("the kernel takes " + std::to_string(p.params.size()) +
                                " parameters, the launch gives " + std::to_string(l.params.size()));
  Machine m;
  m.phase.resize(spec::kCtaBarriers + 1);
  auto buffer = [](std::size_t n) {
    Buffer b;
    b.bytes.assign(n, 0);
    b.undef.assign(n, 0);
    b.log.resize((n + LogPage::kBytes - 1) / LogPage::kBytes);
    return b;
  };
  // Shared memory starts undefined, as on the hardware.
  Buffer window = buffer(p.shared_bytes);
  std::fill(window.undef.begin(), window.undef.end(), 1);
  m.buffers.emplace_back(std::move(window));
  const auto& params = l.params;
  // A scalar the parameter cannot hold is refused, not cut to its width: a negative one is
  // taken as the two's complement of 64 bits (`-p -1` for a .s32 is -1, and 0xffffffff fits).
  for (std::size_t k = 0; k < params.size(); ++k) {
    const unsigned w = bits(p.params[k].type);
    const uint64_t v = params[k].value;
    if (params[k].is_buffer || w >= 64 || v >> w == 0 || v >= ~uint64_t{0} << (w - 1)) continue;
    throw std::invalid_argument("parameter " + p.params[k].name + " is " + std::to_string(w) +
                                " bits wide: " + std::to_string(v) + " does not fit");
  }
  m.params.resize(params.size());
  for (std::size_t k = 0; k < params.size(); ++k) m.params[k] = params[k].value;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!params[k].is_buffer) continue;
    if (bits(p.params[k].type) != 64)
      throw std::invalid_argument("parameter " + p.params[k].name +
                                  " is not 64 bits wide, so it cannot be a buffer's address");
    m.params[k] = uint64_t{m.buffers.size()} << kTagShift;
    Buffer b = buffer(4 * params[k].words.size());
    for (std::size_t i = 0; i < params[k].words.size(); ++i)
      for (unsigned j = 0; j < 4; ++j)
        b.bytes[4 * i + j] = static_cast<uint8_t>(params[k].words[i] >> (8 * j));
    if (l.terms)
      for (std::size_t i = 0; i < params[k].words.size(); ++i)
        if (const uint32_t word = l.terms->input(static_cast<unsigned>(k), i)) {
          if (b.terms.empty()) b.terms.assign(b.bytes.size(), 0);
          for (unsigned j = 0; j < 4; ++j) b.terms[4 * i + j] = l.terms->byte(word, j);
        }
    m.buffers.emplace_back(std::move(b));
  }
  if (l.terms) {
    m.param_terms.assign(params.size(), 0);
    for (std::size_t k = 0; k < params.size(); ++k)
      if (!params[k].is_buffer) m.param_terms[k] = l.terms->input(static_cast<unsigned>(k), 0);
  }
  if (spec::is_pre_volta(l.target)) start_lockstep(p, l, m);
  m.threads.resize(l.threads);
  for (unsigned t = 0; t < l.threads; ++t) {
    auto& th = m.threads[t].mut();
    th.regs.assign(p.regs.size(), 0);
    th.undef.assign(p.regs.size(), 1);  // registers start undefined
    auto& clock = th.clock.mut();
    clock.assign(l.threads, 0);
    clock[t] = 1;
    if (l.terms) th.terms.assign(p.regs.size(), 0);
  }
  return m;
}

namespace detail {

std::optional<bool> guard_holds(const Program& p, const Launch& l, Machine& m, unsigned t) {
  auto& th = m.threads[t].mut();
  const auto& in = p.code[th.pc];
  if (!in.guard) return true;
  Exec x{p, l, m, t, th};
  const Val g = x.read(*in.guard, 1);
  if (g.undef) {
    x.stop(ProgramClause::UndefinedControl, "a guard predicate is an undefined value");
    return std::nullopt;
  }
  x.pin(g);
  return g.v != 0;
}

void pin_collective_operands(const Program& p, const Launch& l, Machine& m, unsigned t) {
  const auto& th = *m.threads[t];
  if (th.terms.empty()) return;
  const auto& in = p.code[th.pc];
  const auto& c = *in.collective;
  // A warp collective's source operand is read through the terms (Terms::collective).
  const auto a = is_block_barrier(in) ? c.a : std::nullopt;
  for (const auto& reg : {c.mask, a, c.b, c.c, c.bar, c.count})
    if (reg && th.terms[*reg]) l.terms->pin(th.terms[*reg], th.regs[*reg]);
}

bool execute_local(const Program& p, const Launch& l, Machine& m, unsigned t) {
  auto& th = m.threads[t].mut();
  ++m.steps;
  Exec x{p, l, m, t, th};
  return x.local(p.code[th.pc]);
}

}  // namespace detail

void settle(const Program& p, const Launch& l, Machine& m) {
  if (spec::is_pre_volta(l.target)) {
    settle_lockstep(p, l, m);
    return;
  }
  // A barrier is looked at after every thread's run, so that a phase with a thread count takes
  // the warps that arrived first, and a thread at bar.arrive goes on as soon as its warp is there;
  // and once before the threads run, for what the last choice changed. (A thread that did not
  // run changed nothing, so the barriers are not looked at again after it.)
  const uint64_t start_steps = m.steps;
  for (bool moved = true; moved && !m.stop;) {
    moved = complete_barriers(p, l, m);
    for (unsigned t = 0; t < m.threads.size() && !m.stop; ++t) {
      if (m.threads[t]->status != Status::Runs || !run_thread(p, l, m, t)) continue;
      moved = true;
      if (!m.stop) complete_barriers(p, l, m);
    }
    if (moved && m.steps - start_steps > kRunLimit / 16 &&
        std::any_of(m.threads.begin(), m.threads.end(),
                    [](const Thread& th) { return th.status == Status::AtBarrier; })) {
      // A thread spins (on memory, say) while others stand before a counted barrier: on a fair
      // scheduler they arrive. They arrive here in thread order, one order of several, which
      // the walk reports as bounded.
      for (unsigned t = 0; t < m.threads.size() && !m.stop; ++t)
        if (m.threads[t]->status == Status::AtBarrier) arrive_at_barrier(p, m, t);
      canonical_phases(m);
      m.one_order = true;
      continue;
    }
    if (moved && m.steps - start_steps > kRunLimit) {
      std::vector<unsigned> running;
      for (unsigned t = 0; t < m.threads.size(); ++t)
        if (m.threads[t]->status == Status::Runs) running.push_back(t);
      m.stop = finding(std::string(clause_key(ProgramClause::RunsAway)),
                       thread_ranges(running) + " ran " + std::to_string(kRunLimit) +
                           " instructions in all without reaching a synchronisation (one at " +
                           where(p, m.threads[running.front()]->pc) + ")",
                       running, {});
    }
  }
}

namespace {

// A 64-bit word at a time, each mixed in with a multiply and a shift (splitmix64's finaliser
// step): the digest of every state is taken, so byte-at-a-time FNV cost a third of a walk.
struct Hasher {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  void add(uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  // Four independent lanes, folded at the end: the mixing steps of one word do not wait for
  // the previous word's. `word(i)` is the i-th of `n` words.
  template <class F>
  void add_words(std::size_t n, F&& word) {
    uint64_t lane[4] = {h, h ^ 0x94d049bb133111ebull, h + 0x2545f4914f6cdd1dull, ~h};
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4)
      for (unsigned k = 0; k < 4; ++k) {
        lane[k] = (lane[k] ^ word(i + k)) * 0xbf58476d1ce4e5b9ull;
        lane[k] ^= lane[k] >> 29;
      }
    for (; i < n; ++i) add(word(i));
    for (uint64_t v : lane) add(v);
  }
  template <class V>
  void add_all(const V& xs) {
    using T = typename V::value_type;
    add(xs.size());
    if constexpr (sizeof(T) == 1) {
      // Bytes: eight to a word, the last one filled with zeros.
      const std::size_t n = xs.size();
      add_words((n + 7) / 8, [&](std::size_t w) {
        uint64_t v = 0;
        if (8 * w + 8 <= n)
          std::memcpy(&v, xs.data() + 8 * w, 8);
        else
          for (std::size_t k = 8 * w; k < n; ++k)
            v |= uint64_t{static_cast<uint8_t>(xs[k])} << (8 * (k - 8 * w));
        return v;
      });
    } else {
      add_words(xs.size(), [&](std::size_t i) { return static_cast<uint64_t>(xs[i]); });
    }
  }
};

using LiveTable = std::vector<std::vector<uint32_t>>;

// The registers of `th` that a later step may read, or nullptr for all of them.
const std::vector<uint32_t>* live_of(const LiveTable* live, const Thread& th) {
  if (!live) return nullptr;
  return &(*live)[th.status == Status::Exited ? live->size() - 1
                                              : std::min<std::size_t>(th.pc, live->size() - 1)];
}

bool same_registers(const Thread& a, const Thread& b, const std::vector<uint32_t>* live) {
  if (!live) return a.regs == b.regs && a.undef == b.undef && a.terms == b.terms;
  if (a.terms.empty() != b.terms.empty()) return false;
  for (uint32_t r : *live)
    if (a.regs[r] != b.regs[r] || a.undef[r] != b.undef[r] ||
        (!a.terms.empty() && a.terms[r] != b.terms[r]))
      return false;
  return true;
}

bool same_thread(const Thread& a, const Thread& b, const LiveTable* live) {
  return a.pc == b.pc && a.status == b.status && a.clock == b.clock && a.path == b.path &&
         a.owes == b.owes && same_registers(a, b, live_of(live, a));
}

uint64_t clock_digest(const std::vector<uint32_t>& clock) {
  Hasher h;
  h.add_all(clock);
  return h.h;
}

uint64_t thread_digest(const Thread& th, const LiveTable* table) {
  Hasher h;
  h.add(uint64_t{th.owes} << 32 | th.pc);
  h.add(th.path);
  h.add(static_cast<uint64_t>(th.status));
  h.add(th.clock.digest(clock_digest));
  const auto* live = live_of(table, th);
  if (!live) {
    h.add_all(th.regs);
    h.add_all(th.undef);
    if (!th.terms.empty()) h.add_all(th.terms);  // only with unknown inputs
    return h.h;
  }
  const auto& rs = *live;
  h.add_words(rs.size(), [&](std::size_t i) { return th.regs[rs[i]]; });
  uint64_t undef = 0;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    undef |= uint64_t{th.undef[rs[i]] != 0} << (i % 64);
    if (i % 64 == 63 || i + 1 == rs.size()) {
      h.add(undef);
      undef = 0;
    }
  }
  if (!th.terms.empty()) h.add_words(rs.size(), [&](std::size_t i) { return th.terms[rs[i]]; });
  return h.h;
}

uint64_t log_digest(const LogPage& page) {
  Hasher h;
  for (const auto& log : page.at) {
    h.add(log.write ? (uint64_t{log.write->thread} << 32 | log.write->clock) + 1 : 0);
    if (log.write) h.add(uint64_t{log.write->pc} << 1 | log.write->strong);
    h.add(log.reads.size());
    for (const auto& r : log.reads) h.add(uint64_t{r.thread} << 32 | r.clock);
  }
  return h.h;
}

uint64_t phase_digest(const std::vector<Arrival>& ph) {
  Hasher h;
  h.add(ph.size());
  for (const auto& a : ph) {
    h.add(uint64_t{a.thread} << 32 | a.pc);
    h.add(uint64_t{a.bar} << 32 | a.count);
    h.add(uint64_t{a.pred} << 1 | a.counted);
    h.add(a.clock.digest(clock_digest));
  }
  return h.h;
}

uint64_t buffer_digest(const Buffer& b) {
  Hasher h;
  h.add_all(b.bytes);
  h.add_all(b.undef);
  if (!b.terms.empty()) h.add_all(b.terms);
  for (const auto& page : b.log) h.add(page.digest(log_digest));
  return h.h;
}

}  // namespace

// A thread's or a buffer's digest is taken once and kept until it changes (Shared), so a state
// costs the digests of the parts its last step changed, and one word per other part.
uint64_t digest(const Machine& m) {
  Hasher h;
  const LiveTable* live = m.facts ? &m.facts->live : nullptr;
  for (const auto& th : m.threads)
    h.add(th.digest([live](const Thread& t) { return thread_digest(t, live); }));
  if (!m.param_terms.empty()) h.add_all(m.param_terms);
  for (const auto& b : m.buffers) h.add(b.digest(buffer_digest));
  if (m.stop)
    for (char ch : m.stop->key + m.stop->text) h.add(static_cast<unsigned char>(ch));
  for (const auto& stack : m.stacks)
    for (const auto& e : stack) {
      h.add(uint64_t{e.pc} << 32 | e.mask);
      h.add(uint64_t{e.rpc} << 2 | e.arrived << 1 | e.unordered);
    }
  for (const auto& ph : m.phase) h.add(ph.digest(phase_digest));
  h.add(m.one_order);
  h.add(m.strong_order);
  return h.h;
}

bool same_state(const Machine& a, const Machine& b) {
  if (a.threads.size() != b.threads.size() || a.facts != b.facts) return false;
  for (std::size_t t = 0; t < a.threads.size(); ++t)
    if (!same_thread(a.threads[t], b.threads[t], a.facts ? &a.facts->live : nullptr)) return false;
  const bool same_stop = a.stop.has_value() == b.stop.has_value() &&
                         (!a.stop || (a.stop->key == b.stop->key && a.stop->text == b.stop->text));
  return same_stop && a.buffers == b.buffers && a.phase == b.phase && a.params == b.params &&
         a.param_terms == b.param_terms && a.stacks == b.stacks && a.one_order == b.one_order &&
         a.strong_order == b.strong_order;
}

}  // namespace warpspec::programs
