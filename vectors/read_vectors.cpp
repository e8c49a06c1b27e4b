// Reading the vector file (docs/vectors.md): the header line and the vector lines, each read once
// in any key order, strictly: a member the format does not have, or one given twice, is refused.
#include <algorithm>
#include <array>
#include <bitset>
#include <cinttypes>
#include <cstring>
#include <unordered_map>

#include "model/render.hpp"
#include "vectors/format.hpp"
#include "vectors/values.hpp"

namespace warpspec::vectors {

namespace {

constexpr uint32_t bit(int k) {
  return uint32_t{1} << k;
}

enum HeaderMember { kSchema, kTarget, kPtx, kSeed, kCount };
constexpr json::Names<5> kHeaderNames{"schema", "target", "ptx", "seed", "vectors"};

enum VectorMember { kId, kForm, kInstruction, kUb, kSource, kClauses, kRounds };
constexpr json::Names<7> kVectorNames{"id",     "form",    "instruction", "ub",
                                      "source", "clauses", "rounds"};

enum RoundMember {
  kThreads,
  kExited,
  kInactive,
  kMask,
  kA,
  kSite,
  kB,
  kC,
  kExpect,
  kBar,
  kCountMember,
  kPartner
};
constexpr json::Names<12> kRoundNames{"threads", "exited", "inactive", "mask", "a",     "site",
                                      "b",       "c",      "expect",   "bar",  "count", "partner"};

enum ExpectMember { kDefined, kDDefined, kD, kP, kFindings };
constexpr json::Names<5> kExpectNames{"defined", "d_defined", "d", "p", "ub"};

constexpr json::Names<2> kFindingNames{"clause", "lanes"};

// What the rounds of a vector line hold, from its instruction.
struct Shape {
  bool cta = false;
  bool want_bar = false, want_count = false;  // block barriers: a and b from registers
  bool want_d = false, want_p = false;        // expect.d and expect.p are written
  bool has_a = false;                         // the form has a source operand
  int a_bits = 32;                            // its width in a warp round (block rounds: 32)
  std::optional<uint32_t> imm_mask;           // warp rounds have no "mask" when it is an immediate
  bool has_mask = true;                       // ... nor when the form has none (activemask)
  bool want_b = false, want_c = false;        // shuffles: per-lane b and c, unless immediates
  bool loose_d = false;                       // expect.d_defined is written (shuffles)
  int d_bits = 32;                            // expect.d's width: 64 for a 64-bit shuffle overload
};

Shape shape_of(const spec::ParsedInstr& in) {
  const auto& f = spec::form_info(in.instr.form);
  const auto syn = spec::value_syntax(in);
  Shape s;
  s.cta = !spec::is_warp_form(f.id);
  s.want_d = spec::writes_d(in.instr);
  s.want_p = in.instr.write_p;
  s.has_a = !syn.none;
  s.a_bits = s.cta ? 32 : syn.bits;
  s.imm_mask = in.instr.imm_mask;
  s.has_mask = spec::has_membermask(f.id);
  s.want_b = spec::has_operands_bc(f.id) && !in.instr.imm_b;
  s.want_c = spec::has_operands_bc(f.id) && !in.instr.imm_c;
  s.loose_d = !s.cta && spec::has_loose_d(f.id);
  s.want_bar = s.cta && !in.instr.imm_bar;
  s.want_count = s.cta && in.instr.has_count && !in.instr.imm_count;
  s.d_bits = in.instr.wide ? 64 : 32;
  return s;
}

std::string lanes_text(const std::vector<uint8_t>& bits) {
  std::vector<unsigned> xs;
  for (unsigned i = 0; i < bits.size(); ++i)
    if (bits[i]) xs.push_back(i);
  return xs.empty() ? std::string("none") : model::format_threads(xs);
}

// Where the file's expectation of a round departs from the specification's, in words; empty
// when they agree (on the defined set, d and p on defined lanes, and the UB findings).
std::string departure(const spec::ParsedInstr& in, const Expected& file, const Expected& spec) {
  if (file.defined != spec.defined)
    return "defined is " + lanes_text(file.defined) + ", but the specification defines " +
           lanes_text(spec.defined);
  if (file.d_defined != spec.d_defined)
    return "d_defined is " + lanes_text(file.d_defined) + ", but the specification pins d on " +
           lanes_text(spec.d_defined);
  const bool want_d = spec::writes_d(in.instr);
  char b[112];
  const int digits = in.instr.wide ? 16 : 8;
  for (unsigned i = 0; i < spec.defined.size(); ++i) {
    if (!spec.defined[i]) continue;
    if (want_d && spec.d_defined[i] && !same_d(file, spec, i)) {
      std::snprintf(b, sizeof b,
                    "d is 0x%0*" PRIx64 " on lane %u, but the specification gives 0x%0*" PRIx64,
                    digits, d_value(file, i), i, digits, d_value(spec, i));
      return b;
    }
    if (in.instr.write_p && file.p[i] != spec.p[i]) {
      std::snprintf(b, sizeof b, "p is %u on lane %u, but the specification gives %u",
                    unsigned{file.p[i]}, i, unsigned{spec.p[i]});
      return b;
    }
  }
  auto sorted = [](auto ub) {
    std::sort(ub.begin(), ub.end());
    return ub;
  };
  if (file.ub != spec.ub && sorted(file.ub) != sorted(spec.ub)) {
    std::string s = "ub lists";
    for (const auto& [c, l] : file.ub)
      s += std::string(" ") + std::string(spec::clause_info(c).key);
    if (file.ub.empty()) s += " nothing";
    s += ", but the specification finds";
    for (const auto& [c, l] : spec.ub)
      s += std::string(" ") + std::string(spec::clause_info(c).key);
    if (spec.ub.empty()) s += " no undefined behaviour";
    return s + " (or on other lanes)";
  }
  return {};
}

// Parsed instructions and clauses, keyed by their text and looked up without a copy.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// spec::find_clause, hashed: every line names clauses.
std::optional<spec::ClauseId> clause_of(std::string_view key) {
  static const auto table = [] {
    std::unordered_map<std::string, spec::ClauseId, TextHash, std::equal_to<>> t;
    for (const auto& c : spec::kClauses) t.emplace(std::string(c.key), c.id);
    return t;
  }();
  const auto it = table.find(key);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

}  // namespace

VectorsHeader parse_header(const json::Line& line, const std::string& file) {
  json::Document doc(file);
  auto root = doc.open(line);
  // The schema first: another version of the format may hold other members.
  const json::Path schema_at(root.path(), "schema");
  auto schema = root.find("schema", schema_at);
  if (!schema)
    root.fail("expected a header line with \"schema\": \"" + std::string(kVectorsSchema) + "\"");
  if (const auto s = schema->string(); s != kVectorsSchema)
    schema->fail("\"" + spec::shown_text(s) + "\" is not supported; expected \"" +
                 std::string(kVectorsSchema) + "\"");
  root.reset();
  VectorsHeader h;
  const uint32_t seen = root.members(kHeaderNames, [&](int k, json::Value& m) {
    switch (k) {
      case kSchema:
        break;  // read above
      case kTarget:
        if (const auto t = spec::parse_target(m.string()))
          h.target = *t;
        else
          m.expected("a target such as \"sm_90\"");
        break;
      case kPtx:
        if (const auto p = spec::parse_ptx(m.string()))
          h.ptx = *p;
        else
          m.expected("a PTX ISA version such as \"8.6\"");
        break;
      case kSeed:
        h.seed = m.uint();
        break;
      case kCount:
        h.count = m.uint();
        break;
      default:
        root.unknown(m);
    }
  });
  h.count_given = seen & bit(kCount);
  doc.finish();
  return h;
}

VectorsHeader parse_header(std::string_view line, const std::string& file) {
  json::PaddedLine copy;
  return parse_header(copy.set(line, 1), file);
}

struct VectorReader::Impl {
  Impl(std::string file, VectorsHeader h) : doc(std::move(file)), header(h) {}

  void read(const json::Line& line);
  void expect();
  const spec::ParsedInstr& instruction(json::Value& v);
  void rounds(json::Value& v);
  void round(json::Value& v, const Shape& s, Round& r, Expected& e);
  void expectation(json::Value& v, const Shape& s, std::size_t n, Expected& e);
  void finding(json::Value& v, std::size_t n, std::pair<spec::ClauseId, std::vector<unsigned>>& f);

  json::Document doc;
  json::PaddedLine copy;
  VectorsHeader header;
  std::unordered_map<std::string, spec::ParsedInstr, TextHash, std::equal_to<>> instrs;
  std::string last_text;                         // the last instruction text looked up ...
  const spec::ParsedInstr* last = nullptr;       // ... and what it parsed to
  std::string form_text;                         // the last "form" found to name ...
  std::optional<spec::FormId> form_id;           // ... this form
  const spec::ParsedInstr* in_vector = nullptr;  // the instruction cur.vector holds a copy of
  VectorExpect cur;
  std::vector<Expected> derived;  // expect()'s answer; swapped with cur.rounds
  std::vector<uint8_t> flags;     // a UB finding's lanes
  std::vector<uint64_t> wide;     // a 64-bit expect.d as read, before it is cut into two words
  // Where the line states what expect() holds to the specification.
  const char* ub_at = nullptr;
  std::vector<const char*> expect_at;
};

VectorReader::VectorReader(std::string file, VectorsHeader header)
    : impl_(std::make_unique<Impl>(std::move(file), header)) {}
VectorReader::~VectorReader() = default;
VectorReader::VectorReader(VectorReader&&) noexcept = default;

const VectorExpect& VectorReader::read(const json::Line& line) {
  impl_->read(line);
  return impl_->cur;
}

const VectorExpect& VectorReader::expect(const json::Line& line) {
  impl_->read(line);
  impl_->expect();
  return impl_->cur;
}

const VectorExpect& VectorReader::read(std::string_view line, std::size_t line_no) {
  return read(impl_->copy.set(line, line_no));
}

const VectorExpect& VectorReader::expect(std::string_view line, std::size_t line_no) {
  return expect(impl_->copy.set(line, line_no));
}

Vector VectorReader::full(std::string_view line, std::size_t line_no) {
  return read(line, line_no).vector;
}

void VectorReader::Impl::expect() {
  // The whole line has been read and validated, as `vectors --in` reads it; now the
  // expectations are derived again (by the fast implementation, proved equal to the model) and
  // must be the ones the file states: a file whose `expect` was edited, or made for another
  // target or by another version of the specification, is refused rather than trusted.
  expected_fast(cur.vector, header.target, header.ptx, derived);
  const auto stale =
      "the file was edited or made by another version of warpspec: make it again "
      "with 'warpspec vectors'";
  const json::Path root, rounds_at(root, "rounds");
  for (std::size_t k = 0; k < derived.size(); ++k) {
    const auto why = departure(*cur.instr, cur.rounds[k], derived[k]);
    if (why.empty()) continue;
    const json::Path round_at(rounds_at, k), at(round_at, "expect");
    doc.fail(expect_at[k], at,
             why + " for this state on " + spec::to_string(header.target) + " (vector " +
                 std::to_string(cur.id) + "); " + stale);
  }
  if (cur.ub != has_ub(derived))
    doc.fail(ub_at, json::Path(root, "ub"),
             std::string(cur.ub ? "true" : "false") + ", but the specification says " +
                 (cur.ub ? "no round has" : "some round has") + " undefined behaviour (vector " +
                 std::to_string(cur.id) + "); " + stale);
  std::swap(cur.rounds, derived);  // both keep their storage for the next line
}

void VectorReader::Impl::read(const json::Line& line) {
  auto root = doc.open(line);
  Vector& v = cur.vector;
  cur.instr = nullptr;
  cur.clauses.clear();
  v.source.clear();
  std::string_view form;
  const char* form_at = nullptr;
  bool rounds_later = false;
  const uint32_t seen = root.members(kVectorNames, [&](int k, json::Value& m) {
    switch (k) {
      case kId:
        cur.id = values::id(m);
        break;
      case kForm:
        form = m.string();
        form_at = m.at();
        break;
      case kInstruction:
        cur.instr = &instruction(m);
        break;
      case kUb:
        ub_at = m.at();
        cur.ub = m.boolean();
        break;
      case kSource:
        v.source.assign(m.string());
        if (v.source != "witness" && v.source != "boundary" && v.source != "random" &&
            v.source != "intrinsic")
          m.expected("\"witness\", \"boundary\", \"random\" or \"intrinsic\"");
        break;
      case kClauses:
        m.array().each([&](std::size_t, json::Value& c) {
          const auto id = clause_of(c.string());
          if (!id) c.fail("not a clause of the catalog (warpspec explain FORM lists a form's)");
          cur.clauses.push_back(*id);
        });
        break;
      case kRounds:
        // The rounds are read with the instruction, which tells what they hold.
        if (cur.instr)
          rounds(m);
        else
          rounds_later = true;
        break;
      default:
        root.unknown(m);
    }
  });
  root.require(kVectorNames, seen, bit(kId) | bit(kInstruction) | bit(kUb) | bit(kRounds));
  doc.finish();
  if (rounds_later) {
    root.reset();
    const json::Path at(root.path(), "rounds");
    auto r = root.find("rounds", at);
    rounds(*r);
  }
  if (form_at && (form != form_text || form_id != cur.instr->instr.form)) {
    const json::Path at(root.path(), "form");
    const auto f = spec::find_form(form);
    if (!f)
      doc.fail(form_at, at,
               "'" + spec::shown_text(form) + "' is not a form of the catalog (warpspec list)");
    if (*f != cur.instr->instr.form)
      doc.fail(form_at, at,
               "the form is " + std::string(form) + ", but the instruction is a " +
                   std::string(spec::form_info(cur.instr->instr.form).name));
    form_text.assign(form);
    form_id = f;
  }
  v.id = cur.id;
  if (in_vector != cur.instr) {
    v.instr = *cur.instr;
    in_vector = cur.instr;
  }
  v.clauses = cur.clauses;
}

const spec::ParsedInstr& VectorReader::Impl::instruction(json::Value& v) {
  const std::string_view text = v.string();
  if (last && text == last_text) return *last;  // vectors come grouped by form
  auto it = instrs.find(text);
  if (it == instrs.end()) {
    auto r = spec::parse_instruction(text);
    if (const auto* e = std::get_if<spec::ParseError>(&r)) {
      // Point at the character the parser names when the string is written without escapes.
      const bool plain = text.data() == v.at() + 1;  // read where it lies: no escapes
      v.doc().fail(plain ? v.at() + e->column : v.at(), v.path(),
                   (plain ? "" : "column " + std::to_string(e->column) + ": ") + e->message);
    }
    const auto& parsed = std::get<spec::ParsedInstr>(r);
    // The header's target and PTX ISA version must have the form: the expectations of a form
    // the target lacks mean nothing (an implementation must refuse it, not answer).
    const auto& form = spec::form_info(parsed.instr.form);
    if (const auto av = spec::check_availability(form.avail, header.target, header.ptx);
        !av.available)
      v.fail(std::string(form.name) + " is not available on the header's target (" + av.reason +
             ")");
    it = instrs.emplace(std::string(text), std::get<spec::ParsedInstr>(std::move(r))).first;
  }
  last_text.assign(text);
  last = &it->second;
  return *last;
}

void VectorReader::Impl::rounds(json::Value& v) {
  const Shape s = shape_of(*cur.instr);
  auto& rs = cur.vector.rounds;
  expect_at.clear();
  const std::size_t n = v.array().each([&](std::size_t k, json::Value& r) {
    if (cur.rounds.size() <= k) cur.rounds.resize(k + 1);
    if (rs.size() <= k) rs.resize(k + 1);
    round(r, s, rs[k], cur.rounds[k]);
  });
  if (n == 0) v.fail("expected at least one round");
  cur.rounds.resize(n);
  rs.resize(n);
}

void VectorReader::Impl::round(json::Value& v, const Shape& s, Round& r, Expected& e) {
  auto o = v.object();
  std::size_t n = spec::kWarpSize;
  auto& c = r.cta;
  auto& w = r.warp;
  if (s.cta) {
    // The block's size first: the other members are lists of its threads.
    const json::Path at(o.path(), "threads");
    auto t = o.find("threads", at);
    if (!t) o.fail("missing field \"threads\"");
    const uint64_t threads = values::id(*t);
    if (threads == 0 || threads > model::kMaxCtaThreads) t->expected("1 to 1024 threads");
    n = static_cast<std::size_t>(threads);
    o.reset();
    w = model::Warp{};
    c = model::Cta{};
    model::resize_cta(c, n);
  } else {
    c = model::Cta{};
    if (s.imm_mask) w.mask.fill(*s.imm_mask);
    if (!s.has_mask) w.mask.fill(0);
    if (!s.has_a) w.a.fill(0);
    w.site.fill(0);
    w.b.fill(0);
    w.c.fill(0);
  }
  uint32_t exited = 0, inactive = 0;  // a warp's
  // A block's exited and inactive threads, which must not meet, as a warp's lanes must not.
  std::bitset<model::kMaxCtaThreads> gone, elsewhere;
  auto mark = [&](json::Value& m, auto& mine, const auto& other, unsigned lo, unsigned hi) {
    for (unsigned t = lo; t <= hi; ++t) {
      if (other[t]) m.fail("thread " + std::to_string(t) + " is both exited and inactive");
      mine[t] = true;
    }
  };
  const uint32_t seen = o.members(kRoundNames, [&](int k, json::Value& m) {
    switch (k) {
      case kThreads:
        if (!s.cta) m.refuse("a warp round has no \"threads\": it has 32 lanes");
        break;  // read above
      case kExited:
        if (!s.cta) {
          exited = values::lane_word(m);
          break;
        }
        values::lane_set(m, n, [&](unsigned lo, unsigned hi) {
          mark(m, gone, elsewhere, lo, hi);
          std::fill(c.exited.begin() + lo, c.exited.begin() + hi + 1, true);
          std::fill(c.arrive.begin() + lo, c.arrive.begin() + hi + 1, false);
        });
        break;
      case kInactive:
        if (!s.cta) {
          inactive = values::lane_word(m);
          break;
        }
        values::lane_set(m, n, [&](unsigned lo, unsigned hi) {
          mark(m, elsewhere, gone, lo, hi);
          std::fill(c.arrive.begin() + lo, c.arrive.begin() + hi + 1, false);
        });
        break;
      case kMask:
        if (s.cta) m.refuse("a block round has no \"mask\"");
        if (s.imm_mask) m.refuse("the instruction's membermask is an immediate: no \"mask\" here");
        if (!s.has_mask) m.refuse("the instruction has no membermask: no \"mask\" here");
        values::lane_list(m, n, 32, w.mask.data());
        break;
      case kA:
        if (!s.has_a) m.refuse("the instruction has no source operand a");
        if (s.cta)
          values::lane_list(m, n, 32, c.pred.data());
        else
          values::lane_list(m, n, s.a_bits, w.a.data());
        break;
      case kSite:
        if (s.cta) m.refuse("a block round has no \"site\"");
        values::lane_list(m, n, 32, w.site.data());
        break;
      case kB:
        if (!s.want_b) m.refuse("the instruction has no register operand b");
        values::lane_list(m, n, 32, w.b.data());
        break;
      case kC:
        if (!s.want_c) m.refuse("the instruction has no register operand c");
        values::lane_list(m, n, 32, w.c.data());
        break;
      case kExpect:
        expect_at.push_back(m.at());
        expectation(m, s, n, e);
        break;
      case kBar:
        if (!s.want_bar) m.refuse("the instruction has no register barrier number a");
        values::lane_list(m, n, 32, c.bar.data());
        break;
      case kCountMember:
        if (!s.want_count) m.refuse("the instruction has no register thread count b");
        values::lane_list(m, n, 32, c.count.data());
        break;
      case kPartner:
        if (!s.cta) m.refuse("a warp round has no \"partner\"");
        values::lane_set(m, n, [&](unsigned lo, unsigned hi) {
          std::fill(c.partner.begin() + lo, c.partner.begin() + hi + 1, true);
        });
        break;
      default:
        o.unknown(m);
    }
  });
  o.require(kRoundNames, seen,
            bit(kExited) | bit(kInactive) | bit(kExpect) | (s.cta ? bit(kThreads) : 0) |
                (!s.cta && !s.imm_mask && s.has_mask ? bit(kMask) : 0) | (s.has_a ? bit(kA) : 0) |
                (s.want_b ? bit(kB) : 0) | (s.want_c ? bit(kC) : 0) | (s.want_bar ? bit(kBar) : 0) |
                (s.want_count ? bit(kCountMember) : 0));
  if (s.cta) return;
  if (const uint32_t both = exited & inactive)
    o.fail("lane " + std::to_string(__builtin_ctz(both)) + " is both exited and inactive");
  const uint32_t exec = ~(exited | inactive);
  std::array<uint8_t, spec::kWarpSize> flags;
  static_assert(sizeof(bool) == 1 && sizeof(w.exec) == sizeof(flags));
  bits_to_flags(&exec, spec::kWarpSize, flags.data());
  std::memcpy(w.exec.data(), flags.data(), flags.size());  // 0 and 1 are false and true
  bits_to_flags(&exited, spec::kWarpSize, flags.data());
  std::memcpy(w.exited.data(), flags.data(), flags.size());
}

void VectorReader::Impl::expectation(json::Value& v, const Shape& s, std::size_t n, Expected& e) {
  auto o = v.object();
  e.defined.assign(n, 0);
  e.d.assign(n, 0);
  if (s.d_bits == 64)
    e.d_hi.assign(n, 0);
  else
    e.d_hi.clear();
  e.p.assign(n, 0);
  bool d_defined_given = false;
  std::size_t u = 0;
  const uint32_t seen = o.members(kExpectNames, [&](int k, json::Value& m) {
    switch (k) {
      case kDefined:
        if (n == spec::kWarpSize) {
          const uint32_t w = values::lane_word(m);
          bits_to_flags(&w, n, e.defined.data());
          break;
        }
        values::lane_set(m, n, [&](unsigned lo, unsigned hi) {
          std::fill(e.defined.begin() + lo, e.defined.begin() + hi + 1, uint8_t{1});
        });
        break;
      case kDDefined: {
        if (!s.loose_d) m.refuse("only a form whose d alone can be undefined has \"d_defined\"");
        const uint32_t w = values::lane_word(m);
        e.d_defined.assign(n, 0);
        bits_to_flags(&w, n, e.d_defined.data());
        d_defined_given = true;
        break;
      }
      case kD:
        if (!s.want_d) m.refuse("the instruction writes no d");
        if (s.d_bits == 64) {  // a 64-bit shuffle overload: the high word goes to d_hi
          wide.resize(n);
          values::lane_list(m, n, 64, wide.data());
          e.d_hi.resize(n);
          for (std::size_t i = 0; i < n; ++i) {
            e.d[i] = static_cast<uint32_t>(wide[i]);
            e.d_hi[i] = static_cast<uint32_t>(wide[i] >> 32);
          }
          break;
        }
        values::lane_list(m, n, 32, e.d.data());
        break;
      case kP: {
        if (!s.want_p) m.refuse("the instruction writes no predicate p");
        const auto w = static_cast<uint32_t>(values::lane_value(m, 32));
        bits_to_flags(&w, std::min<std::size_t>(n, 32), e.p.data());
        break;
      }
      case kFindings:
        m.array().each([&](std::size_t, json::Value& f) {
          if (e.ub.size() <= u) e.ub.resize(u + 1);
          finding(f, n, e.ub[u++]);
        });
        break;
      default:
        o.unknown(m);
    }
  });
  o.require(kExpectNames, seen,
            bit(kDefined) | (s.loose_d ? bit(kDDefined) : 0) | (s.want_d ? bit(kD) : 0) |
                (s.want_p ? bit(kP) : 0));
  e.ub.resize(u);
  e.executes = e.defined;
  if (!d_defined_given) e.d_defined = e.defined;
}

void VectorReader::Impl::finding(json::Value& v, std::size_t n,
                                 std::pair<spec::ClauseId, std::vector<unsigned>>& f) {
  auto o = v.object();
  auto& lanes = f.second;
  lanes.clear();
  const uint32_t seen = o.members(kFindingNames, [&](int k, json::Value& m) {
    if (k == 0) {
      const auto clause = clause_of(m.string());
      if (!clause) m.fail("unknown clause " + json::found(doc.line().text, m.at()));
      f.first = *clause;
    } else if (k == 1 && n == spec::kWarpSize) {
      for (uint32_t w = values::lane_word(m); w; w &= w - 1)
        lanes.push_back(static_cast<unsigned>(__builtin_ctz(w)));
    } else if (k == 1) {
      flags.assign(n, 0);
      values::lane_set(m, n, [&](unsigned lo, unsigned hi) {
        std::fill(flags.begin() + lo, flags.begin() + hi + 1, uint8_t{1});
      });
      for (unsigned i = 0; i < n; ++i)
        if (flags[i]) lanes.push_back(i);
    } else {
      o.unknown(m);
    }
  });
  o.require(kFindingNames, seen, bit(0) | bit(1));
}

}  // namespace warpspec::vectors
