#include "vectors/intrinsics.hpp"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "spec/instr_parse.hpp"

namespace warpspec::vectors {

namespace {

using spec::CType;

bool is_block(const spec::IntrinsicInfo& in) { return !spec::is_warp_form(in.form); }

spec::ParsedInstr parse_call(const spec::IntrinsicInfo& in) {
  auto p = spec::parse_instruction(intrinsic_call(in));
  if (auto* e = std::get_if<spec::ParseError>(&p))
    throw std::logic_error("intrinsic call '" + intrinsic_call(in) + "' does not parse: " +
                           e->message);
  return std::get<spec::ParsedInstr>(std::move(p));
}

// The corners of a C type, as bit patterns, in rows: each row is spread over the lanes in turn.
std::vector<std::vector<uint64_t>> value_rows(const spec::IntrinsicInfo& in) {
  const auto& f = spec::form_info(in.form);
  if (f.family == spec::Family::Vote || f.family == spec::Family::CtaBarrier)
    // int predicates: true when non-zero, whatever the bits
    return {{0, 1, 2, 0xffffffffu, 0x80000000u, 0x100}, {0x100, 0}, {2}, {0}, {0xffffffffu}};
  switch (in.value_type) {
    case CType::Float:
      return {{0x00000000, 0x80000000, 0x7fc00000, 0x7fc00001, 0x7f800001, 0xffc00000,
               0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x3f800000, 0xbf800000},
              {0x00000000, 0x80000000},  // +0.0 and -0.0: different bits
              {0x7fc00001},              // one NaN everywhere: equal bits
              {0x7fc00000, 0x7fc00001},  // two NaN payloads
              {0x3f800000, 0x3f800000, 0x3f800000, 0x7fc00000},  // a NaN among numbers
              {0x00000001, 0x00000000},                          // a subnormal and zero
              {0x80000000}};
    case CType::Double:
      return {{0x0000000000000000ull, 0x8000000000000000ull, 0x7ff8000000000000ull,
               0x7ff8000000000001ull, 0x7ff0000000000001ull, 0xfff8000000000000ull,
               0x7ff0000000000000ull, 0xfff0000000000000ull, 0x0000000000000001ull,
               0x800fffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull},
              {0x0000000000000000ull, 0x8000000000000000ull},
              {0x7ff8000000000001ull},
              {0x7ff8000000000000ull, 0x7ff8000000000001ull},
              {0x3ff0000000000000ull, 0x3ff0000000000000ull, 0x3ff0000000000000ull,
               0x7ff8000000000000ull},
              {0x0000000100000000ull, 0x0000000000000000ull},  // equal low halves
              {0x8000000000000000ull}};
    case CType::Int:
      return {{0x80000000u, 0xffffffffu, 0, 1, 0x7fffffffu},
              {0x7fffffffu, 1},  // a signed sum leaves the int range
              {0x80000000u, 0xffffffffu},
              {0x80000000u},
              {0x80000001u, 0x7fffffffu, 0xfffffffeu}};
    case CType::Unsigned:
      return {{0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu},
              {0xffffffffu, 1},
              {0x80000000u},
              {0x7fffffffu, 0x80000000u}};
    case CType::Long:
    case CType::LongLong:
      return {{0x8000000000000000ull, ~0ull, 0, 1, 0x7fffffffffffffffull},
              {0x00000000ffffffffull, 0xffffffff00000000ull},
              {0x0000000100000000ull, 0},
              {0x8000000000000000ull}};
    case CType::UnsignedLong:
    case CType::UnsignedLongLong:
      return {{0, 1, ~0ull, 0x8000000000000000ull, 0x00000000ffffffffull},
              {0x0000000100000000ull, 0},
              {~0ull}};
    case CType::Void:
      return {{0}};
  }
  return {{0}};
}

Vector warp_vector(const spec::ParsedInstr& call, const std::vector<uint64_t>& row, int layout) {
  Vector v;
  v.instr = call;
  v.source = "intrinsic";
  v.rounds.resize(1);
  auto& w = v.rounds[0].warp;
  w = model::make_warp(0xffffffffu);
  for (unsigned i = 0; i < 32; ++i) w.a[i] = row[i % row.size()];
  if (layout == 1)  // a full membermask that names exited lanes 28-31
    for (unsigned i = 28; i < 32; ++i) model::set_status(w, i, model::LaneStatus::Exited);
  if (!spec::has_membermask(call.instr.form)) {
    // No membermask (__activemask): in place of two groups, lanes 16-31 stay elsewhere.
    w.mask.fill(0);
    if (layout == 2)
      for (unsigned i = 16; i < 32; ++i) model::set_status(w, i, model::LaneStatus::Inactive);
    return v;
  }
  if (layout == 2)  // two groups of 16, each with its own membermask
    for (unsigned i = 0; i < 32; ++i) w.mask[i] = i < 16 ? 0x0000ffffu : 0xffff0000u;
  return v;
}

Vector block_vector(const spec::ParsedInstr& call, const std::vector<uint64_t>& row,
                    std::size_t threads, bool exits) {
  Vector v;
  v.instr = call;
  v.source = "intrinsic";
  v.rounds.resize(1);
  auto& c = v.rounds[0].cta;
  c = model::make_cta(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    c.arrive[t] = true;
    c.pred[t] = static_cast<uint32_t>(row[t % row.size()]);
  }
  if (exits)
    for (std::size_t t = threads - 4; t < threads; ++t) c.exited[t] = true, c.arrive[t] = false;
  return v;
}

// A shuffle call with a width: the call text with the width written after b (32 is the
// default and is left out).
spec::ParsedInstr shuffle_call(const spec::IntrinsicInfo& in, uint32_t width) {
  auto text = intrinsic_call(in);
  if (width != 32) text.insert(text.size() - 1, ", " + std::to_string(width));
  auto p = spec::parse_instruction(text);
  if (auto* e = std::get_if<spec::ParseError>(&p))
    throw std::logic_error("intrinsic call '" + text + "' does not parse: " + e->message);
  return std::get<spec::ParsedInstr>(std::move(p));
}

// The width a c operand stands for, when it is the one an intrinsic passes for some width.
std::optional<uint32_t> width_of(uint32_t c, spec::Mode mode) {
  for (uint32_t w = 1; w <= 32; w *= 2)
    if (spec::shfl_c_of_width(w, mode) == c) return w;
  return std::nullopt;
}

// The b of each shuffle vector: one offset for all lanes, or (kLaneByLane) lane by lane.
constexpr uint32_t kLaneByLane = 0x100u;
constexpr uint32_t kShuffleB[] = {1u, 5u, 31u, 33u, 0xffffffffu, kLaneByLane};

void set_b(model::Warp& w, uint32_t b) {
  for (unsigned i = 0; i < 32; ++i) w.b[i] = b != kLaneByLane ? b : (7 * i + 3) % 37;
}

// The 64-bit overloads' operands, cycled through so that each meets every layout and b: both
// words naming the lane (the high word unlike the low one), the high word alone naming it (the
// low word the same on every lane, so only a high word read from the wrong lane shows), then
// the type's corner rows (NaN payloads and signed zeros for double, the 64-bit extremes and
// values that differ in one half for the integers).
void wide_operands(model::Warp& w, const std::vector<std::vector<uint64_t>>& rows, std::size_t n) {
  const std::size_t pattern = (n + n / 3) % (rows.size() + 2);
  for (unsigned i = 0; i < 32; ++i) {
    if (pattern == 0)
      w.a[i] = uint64_t{0xa0000000u | (i << 16) | (0x5a00u + i)} << 32 | (0x1000u + 0x101u * i);
    else if (pattern == 1)
      w.a[i] = uint64_t{0x5a000000u + 0x10001u * i} << 32 | 0x0badf00du;
    else
      w.a[i] = rows[pattern - 2][i % rows[pattern - 2].size()];
  }
}

// Shuffle calls: lane-distinct values (so the value read names the lane) or the type's corner
// values, b as one offset for all lanes or lane by lane, at widths 32 and 8, on a full warp,
// with lanes 28-31 exited, and as two groups of 16 with their own masks.
void shuffle_vectors(const spec::IntrinsicInfo& in, std::vector<Vector>& out) {
  const auto rows = value_rows(in);
  if (spec::is_wide_shuffle(in)) {
    std::size_t n = 0;
    for (uint32_t width : {32u, 8u}) {
      const auto call = shuffle_call(in, width);
      for (uint32_t b : kShuffleB)
        for (int layout = 0; layout < 3; ++layout) {
          auto v = warp_vector(call, rows.front(), layout);
          wide_operands(v.rounds[0].warp, rows, n++);
          set_b(v.rounds[0].warp, b);
          out.push_back(std::move(v));
        }
    }
    return;
  }
  for (uint32_t width : {32u, 8u}) {
    const auto call = shuffle_call(in, width);
    int k = 0;
    for (uint32_t b : kShuffleB) {
      for (int layout = 0; layout < 3; ++layout) {
        auto v = warp_vector(call, rows[k++ % rows.size()], layout);
        auto& w = v.rounds[0].warp;
        set_b(w, b);
        if (b != kLaneByLane)
          for (unsigned i = 0; i < 32; ++i)
            if (k % 2) w.a[i] = 0x1000u + 0x101u * i;
        out.push_back(std::move(v));
      }
    }
  }
}

// A base vector spelled as the call, or nothing when the call cannot express it.
std::optional<Vector> as_call(const Vector& base, const spec::ParsedInstr& call) {
  const auto& in = base.instr.instr;
  if (in.negate || !in.write_d) return std::nullopt;
  Vector v = base;
  v.instr = call;
  if (spec::has_operands_bc(in.form)) {
    // The call passes one c, lowered from its width: the base's c must be one such, on every
    // lane of every round; the call writes no p.
    const auto mode = spec::form_info(in.form).mode;
    const uint32_t c = in.imm_c.value_or(base.rounds[0].warp.c[0]);
    const auto width = width_of(c, mode);
    if (!width) return std::nullopt;
    for (const auto& r : base.rounds)
      for (unsigned i = 0; i < 32; ++i)
        if (in.imm_c.value_or(r.warp.c[i]) != c) return std::nullopt;
    v.instr = shuffle_call(*call.intrinsic, *width);
    for (auto& r : v.rounds) r.warp.c.fill(0);
    // A 64-bit overload gets a high word in every operand, unlike the low one and as distinct
    // across lanes (an odd multiplier is one to one): the b32 form's vector moves 32 bits.
    if (v.instr.instr.wide)
      for (auto& r : v.rounds)
        for (auto& a : r.warp.a) {
          const auto lo = static_cast<uint32_t>(a);
          a = uint64_t{lo * 0x9e3779b1u + 0x7f4a7c15u} << 32 | lo;
        }
  }
  if (in.imm_mask)
    for (auto& r : v.rounds) r.warp.mask.fill(*in.imm_mask);
  return v;
}

}  // namespace

std::string intrinsic_call(const spec::IntrinsicInfo& in) {
  const std::string name(in.name);
  const auto& f = spec::form_info(in.form);
  if (in.value_type == CType::Void) return name + (in.has_mask ? "(m)" : "()");
  if (f.family == spec::Family::CtaBarrier) return name + "(p)";
  if (f.family == spec::Family::Vote) return name + "(m, p)";
  const std::string value = "(" + std::string(spec::ctype_name(in.value_type)) + ")a";
  if (f.family == spec::Family::Shfl) return name + "(m, " + value + ", b)";
  return name + "(m, " + value + (in.pred_out ? ", &pred)" : ")");
}

std::string intrinsic_key(const spec::IntrinsicInfo& in) {
  std::string key(in.name);
  while (!key.empty() && key.front() == '_') key.erase(key.begin());
  if (key.size() > 5 && key.ends_with("_sync") && key != "syncwarp") key.resize(key.size() - 5);
  const auto& f = spec::form_info(in.form);
  if (f.family == spec::Family::Match || f.family == spec::Family::Redux ||
      f.family == spec::Family::Shfl) {
    std::string t(spec::ctype_name(in.value_type));
    for (auto& ch : t)
      if (ch == ' ') ch = '_';
    key += "_" + t;
  }
  return key;
}

std::vector<Vector> intrinsic_suite(const Suite& base) {
  std::vector<Vector> out;
  for (const auto& in : spec::all_intrinsics()) {
    const auto& f = spec::form_info(in.form);
    if (!spec::check_availability(f.avail, base.target, base.ptx).available) continue;
    if (!base.coverage.empty() && !base.coverage.count(in.form)) continue;  // --form left it out
    const auto call = parse_call(in);
    for (const auto& v : base.vectors)
      if (v.instr.instr.form == in.form)
        if (auto c = as_call(v, call)) out.push_back(std::move(*c));
    if (f.family == spec::Family::Shfl) {
      shuffle_vectors(in, out);
      continue;
    }
    for (const auto& row : value_rows(in)) {
      if (is_block(in)) {
        out.push_back(block_vector(call, row, 64, false));
        out.push_back(block_vector(call, row, 33, false));
        out.push_back(block_vector(call, row, 64, true));
      } else {
        for (int layout = 0; layout < 3; ++layout) out.push_back(warp_vector(call, row, layout));
      }
    }
  }
  for (std::size_t k = 0; k < out.size(); ++k) out[k].id = k + 1;
  return out;
}

// ------------------------------------------------------------------------------ the C++ driver

namespace {

// An overload as the driver declares and calls it: its return type, its parameter types, and
// how a lane's thread invokes `fn` (the operand's bits turned into the C type).
struct Sig {
  std::string ret, args, call;
};

Sig signature_of(const spec::IntrinsicInfo& in) {
  const auto& f = spec::form_info(in.form);
  const std::string t(spec::ctype_name(in.value_type));
  std::string conv;
  switch (in.value_type) {
    case CType::Float:
      conv = "bits_to<float>(L.a)";
      break;
    case CType::Double:
      conv = "bits_to<double>(L.a)";
      break;
    case CType::Void:
      break;
    default:
      conv = "static_cast<" + t + ">(" + (spec::ctype_bits(in.value_type) == 32
                                              ? std::string("static_cast<uint32_t>(L.a)")
                                              : std::string("L.a")) +
             ")";
  }
  if (f.family == spec::Family::Activemask) return {"unsigned", "", "fn()"};
  if (in.value_type == CType::Void)
    return in.has_mask ? Sig{"void", "unsigned", "fn(L.mask)"} : Sig{"void", "", "fn()"};
  if (f.family == spec::Family::CtaBarrier)
    return {"int", "int", "fn(static_cast<int>(static_cast<uint32_t>(L.a)))"};
  if (f.family == spec::Family::Vote) {
    const std::string r = f.mode == spec::Mode::Ballot ? "unsigned" : "int";
    return {r, "unsigned, int", "fn(L.mask, static_cast<int>(static_cast<uint32_t>(L.a)))"};
  }
  if (f.family == spec::Family::Shfl) {  // bits_of: 32 or 64 bits, as the type has
    const std::string lane = f.mode == spec::Mode::Up || f.mode == spec::Mode::Down
                                 ? "unsigned"
                                 : "int";
    return {t, "unsigned, " + t + ", " + lane + ", int",
            "bits_of(fn(L.mask, " + conv + ", static_cast<" + lane + ">(L.b), v.width))"};
  }
  std::string ret = f.family == spec::Family::Match ? "unsigned" : t;
  if (in.pred_out) return {ret, "unsigned, " + t + ", int*", "fn(L.mask, " + conv + ", &pred)"};
  return {ret, "unsigned, " + t, "fn(L.mask, " + conv + ")"};
}

}  // namespace

std::string emit_cpp_driver(const std::vector<Vector>& vectors, const VectorsHeader& header,
                            EmitStats& stats) {
  stats = {};
  std::map<std::string, std::size_t> index;  // overload key -> its number
  std::vector<const spec::IntrinsicInfo*> used;
  for (const auto& in : spec::all_intrinsics())
    if (index.emplace(intrinsic_key(in), used.size()).second) used.push_back(&in);
  std::ostringstream lanes, rounds, vecs;
  std::size_t offset = 0, round_no = 0, per_line = 0;
  for (const auto& v : vectors) {
    if (!v.instr.intrinsic)
      throw std::invalid_argument("vector " + std::to_string(v.id) + " (" + v.instr.text +
                                  ") is not an intrinsic call: the C++ driver runs intrinsic "
                                  "vectors (warpspec vectors --intrinsics)");
    const auto e = expected(v, header.target, header.ptx);
    const bool ub = has_ub(e);
    stats.skipped_ub += ub;
    const auto& f = spec::form_info(v.instr.instr.form);
    vecs << "  {" << v.id << "ull, " << index.at(intrinsic_key(*v.instr.intrinsic)) << ", "
         << (ub ? 1 : 0) << ", " << v.rounds.size() << ", " << round_no << ", "
         << (f.d_type == spec::ResultType::Pred ? 1 : 0) << ", " << (v.instr.instr.write_p ? 1 : 0)
         << ", " << (f.d_type == spec::ResultType::None ? 0 : 1) << ", "
         << (v.instr.instr.wide ? 1 : 0) << ", "
         << 32 - ((v.instr.instr.imm_c.value_or(0x1f) >> 8) & 0x1f) << "},\n";
    for (const auto& r : v.rounds) {
      const auto records = lane_records(v, r);
      rounds << "  {" << records.size() << ", " << offset << "},\n";
      ++round_no;
      for (const auto& x : records) {
        char b[96];
        std::snprintf(b, sizeof b, "{%u,0x%08xu,0x%016" PRIx64 "ull,%u,0x%08xu},", x.status,
                      x.mask, x.a, x.site, x.b);
        lanes << b;
        if (++per_line % 4 == 0) lanes << "\n";
        ++offset;
      }
    }
    ++stats.vectors;
  }
  stats.kernels = used.size();

  std::ostringstream os;
  os << "// Intrinsic-level conformance vectors and their driver, generated by warpspec.\n"
     << "// Target " << spec::to_string(header.target) << ", PTX ISA "
     << spec::to_string(header.ptx) << ", " << stats.vectors << " vectors (" << stats.skipped_ub
     << " with undefined behaviour are reported skipped unless Runner::run_ub is set).\n"
     << "//\n"
     << "// Header-only C++17, no test framework. Set the intrinsics you implement and run:\n"
     << "//\n"
     << "//   #include \"this_file.hpp\"\n"
     << "//   int main() {\n"
     << "//     warpspec_intrinsics::Runner r;\n"
     << "//     r.match_any_float = [](unsigned mask, float v) { return my_match_any_sync(mask, "
        "v); };\n"
     << "//     r.ballot = my_ballot_sync;   // every member is optional: unset ones are "
        "skipped\n"
     << "//     return r.run(std::cout);     // warpspec check --vectors VECTORS --results -\n"
     << "//   }\n"
     << "//\n"
     << "// Each round runs on one thread per lane (per thread, for the __syncthreads family),\n"
     << "// drawn from a pool that lives as long as the Runner:\n"
     << "// exited lanes and lanes that do not execute call nothing; executing lanes call the\n"
     << "// function once with their membermask and operand. Inside it, "
        "warpspec_intrinsics::lane()\n"
     << "// is the calling lane, and exited(i), executes(i) and threads() describe the round. A "
        "round\n"
     << "// whose calls have not all returned after Runner::timeout is reported as a hang; its\n"
     << "// threads are left running (detached) and later rounds get fresh ones.\n"
     << "#pragma once\n"
     << "#include <chrono>\n#include <condition_variable>\n#include <cstdint>\n#include "
        "<cstdio>\n#include <cstring>\n#include <functional>\n#include <memory>\n#include "
        "<mutex>\n#include <ostream>\n#include <string>\n#include <thread>\n#include <vector>\n\n"
     << "namespace warpspec_intrinsics {\n\n"
     << "// status: 0 executes, 1 exited, 2 inactive; site: the call site the lane runs it from\n"
     << "// b: a shuffle's srcLane, delta or laneMask\n"
     << "struct Lane { uint8_t status; uint32_t mask; uint64_t a; uint32_t site; uint32_t b; };\n"
     << "struct Round { uint32_t threads; uint32_t offset; };\n"
     << "struct Vector { uint64_t id; uint16_t overload; uint8_t ub; uint16_t rounds; uint32_t "
        "first_round;\n"
     << "                uint8_t pred_d, with_p, has_d, wide; int width; };  // shuffles: wide, "
        "a 64-bit d; width\n\n"
     << "inline const Lane kLanes[] = {\n"
     << lanes.str() << "{0,0,0,0,0}};\n"
     << "inline const Round kRounds[] = {\n"
     << rounds.str() << "{0,0}};\n"
     << "inline const Vector kVectors[] = {\n"
     << vecs.str() << "};\n\n"
     << "template <class T, class B> T bits_to(B b) {\n"
     << "  T t;\n  if constexpr (sizeof(T) == 4) { uint32_t x = static_cast<uint32_t>(b); "
        "std::memcpy(&t, &x, 4); }\n"
     << "  else { uint64_t x = b; std::memcpy(&t, &x, 8); }\n  return t;\n}\n"
     << "template <class T> uint64_t bits_of(T t) {\n"
     << "  static_assert(sizeof(T) == 4 || sizeof(T) == 8, \"a 32- or 64-bit value\");\n"
     << "  if constexpr (sizeof(T) == 4) { uint32_t x; std::memcpy(&x, &t, 4); return x; }\n"
     << "  else { uint64_t x; std::memcpy(&x, &t, 8); return x; }\n}\n\n"
     << "namespace detail {\n"
     << "inline thread_local unsigned tl_lane = 0;\n"
     << "inline thread_local const Lane* tl_round = nullptr;\n"
     << "inline thread_local unsigned tl_threads = 0;\n"
     << "}  // namespace detail\n\n"
     << "/// The calling lane (thread) of the round being run.\n"
     << "inline unsigned lane() { return detail::tl_lane; }\n"
     << "/// Lanes (threads) in the round: 32 for the warp intrinsics.\n"
     << "inline unsigned threads() { return detail::tl_threads; }\n"
     << "/// Whether lane i has exited, and whether it executes the intrinsic in this round.\n"
     << "inline bool exited(unsigned i) { return detail::tl_round[i].status == 1; }\n"
     << "inline bool executes(unsigned i) { return detail::tl_round[i].status == 0; }\n"
     << "/// The call site lane i runs it from: lanes at different sites do not run it together\n"
     << "/// (what __activemask reports).\n"
     << "inline unsigned site(unsigned i) { return detail::tl_round[i].site; }\n\n"
     << "struct Runner {\n";
  for (const auto* in : used) {
    const auto s = signature_of(*in);
    os << "  std::function<" << s.ret << "(" << s.args << ")> " << intrinsic_key(*in) << ";  // "
       << in->signature << "\n";
  }
  os << "  /// Called before each round's threads start (an emulation may reset its state).\n"
     << "  std::function<void(const Lane* lanes, unsigned threads)> before_round;\n"
     << "  std::chrono::milliseconds timeout{2000};\n"
     << "  bool run_ub = false;  ///< also run vectors the specification leaves undefined\n\n"
     << "  /// Runs every vector and writes a results file (warpspec-results/1) to `out`.\n"
     << "  /// Returns the number of rounds that hung.\n"
     << "  int run(std::ostream& out) {\n"
     << "    out << \"{\\\"schema\\\":\\\"warpspec-results/1\\\"}\\n\";\n"
     << "    int hangs = 0;\n"
     << "    for (const Vector& v : kVectors) {\n"
     << "      if ((v.ub && !run_ub) || !bound(v.overload)) {\n"
     << "        out << \"{\\\"id\\\":\" << v.id << \",\\\"skipped\\\":true}\\n\";\n"
     << "        continue;\n      }\n"
     << "      out << \"{\\\"id\\\":\" << v.id << \",\\\"rounds\\\":[\";\n"
     << "      for (unsigned k = 0; k < v.rounds; ++k) {\n"
     << "        const Round& R = kRounds[v.first_round + k];\n"
     << "        out << (k ? \",{\" : \"{\");\n"
     << "        if (!run_round(v, R, out)) { out << \"}\"; ++hangs; break; }\n"
     << "        out << \"}\";\n"
     << "      }\n"
     << "      out << \"]}\\n\";\n"
     << "    }\n"
     << "    return hangs;\n"
     << "  }\n\n"
     << " private:\n"
     << "  // Threads kept from round to round (starting one per lane and round costs more than the\n"
     << "  // round). Worker i sleeps on its own condition, so a round wakes only the workers it uses.\n"
     << "  struct Pool {\n"
     << "    struct Worker {\n"
     << "      std::condition_variable go;\n      uint64_t generation = 0;\n"
     << "    };\n"
     << "    struct State {\n"
     << "      std::mutex m;\n      std::condition_variable finished;\n"
     << "      std::vector<std::unique_ptr<Worker>> workers;\n"
     << "      unsigned threads = 0, done = 0;\n"
     << "      bool quit = false;\n      std::function<void(unsigned)> job;\n"
     << "    };\n"
     << "    std::shared_ptr<State> st = std::make_shared<State>();\n"
     << "    std::vector<std::thread> threads;\n\n"
     << "    // Runs job(0..n-1) on n workers; false when they have not all returned in time.\n"
     << "    bool run(unsigned n, std::function<void(unsigned)> job,\n"
     << "             std::chrono::milliseconds limit) {\n"
     << "      std::unique_lock<std::mutex> g(st->m);\n"
     << "      while (threads.size() < n) {\n"
     << "        const auto i = static_cast<unsigned>(threads.size());\n"
     << "        st->workers.push_back(std::make_unique<Worker>());\n"
     << "        threads.emplace_back([st = st, i] {\n"
     << "          std::unique_lock<std::mutex> g(st->m);\n"
     << "          Worker& w = *st->workers[i];\n"
     << "          for (uint64_t seen = 0;;) {\n"
     << "            w.go.wait(g, [&] { return st->quit || w.generation != seen; });\n"
     << "            if (st->quit) return;\n"
     << "            seen = w.generation;\n"
     << "            const auto mine = st->job;\n"
     << "            g.unlock();\n"
     << "            mine(i);\n"
     << "            g.lock();\n"
     << "            if (++st->done == st->threads) st->finished.notify_all();\n"
     << "          }\n"
     << "        });\n"
     << "      }\n"
     << "      st->job = std::move(job);\n      st->threads = n;\n      st->done = 0;\n"
     << "      for (unsigned i = 0; i < n; ++i) {\n"
     << "        ++st->workers[i]->generation;\n"
     << "        st->workers[i]->go.notify_one();\n"
     << "      }\n"
     << "      return st->finished.wait_for(g, limit, [&] { return st->done == n; });\n"
     << "    }\n"
     << "    // Lets the idle workers end: waits for them all, or (after a hang) leaves them running.\n"
     << "    void stop(bool wait) {\n"
     << "      {\n"
     << "        std::lock_guard<std::mutex> g(st->m);\n"
     << "        st->quit = true;\n"
     << "        for (auto& w : st->workers) w->go.notify_one();\n"
     << "      }\n"
     << "      for (auto& t : threads) wait ? t.join() : t.detach();\n"
     << "      threads.clear();\n"
     << "      st = std::make_shared<State>();\n"
     << "    }\n"
     << "    Pool() = default;\n    Pool(const Pool&) = delete;\n"
     << "    Pool& operator=(const Pool&) = delete;\n"
     << "    ~Pool() { stop(true); }\n"
     << "  };\n"
     << "  std::shared_ptr<Pool> pool_ = std::make_shared<Pool>();\n\n"
     << "  struct Shared {\n"
     << "    std::mutex m;\n"
     << "    std::vector<uint64_t> d;\n    std::vector<uint8_t> p, present;\n"
     << "  };\n\n"
     << "  bool bound(unsigned o) const {\n    switch (o) {\n";
  for (std::size_t k = 0; k < used.size(); ++k)
    os << "      case " << k << ": return static_cast<bool>(" << intrinsic_key(*used[k]) << ");\n";
  os << "    }\n    return false;\n  }\n\n"
     << "  // One lane's call; writes its result into `s`.\n"
     << "  void call(unsigned o, [[maybe_unused]] const Vector& v, const Lane& L, Shared& s,\n"
     << "            unsigned t) const {\n"
     << "    uint64_t dv = 0;\n    int pred = 0;\n"
     << "    switch (o) {\n";
  for (std::size_t k = 0; k < used.size(); ++k) {
    const auto s = signature_of(*used[k]);
    os << "      case " << k << ": { const auto& fn = " << intrinsic_key(*used[k]) << "; ";
    if (s.ret == "void")
      os << s.call << "; break; }\n";
    else if (spec::is_wide_shuffle(*used[k]))
      os << "dv = " << s.call << "; break; }\n";
    else
      os << "dv = static_cast<uint32_t>(" << s.call << "); break; }\n";
  }
  os << "    }\n"
     << "    std::lock_guard<std::mutex> g(s.m);\n"
     << "    s.d[t] = dv;\n    s.p[t] = pred != 0;\n    s.present[t] = 1;\n"
     << "  }\n\n"
     << "  // Runs one round; false when it hung (the \"hang\" is already written).\n"
     << "  bool run_round(const Vector& v, const Round& R, std::ostream& out) {\n"
     << "    const Lane* lanes = kLanes + R.offset;\n"
     << "    if (before_round) before_round(lanes, R.threads);\n"
     << "    auto s = std::make_shared<Shared>();\n"
     << "    s->d.assign(R.threads, 0);\n    s->p.assign(R.threads, 0);\n"
     << "    s->present.assign(R.threads, 0);\n"
     << "    // The job holds the round's data by value (after a hang its threads outlive the round;\n"
     << "    // they still call through this Runner, which must outlive them).\n"
     << "    const auto job = [this, s, lanes, n = R.threads, v](unsigned t) {\n"
     << "      detail::tl_lane = t;\n      detail::tl_round = lanes;\n"
     << "      detail::tl_threads = n;\n"
     << "      if (lanes[t].status == 0) call(v.overload, v, lanes[t], *s, t);\n"
     << "    };\n"
     << "    const bool complete = pool_->run(R.threads, job, timeout);\n"
     << "    if (!complete) {\n"
     << "      pool_->stop(false);\n"
     << "      out << \"\\\"hang\\\":true\";\n"
     << "      return false;\n"
     << "    }\n"
     << "    out << \"\\\"d\\\":[\";\n"
     << "    char b[24];\n"
     << "    for (unsigned t = 0; t < R.threads; ++t) {\n"
     << "      if (t) out << \",\";\n"
     << "      if (!s->present[t]) { out << \"null\"; continue; }\n"
     << "      if (v.pred_d) { out << (s->d[t] ? \"true\" : \"false\"); continue; }\n"
     << "      if (v.wide)\n"
     << "        std::snprintf(b, sizeof b, \"\\\"0x%016llx\\\"\", static_cast<unsigned long "
        "long>(s->d[t]));\n"
     << "      else\n"
     << "        std::snprintf(b, sizeof b, \"\\\"0x%08x\\\"\", v.has_d ? "
        "static_cast<uint32_t>(s->d[t]) "
        ": 0u);\n"
     << "      out << b;\n"
     << "    }\n"
     << "    out << \"]\";\n"
     << "    if (v.with_p) {\n"
     << "      out << \",\\\"p\\\":[\";\n"
     << "      for (unsigned t = 0; t < R.threads; ++t)\n"
     << "        out << (t ? \",\" : \"\") << (!s->present[t] ? \"null\" : s->p[t] ? \"1\" : "
        "\"0\");\n"
     << "      out << \"]\";\n"
     << "    }\n"
     << "    return true;\n"
     << "  }\n"
     << "};\n\n"
     << "}  // namespace warpspec_intrinsics\n";
  return os.str();
}

}  // namespace warpspec::vectors
