#include "checker/program_inputs.hpp"

#include <z3++.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "checker/solver.hpp"
#include "checker/symbolic_state.hpp"
#include "programs/alu.hpp"
#include "programs/terms.hpp"
#include "spec/semantics.hpp"

namespace warpspec::checker {
namespace {

using programs::Launch;
using programs::Program;

// programs/alu.hpp read with Z3: 64-bit bit-vector words and Boolean predicates.
struct Z3Int {
  z3::context* c;
  using X = z3::expr;
  using P = z3::expr;
  X k(uint64_t v) const { return c->bv_val(v, 64); }
  X ite(const P& b, const X& x, const X& y) const { return z3::ite(b, x, y); }
  P eq(const X& x, const X& y) const { return x == y; }
  P ult(const X& x, const X& y) const { return z3::ult(x, y); }
  P slt(const X& x, const X& y) const { return z3::slt(x, y); }
  X shl(const X& x, const X& n) const { return z3::shl(x, n); }
  X lshr(const X& x, const X& n) const { return z3::lshr(x, n); }
  X ashr(const X& x, const X& n) const { return z3::ashr(x, n); }
  X udiv(const X& x, const X& y) const { return z3::udiv(x, y); }
  X urem(const X& x, const X& y) const { return z3::urem(x, y); }
  X sdiv(const X& x, const X& y) const { return x / y; }
  X srem(const X& x, const X& y) const { return z3::srem(x, y); }
  X mulhi(const X& x, const X& y, bool is_signed) const {
    const X a = is_signed ? z3::sext(x, 64) : z3::zext(x, 64);
    const X b = is_signed ? z3::sext(y, 64) : z3::zext(y, 64);
    return (a * b).extract(127, 64);
  }
};
static_assert(programs::alu::IntDomain<Z3Int>);

// The terms of one search: built once, shared by every walk; the pins are the current walk's.
class Z3Terms final : public programs::Terms {
 public:
  Z3Terms(z3::context& ctx, const Program& p, const Launch& seed,
          const std::vector<unsigned>& unknown)
      : ctx_(ctx), d_{&ctx}, pins_(ctx) {
    table_.push_back(ctx.bv_val(0, 64));  // term 0 is never used
    for (unsigned k : unknown) {
      if (k >= p.params.size())
        throw std::invalid_argument("the kernel has " + std::to_string(p.params.size()) +
                                    " parameters; there is no parameter " + std::to_string(k));
      auto& vars = vars_[k];
      const std::string& name = p.params[k].name;
      if (seed.params.size() > k && seed.params[k].is_buffer) {
        for (std::size_t i = 0; i < seed.params[k].words.size(); ++i)
          vars.push_back(ctx.bv_const((name + "[" + std::to_string(i) + "]").c_str(), 32));
      } else {
        vars.push_back(ctx.bv_const(name.c_str(), programs::bits(p.params[k].type)));
      }
      for (const auto& v : vars) all_.push_back(v);
    }
  }

  uint32_t input(unsigned param, uint64_t word) override {
    const auto v = vars_.find(param);
    if (v == vars_.end() || word >= v->second.size()) return 0;
    const z3::expr& x = v->second[word];
    return intern(x.get_sort().bv_size() < 64 ? z3::zext(x, 64 - x.get_sort().bv_size()) : x);
  }
  uint32_t value(const programs::Instruction& in, const std::array<uint32_t, 4>& terms,
                 const std::array<uint64_t, 4>& values) override {
    // A term that has grown past kMaxCost (a loop that carries an unknown through many
    // iterations) is not built: its sources are pinned to their values instead, which keeps the
    // class exact, only smaller. (That answer is not memoised: each walk must pin afresh.)
    Key key{1, reinterpret_cast<uintptr_t>(&in)};
    for (std::size_t k = 0; k < terms.size(); ++k) key.push_back(terms[k] ? terms[k] : ~values[k]);
    if (const auto hit = memo_.find(key); hit != memo_.end()) return hit->second;
    uint64_t cost = 1;
    for (uint32_t t : terms) cost += t ? cost_[t] : 0;
    if (cost > kMaxCost) {
      for (std::size_t k = 0; k < terms.size(); ++k)
        if (terms[k]) pin(terms[k], values[k]);
      return 0;
    }
    std::array<z3::expr, 4> src{word(terms[0], values[0]), word(terms[1], values[1]),
                                word(terms[2], values[2]), word(terms[3], values[3])};
    return memo_[key] = intern(programs::alu::value(d_, in, src), cost);
  }
  uint32_t cut(uint32_t term, unsigned bits) override {
    return memo(Key{2, term, bits}, [&] {
      return intern(programs::alu::trunc(d_, table_[term], bits), cost_[term] + 1);
    });
  }
  uint32_t is_zero(uint32_t term) override {
    return memo(Key{3, term}, [&] {
      return intern(z3::ite(table_[term] == d_.k(0), d_.k(1), d_.k(0)), cost_[term] + 1);
    });
  }
  uint32_t byte(uint32_t term, unsigned k) override {
    return memo(Key{4, term, k}, [&] {
      return intern(z3::lshr(table_[term], d_.k(8 * k)) & d_.k(0xff), cost_[term] + 1);
    });
  }
  uint32_t join(const uint32_t* terms, const uint8_t* values, unsigned n, bool is_signed) override {
    Key key{5, is_signed};
    for (unsigned k = 0; k < n; ++k) key.push_back(terms[k] ? terms[k] : ~uint64_t{values[k]});
    return memo(key, [&] {
      z3::expr w = d_.k(0);
      uint64_t cost = 1;
      for (unsigned k = 0; k < n; ++k) {
        w = w | z3::shl(word(terms[k], values[k]), d_.k(8 * k));
        cost = std::max(cost, cost_[terms[k]] + 1);  // the bytes of one word share their tree
      }
      return intern(is_signed ? programs::alu::sext(d_, w, 8 * n) : w, cost);
    });
  }
  void pin(uint32_t term, uint64_t value) override { add_pin(table_[term] == d_.k(value)); }
  void pin_zero(uint32_t term, bool zero) override {
    add_pin(zero ? table_[term] == d_.k(0) : table_[term] != d_.k(0));
  }

  void pin_range(uint32_t term, uint64_t lo, uint64_t hi, bool inside) override {
    const z3::expr in = z3::ult(table_[term] - d_.k(lo), d_.k(hi - lo));
    add_pin(inside ? in : !in);
  }
  void pin_aligned(uint32_t term, uint64_t offset, unsigned bytes, bool aligned) override {
    const z3::expr low = (table_[term] + d_.k(offset)) & d_.k(bytes - 1);
    add_pin(aligned ? low == d_.k(0) : low != d_.k(0));
  }

  void collective(const spec::Instr& instr, const model::Warp& w, spec::Target target,
                  const std::array<uint32_t, 32>& a, const model::WarpResult& r,
                  std::array<uint32_t, 32>& d, std::array<uint32_t, 32>& p) override {
    const Z3Domain z(ctx_);
    // The run's warp, with the unknown source operands as terms.
    SymWarp s{spec::lanes_of<spec::kWarpSize>([&](unsigned j) { return z.lit(w.exec[j]); }),
              spec::lanes_of<spec::kWarpSize>([&](unsigned j) { return z.lit(w.exited[j]); }),
              spec::lanes_of<spec::kWarpSize>([&](unsigned j) { return z.w32(w.mask[j]); }),
              spec::lanes_of<spec::kWarpSize>(
                  [&](unsigned j) { return a[j] ? table_[a[j]] : z.w64(w.a[j]); }),
              spec::lanes_of<spec::kWarpSize>([&](unsigned j) { return z.w32(w.site[j]); }),
              spec::lanes_of<spec::kWarpSize>([&](unsigned j) { return z.w32(w.b[j]); }),
              spec::lanes_of<spec::kWarpSize>([&](unsigned j) { return z.w32(w.c[j]); })};
    const auto o = spec::evaluate_warp(z, instr, s, spec::is_pre_volta(target));
    for (std::size_t k = 0; k < o.ub.size(); ++k)
      add_pin(o.ub[k].lanes == z.w32(r.outcome.ub[k].lanes));
    for (std::size_t k = 0; k < o.loose_d.size(); ++k)
      add_pin(o.loose_d[k].lanes == z.w32(r.outcome.loose_d[k].lanes));
    for (unsigned j = 0; j < spec::kWarpSize; ++j) {
      z3::expr lo = z3::zext(o.d[j], 32);
      d[j] = intern(o.d_hi.empty() ? lo : z3::concat(o.d_hi[j], o.d[j]));
      p[j] = intern(z3::ite(o.p[j], d_.k(1), d_.k(0)));
    }
  }

  /// Term `term` as an expression, or the byte `value` where the term is 0.
  z3::expr expr_of(uint32_t term, uint64_t value) const { return word(term, value); }

  /// Starts the pins of a new walk.
  void clear_pins() {
    pins_ = z3::expr_vector(ctx_);
    seen_.clear();
  }
  const z3::expr_vector& pins() const { return pins_; }
  /// Every unknown, and per parameter its unknowns (one for a scalar, one per buffer word).
  const z3::expr_vector& unknowns() const { return all_; }
  const std::map<unsigned, std::vector<z3::expr>>& by_param() const { return vars_; }

 private:
  // Term-building calls and their answers: the walk computes the same values on many paths.
  // A key's first word names the call; a known source is its value complemented (never a term
  // number in practice, and never confused with one of the small numbers terms have).
  using Key = std::vector<uint64_t>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      uint64_t h = 0x9e3779b97f4a7c15ull;
      for (uint64_t x : k) h = (h ^ x) * 0xbf58476d1ce4e5b9ull, h ^= h >> 31;
      return static_cast<std::size_t>(h);
    }
  };
  template <class F>
  uint32_t memo(const Key& key, F&& make) {
    if (const auto hit = memo_.find(key); hit != memo_.end()) return hit->second;
    const uint32_t t = make();
    return memo_[key] = t;
  }

  z3::expr word(uint32_t term, uint64_t value) const { return term ? table_[term] : d_.k(value); }
  // A term's number: a literal after simplification is no term at all (0).
  // `cost` bounds the size of its tree: the operations that built it.
  uint32_t intern(const z3::expr& e, uint64_t cost = 1) {
    const z3::expr s = e.simplify();
    if (s.is_numeral()) return 0;
    const unsigned id = Z3_get_ast_id(ctx_, s);
    const auto [at, fresh] = ids_.try_emplace(id, static_cast<uint32_t>(table_.size()));
    if (fresh) {
      table_.push_back(s);
      cost_.push_back(std::min<uint64_t>(cost, kMaxCost + 1));
    }
    return at->second;
  }
  static constexpr uint64_t kMaxCost = 256;
  void add_pin(const z3::expr& e) {
    const z3::expr s = e.simplify();
    if (s.is_true()) return;
    if (seen_.insert(Z3_get_ast_id(ctx_, s)).second) pins_.push_back(s);
  }

  z3::context& ctx_;
  Z3Int d_;
  std::vector<z3::expr> table_;
  std::vector<uint64_t> cost_{0};  ///< per term, its tree's size as built (kMaxCost + 1: more)
  std::map<unsigned, uint32_t> ids_;
  std::unordered_map<Key, uint32_t, KeyHash> memo_;
  std::map<unsigned, std::vector<z3::expr>> vars_;
  z3::expr_vector all_{ctx_};
  z3::expr_vector pins_;
  std::set<unsigned> seen_;
};

// The unknowns' values in `launch`, as equalities.
z3::expr_vector assignment(z3::context& ctx, const Z3Terms& terms, const Launch& launch) {
  z3::expr_vector out(ctx);
  for (const auto& [k, vars] : terms.by_param()) {
    const auto& pv = launch.params[k];
    for (std::size_t i = 0; i < vars.size(); ++i) {
      const uint64_t v = pv.is_buffer ? pv.words[i] : pv.value;
      out.push_back(vars[i] == ctx.bv_val(v, vars[i].get_sort().bv_size()));
    }
  }
  return out;
}

// The launch `seed` with the unknowns as `m` assigns them.
Launch input_from(const z3::model& m, const Z3Terms& terms, Launch seed) {
  for (const auto& [k, vars] : terms.by_param()) {
    auto& pv = seed.params[k];
    for (std::size_t i = 0; i < vars.size(); ++i) {
      const uint64_t v = m.eval(vars[i], true).get_numeral_uint64();
      if (pv.is_buffer)
        pv.words[i] = static_cast<uint32_t>(v);
      else
        pv.value = v;
    }
  }
  return seed;
}

// `e` as a person reads it: C-like operators, numbers in decimal (hex past 65535), bit slices as
// x[hi:lo]; what has no short form stays in SMT-LIB. A term is a DAG and its text a tree, which
// can be exponentially larger: past `budget` nodes the text is given up (nullopt).
std::optional<std::string> readable(const z3::expr& e, int& budget) {
  if (--budget < 0) return std::nullopt;
  if (e.is_numeral()) {
    uint64_t v = 0;
    if (!e.is_numeral_u64(v)) return e.to_string();
    if (v < 65536) return std::to_string(v);
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
  }
  if (e.is_true()) return "true";
  if (e.is_false()) return "false";
  if (e.is_const()) return e.decl().name().str();
  if (!e.is_app()) return e.to_string();
  const unsigned n = e.num_args();
  bool whole = true;
  auto arg = [&](unsigned i) {
    auto a = readable(e.arg(i), budget);
    whole = whole && a;
    return a.value_or("");
  };
  auto infix = [&](const char* op) {
    std::string out;
    for (unsigned i = 0; i < n; ++i) {
      const bool nested = e.arg(i).is_app() && e.arg(i).num_args() > 1 &&
                          e.arg(i).decl().decl_kind() != Z3_OP_EXTRACT;
      out += (i ? std::string(" ") + op + " " : "") + (nested ? "(" + arg(i) + ")" : arg(i));
    }
    return out;
  };
  const std::string text = [&]() -> std::string {
    switch (e.decl().decl_kind()) {
      case Z3_OP_EQ:
        return infix("==");
      case Z3_OP_NOT:
        if (e.arg(0).is_app() && e.arg(0).decl().decl_kind() == Z3_OP_EQ) {
          const auto a = readable(e.arg(0).arg(0), budget), b = readable(e.arg(0).arg(1), budget);
          whole = whole && a && b;
          return a.value_or("") + " != " + b.value_or("");
        }
        return "!(" + arg(0) + ")";
      case Z3_OP_AND:
        return infix("&&");
      case Z3_OP_OR:
        return infix("||");
      case Z3_OP_ULEQ:
        return infix("<=");
      case Z3_OP_ULT:
        return infix("<");
      case Z3_OP_UGEQ:
        return infix(">=");
      case Z3_OP_UGT:
        return infix(">");
      case Z3_OP_SLEQ:
        return infix("<= (signed)");
      case Z3_OP_SLT:
        return infix("< (signed)");
      case Z3_OP_SGEQ:
        return infix(">= (signed)");
      case Z3_OP_SGT:
        return infix("> (signed)");
      case Z3_OP_BADD:
        return infix("+");
      case Z3_OP_BSUB:
        return infix("-");
      case Z3_OP_BMUL:
        return infix("*");
      case Z3_OP_BAND:
        return infix("&");
      case Z3_OP_BOR:
        return infix("|");
      case Z3_OP_BXOR:
        return infix("^");
      case Z3_OP_BNOT:
        return "~" + arg(0);
      case Z3_OP_BNEG:
        return "-" + arg(0);
      case Z3_OP_BSHL:
        return infix("<<");
      case Z3_OP_BLSHR:
        return infix(">>");
      case Z3_OP_BUDIV:
      case Z3_OP_BUDIV_I:
        return infix("/");
      case Z3_OP_BUREM:
      case Z3_OP_BUREM_I:
        return infix("%");
      case Z3_OP_ZERO_EXT:
        return arg(0);
      case Z3_OP_SIGN_EXT:
        return "(signed) " + arg(0);
      case Z3_OP_EXTRACT:
        return (e.arg(0).is_const() ? arg(0) : "(" + arg(0) + ")") + "[" + std::to_string(e.hi()) +
               ":" + std::to_string(e.lo()) + "]";
      case Z3_OP_ITE:
        return "(" + arg(0) + " ? " + arg(1) + " : " + arg(2) + ")";
      default:
        whole = false;  // no short form
        return "";
    }
  }();
  if (!whole) return std::nullopt;
  return text;
}

// The values of the one unknown `x` where `set` holds, as ranges: each range's start is the least
// value past the previous range where `set` holds, its end the last before one where it does not,
// both found by bisection.
void value_ranges(z3::context& ctx, const z3::expr& x, const z3::expr& set, unsigned timeout_ms,
                  InputGroup& g) {
  const unsigned w = x.get_sort().bv_size();
  const uint64_t top = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  Solver in = Solver::incremental(ctx), out = Solver::incremental(ctx);
  in.set_limits({timeout_ms, 0});
  out.set_limits({timeout_ms, 0});
  in.add(set);
  out.add(!set);
  // Is there a value of `s` in [lo, hi]? nullopt: the solver could not tell.
  auto any = [&](Solver& s, uint64_t lo, uint64_t hi) -> std::optional<bool> {
    s.push();
    s.add(z3::uge(x, ctx.bv_val(lo, w)) && z3::ule(x, ctx.bv_val(hi, w)));
    const Outcome r = s.check();
    s.pop();
    if (r.unknown()) return std::nullopt;
    return r.sat();
  };
  // The least value of `s` in [lo, top], if any.
  auto least = [&](Solver& s, uint64_t lo) -> std::optional<std::optional<uint64_t>> {
    const auto some = any(s, lo, top);
    if (!some) return std::nullopt;
    if (!*some) return std::optional<uint64_t>{};
    uint64_t a = lo, b = top;  // the least is in [a, b]
    while (a < b) {
      const uint64_t mid = a + (b - a) / 2;
      const auto left = any(s, a, mid);
      if (!left) return std::nullopt;
      if (*left)
        b = mid;
      else
        a = mid + 1;
    }
    return std::optional<uint64_t>{a};
  };
  uint64_t from = 0;
  for (;;) {
    const auto start = least(in, from);
    if (!start) {  // the solver gave up: the ranges found so far stand, `more` says so
      g.more = true;
      return;
    }
    if (!*start) return;
    if (g.values.size() == kMaxRanges) {
      g.more = true;
      return;
    }
    const auto stop = least(out, **start);
    if (!stop) {
      g.more = true;
      return;
    }
    const uint64_t end = *stop ? **stop - 1 : top;
    g.values.push_back({**start, end});
    if (!*stop || end == top) return;
    from = **stop;
  }
}

// Does every schedule of every input of the class (`cls`) end with the same memory? Each
// completed outcome's memory, byte by byte as terms, against the first's.
void ask_schedules(z3::context& ctx, const Program& p, Z3Terms& terms, const z3::expr& cls,
                   const InputQuery& q, InputClass& c) {
  using Kind = programs::PathEnd::Kind;
  const auto& outs = c.exploration.outcomes;
  if (!c.exploration.complete || outs.empty() ||
      std::any_of(outs.begin(), outs.end(),
                  [](const auto& o) { return o.kind != Kind::Completed; }))
    return;
  if (outs.size() == 1) {
    c.schedules = InputClass::Schedules::One;
    return;
  }
  const auto& first = outs.front();
  // The walk's own input already ends with other memory on some schedule.
  for (const auto& o : outs)
    if (o.words != first.words || o.undefined != first.undefined) {
      c.schedules = InputClass::Schedules::Differs;
      c.differs_on = c.launch;
      return;
    }
  z3::expr_vector differ(ctx);
  for (std::size_t k = 1; k < outs.size(); ++k)
    for (std::size_t par = 0; par < first.words.size(); ++par)
      for (std::size_t i = 0; i < first.words[par].size() * 4; ++i) {
        auto byte = [&](const programs::PathEnd& o) {
          const uint32_t t = o.terms[par].empty() ? 0 : o.terms[par][i];
          return terms.expr_of(t, (o.words[par][i / 4] >> (8 * (i % 4))) & 0xff);
        };
        const z3::expr a = byte(first), b = byte(outs[k]);
        if (!z3::eq(a, b)) differ.push_back(a != b);
      }
  if (differ.empty()) {  // the same terms and values: one memory
    c.schedules = InputClass::Schedules::Proved;
    return;
  }
  Solver s(ctx, {q.solver_timeout_ms, 0});
  s.add(cls);
  s.add(z3::mk_or(differ));
  const Outcome r = s.check();
  if (r.unsat()) {
    c.schedules = InputClass::Schedules::Proved;
  } else if (r.unknown()) {
    c.schedules = InputClass::Schedules::Unknown;
  } else {
    // Shown only after the input's own walk ends in more than one way.
    Launch input = input_from(*r.model, terms, c.launch);
    programs::ExploreOptions o = q.explore;
    o.enough = nullptr;
    o.progress = nullptr;
    const auto x = programs::explore(p, input, o);
    if (x.complete && x.outcomes.size() > 1) {
      c.schedules = InputClass::Schedules::Differs;
      c.differs_on = std::move(input);
    } else {
      c.schedules = InputClass::Schedules::Unknown;
    }
  }
}

}  // namespace

std::vector<std::string> ends_of(const programs::Exploration& x) {
  std::set<std::string> out;
  for (const auto& o : x.outcomes) {
    const std::string kind(programs::kind_name(o.kind));
    if (o.findings.empty()) out.insert(kind);
    for (const auto& f : o.findings) out.insert(kind + ": " + f.key);
  }
  return {out.begin(), out.end()};
}

std::vector<uint64_t> symbolic_values(const programs::Instruction& in,
                                      const std::vector<std::array<uint64_t, 4>>& sources) {
  z3::context ctx;
  const Z3Int d{&ctx};
  std::vector<uint64_t> out;
  for (const auto& s : sources) {
    const std::array<z3::expr, 4> src{d.k(s[0]), d.k(s[1]), d.k(s[2]), d.k(s[3])};
    const z3::expr r = programs::alu::value(d, in, src).simplify();
    if (!r.is_numeral())
      throw std::logic_error("the symbolic arithmetic did not fold: " + r.to_string());
    out.push_back(r.get_numeral_uint64());
  }
  return out;
}

InputAnswer explore_inputs(const Program& p, const Launch& seed, const InputQuery& q) {
  if (seed.params.size() != p.params.size())
    throw std::invalid_argument("the kernel takes " + std::to_string(p.params.size()) +
                                " parameters, the launch gives " +
                                std::to_string(seed.params.size()));
  z3::context ctx;
  auto terms = std::make_shared<Z3Terms>(ctx, p, seed, q.unknown);
  InputAnswer out;
  for (const auto& v : terms->unknowns()) out.names.push_back(v.to_string());
  // The inputs of no class walked so far: outside each class's pins. Asked afresh each time of
  // a bit-blasting solver, which answers these in a fraction of the incremental one's time.
  z3::expr_vector rest(ctx);
  Launch input = seed;
  input.terms.reset();
  std::vector<z3::expr> conditions;
  bool walks_complete = true;
  for (;;) {
    terms->clear_pins();
    Launch walked = input;
    walked.terms = terms;
    programs::ExploreOptions o = q.explore;
    o.enough = nullptr;
    InputClass c;
    c.exploration = programs::explore(p, walked, o);
    c.launch = input;
    walks_complete = walks_complete && c.exploration.complete;
    const z3::expr_vector& pins = terms->pins();
    z3::expr cls = pins.empty() ? ctx.bool_val(true) : z3::mk_and(pins);
    // The input walked must keep every pin: else the terms and the run disagree.
    const z3::expr_vector values = assignment(ctx, *terms, input);
    z3::expr_vector from(ctx), to(ctx);
    for (unsigned i = 0; i < values.size(); ++i) {
      from.push_back(values[i].arg(0));
      to.push_back(values[i].arg(1));
    }
    if (!cls.substitute(from, to).simplify().is_true())
      throw std::logic_error(
          "the terms of the unknown inputs disagree with the run of the input "
          "they were built on");
    c.pins = pins.size();
    ask_schedules(ctx, p, *terms, cls, q, c);
    for (unsigned i = 0; i < pins.size() && i < q.shown_pins; ++i) {
      c.condition += pins[i].to_string() + "\n";
      int budget = 400;
      c.when.push_back(readable(pins[i], budget).value_or("(too long to show: see \"condition\")"));
    }
    out.classes.push_back(std::move(c));
    if (q.progress) q.progress(out.classes.size());
    rest.push_back(!cls);
    conditions.push_back(cls);
    if (out.classes.size() >= q.max_classes) {
      out.why_not = "stopped after " + std::to_string(q.max_classes) +
                    (q.max_classes == 1 ? " class" : " classes") +
                    " of inputs (--max-classes); others may remain";
      break;
    }
    const Outcome next = solve(ctx, rest, {q.solver_timeout_ms, 0});
    if (next.unsat()) {
      out.complete = walks_complete;
      if (!walks_complete) out.why_not = "some walk stopped at a limit (see its outcomes)";
      break;
    }
    if (next.unknown()) {
      out.why_not = "Z3 could not find the next input: " + next.reason;
      break;
    }
    input = input_from(*next.model, *terms, input);
  }
  for (std::size_t i = 0; i < out.classes.size(); ++i) {
    const auto ends = ends_of(out.classes[i].exploration);
    auto g = std::find_if(out.groups.begin(), out.groups.end(),
                          [&](const InputGroup& x) { return x.ends == ends; });
    if (g == out.groups.end()) {
      out.groups.push_back({ends, {}, {}, false, false});
      g = out.groups.end() - 1;
      const auto& x = out.classes[i].exploration;
      g->bad = x.any(programs::PathEnd::Kind::Deadlock) || x.any_undefined() ||
               x.any(programs::PathEnd::Kind::Race);
    }
    g->classes.push_back(i);
  }
  {
    using S = InputClass::Schedules;
    bool all = out.complete, differs = false, unknown = false;
    for (const auto& c : out.classes) {
      differs = differs || c.schedules == S::Differs;
      unknown = unknown || c.schedules == S::Unknown;
      all = all && (c.schedules == S::One || c.schedules == S::Proved);
    }
    out.schedules = differs ? S::Differs : all ? S::Proved : unknown ? S::Unknown : S::NotAsked;
  }
  // One scalar unknown: each group's values as ranges.
  if (terms->unknowns().size() == 1 && terms->by_param().begin()->second.size() == 1 &&
      !seed.params[terms->by_param().begin()->first].is_buffer)
    for (auto& g : out.groups) {
      z3::expr_vector any(ctx);
      for (std::size_t i : g.classes) any.push_back(conditions[i]);
      value_ranges(ctx, terms->unknowns()[0], z3::mk_or(any), q.solver_timeout_ms, g);
    }
  return out;
}

}  // namespace warpspec::checker
