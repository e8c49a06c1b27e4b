#include "fuzz/harness.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "capture/format.hpp"
#include "capture/replay.hpp"
#include "model/eval.hpp"
#include "model/render.hpp"
#include "model/state_io.hpp"
#include "spec/instr_parse.hpp"
#include "vectors/check.hpp"
#include "vectors/format.hpp"

namespace warpspec::fuzz {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw Violation(what);
}

std::vector<std::string_view> lines_of(std::string_view data) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= data.size(); ++i)
    if (i == data.size() || data[i] == '\n') {
      out.push_back(data.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

// True when `msg` starts with "<file>:<line>:" (any line when `line` is 0), with `column` then
// "<column>:", and then a space and some text: the place every message about a file starts with.
bool has_place(const std::string& msg, std::string_view file, std::size_t line, bool column) {
  if (!msg.starts_with(std::string(file) + ":")) return false;
  std::size_t i = file.size();
  for (int part = 0; part < (column ? 2 : 1); ++part) {
    if (i >= msg.size() || msg[i] != ':') return false;
    const std::size_t b = ++i;
    while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9') ++i;
    if (i == b || msg[b] == '0') return false;  // 1-based
    if (part == 0 && line != 0 && msg.substr(b, i - b) != std::to_string(line)) return false;
  }
  return msg.compare(i, 2, ": ") == 0 && msg.size() > i + 2;
}

// The characters of `line`, as a column counts them (a multi-byte UTF-8 character counts once).
std::size_t characters(std::string_view line) {
  std::size_t n = 0;
  for (const char c : line) n += (static_cast<unsigned char>(c) & 0xc0u) != 0x80u;
  return n;
}

// Instructions the state readers are tried with when the input does not name one: every operand
// syntax (64-bit, predicate, float, none; immediate and register membermasks) and both barriers.
constexpr std::string_view kInstructions[] = {
    "match.all.sync.b64 d|p, a, m;", "vote.sync.ballot.b32 d, !a, 0xffffffff;",
    "__match_any_sync(m, (float)x)", "__reduce_min_sync(0x0000ffff, (int)v)",
    "bar.warp.sync 0xffffffff;",     "__syncthreads_count(p)",
    "bar.red.and.pred d, 0, !p;",    "bar.sync 0;",
};

spec::ParsedInstr parsed(std::string_view text) {
  auto r = spec::parse_instruction(text);
  require(std::holds_alternative<spec::ParsedInstr>(r),
          "a fixed instruction does not parse: " + std::string(text));
  return std::get<spec::ParsedInstr>(r);
}

// Evaluates and renders a state the way `warpspec eval` does.
void show(const spec::ParsedInstr& p, const model::Warp& w, spec::Target t, spec::PtxVersion v) {
  auto r = model::evaluate(p.instr, w, t, v);
  (void)model::result_json(p, w, r, t, v).dump(2);
  (void)model::lane_table(p.instr, spec::value_syntax(p), w, &r, true);
  (void)model::findings_text(r);
}

void show(const spec::ParsedInstr& p, const model::Cta& c, spec::Target t, spec::PtxVersion v) {
  auto r = model::evaluate_cta(p.instr, c, t, v);
  (void)model::result_json(p, c, r, t, v).dump(2);
  (void)model::cta_table(p.instr, c, &r, true);
  (void)model::findings_text(r);
}

// The first field in which two readings of a round differ, or nullptr.
const char* differing_field(const vectors::Expected& a, const vectors::Expected& b) {
  if (a.defined != b.defined) return "defined";
  if (a.executes != b.executes) return "executes";
  if (a.d != b.d) return "d";
  if (a.p != b.p) return "p";
  if (a.ub != b.ub) return "ub";
  return nullptr;
}

void same_expect(const vectors::VectorExpect& a, const vectors::VectorExpect& b,
                 const std::string& where) {
  require(a.id == b.id, where + ": the two vector readers read different ids");
  require(a.instr->text == b.instr->text, where + ": different instructions");
  require(a.ub == b.ub, where + ": different \"ub\"");
  require(a.clauses == b.clauses, where + ": different clauses");
  require(a.rounds.size() == b.rounds.size(), where + ": different numbers of rounds");
  for (std::size_t k = 0; k < a.rounds.size(); ++k) {
    const char* field = differing_field(a.rounds[k], b.rounds[k]);
    require(!field, where + ": different expect." + (field ? field : "") + " in round " +
                        std::to_string(k));
  }
}

void check_widths(const vectors::VectorExpect& e, const std::string& where) {
  const bool warp = spec::is_warp_form(e.instr->instr.form);
  require(!e.rounds.empty(), where + ": a vector without rounds was accepted");
  for (const auto& r : e.rounds) {
    const auto n = r.defined.size();
    require(warp ? n == spec::kWarpSize : n >= 1 && n <= model::kMaxCtaThreads,
            where + ": a round of " + std::to_string(n) + " lanes");
    require(r.d.size() == n && r.p.size() == n && r.executes.size() == n,
            where + ": round fields of different widths");
    for (const auto& [clause, lanes] : r.ub)
      for (auto l : lanes) require(l < n, where + ": a UB lane beyond the round");
  }
}

// A scratch file for the readers that take a path; one per process, removed at exit.
struct Scratch {
  std::string path;
  explicit Scratch(const char* suffix)
      : path("/tmp/warpspec-fuzz-" + std::to_string(::getpid()) + suffix) {}
  ~Scratch() { std::remove(path.c_str()); }
};

}  // namespace

void instr(std::string_view data) {
  const auto ls = lines_of(data);
  const std::string_view text = ls[0];
  auto r = spec::parse_instruction(text);
  std::vector<spec::ValueSyntax> syntaxes;
  if (auto* e = std::get_if<spec::ParseError>(&r)) {
    require(e->column >= 1 && e->column <= text.size() + 1,
            "parse error column " + std::to_string(e->column) + " outside the text");
    require(!e->message.empty(), "parse error without a message");
    syntaxes = {{32, false, false, false},
                {64, false, false, false},
                {32, true, false, false},
                {64, true, false, false},
                {32, false, true, false}};
  } else {
    const auto& p = std::get<spec::ParsedInstr>(r);
    // The canonical spelling reads back as the same instruction.
    auto again = spec::parse_instruction(p.text);
    require(std::holds_alternative<spec::ParsedInstr>(again),
            "the canonical text '" + p.text + "' does not parse");
    const auto& q = std::get<spec::ParsedInstr>(again);
    require(q.text == p.text && q.instr.form == p.instr.form && q.instr.negate == p.instr.negate &&
                q.instr.write_d == p.instr.write_d && q.instr.write_p == p.instr.write_p &&
                q.instr.imm_mask == p.instr.imm_mask && q.mask_register == p.mask_register &&
                q.intrinsic == p.intrinsic,
            "the canonical text '" + p.text + "' reads as another instruction");
    require(p.instr.imm_mask.has_value() != !p.mask_register.empty() ||
                spec::form_info(p.instr.form).family == spec::Family::CtaBarrier,
            "an instruction with both or neither of an immediate and a register membermask");
    syntaxes = {spec::value_syntax(p)};
  }
  for (std::size_t i = 1; i < ls.size(); ++i)
    for (const auto& syn : syntaxes) {
      if (syn.none) continue;
      uint64_t v = 0;
      auto err = spec::parse_value(ls[i], syn, v);
      if (err.empty())
        require(syn.bits == 64 || (v >> syn.bits) == 0, "a value wider than its operand");
      else
        require(err.find('\n') == std::string::npos, "a value message of several lines");
    }
}

void state_flags(std::string_view data) {
  const auto ls = lines_of(data);
  auto line = [&](std::size_t k) { return k < ls.size() ? std::string(ls[k]) : std::string(); };
  const std::string text = line(0);
  auto r = spec::parse_instruction(text);
  const auto p = std::holds_alternative<spec::ParsedInstr>(r)
                     ? std::get<spec::ParsedInstr>(r)
                     : parsed(kInstructions[text.size() % std::size(kInstructions)]);
  model::StateFlags f;
  f.a = line(1);
  f.mask = line(2);
  f.masks = line(3);
  f.exited = line(4);
  f.inactive = line(5);
  f.sites = line(6);
  const std::string threads = line(7);
  for (char c : threads.substr(0, 5))
    if (c >= '0' && c <= '9') f.threads = f.threads * 10 + static_cast<std::size_t>(c - '0');
  // The list and lane-set syntax on their own, over every width the tool uses.
  const std::size_t n = f.threads >= 1 && f.threads <= model::kMaxCtaThreads ? f.threads : 32;
  try {
    auto xs = model::expand_list(f.a, n, "--a");
    require(xs.size() == n, "expand_list returned " + std::to_string(xs.size()) + " items");
  } catch (const model::InputError& e) {
    require(!e.data() && std::string(e.what()).starts_with("--a"), "bad list message");
  }
  try {
    auto set = model::parse_lane_set(f.exited, n, "--exited");
    require(set.size() == n, "parse_lane_set returned " + std::to_string(set.size()) + " lanes");
  } catch (const model::InputError& e) {
    require(!e.data() && std::string(e.what()).starts_with("--exited"), "bad lane set message");
  }
  // The whole state, as `warpspec eval` builds it (its --threads option allows 1 to 1024).
  if (f.threads > model::kMaxCtaThreads) f.threads = 0;
  try {
    if (spec::is_warp_form(p.instr.form))
      show(p, model::warp_from_flags(p, f), spec::kDefaultTarget, spec::kLatestPtx);
    else
      show(p, model::cta_from_flags(p, f), spec::kDefaultTarget, spec::kLatestPtx);
  } catch (const model::InputError& e) {
    require(!e.data() && *e.what() != '\0', "a state flag error that is not a usage error");
  }
}

void state_json(std::string_view data) {
  const std::string file = "state.json";
  auto file_error = [&](const model::InputError& e) {
    require(e.data() && std::string(e.what()).starts_with(file + ":"),
            std::string("a state file error without the file: ") + e.what());
  };
  model::JsonState js;
  try {
    js = model::read_state_text(std::string(data), file);
  } catch (const model::InputError& e) {
    file_error(e);
    return;
  }
  std::vector<spec::ParsedInstr> ps;
  if (js.instruction) {
    auto r = spec::parse_instruction(*js.instruction);
    if (!std::holds_alternative<spec::ParsedInstr>(r)) return;  // eval: a usage error (64)
    ps.push_back(std::get<spec::ParsedInstr>(r));
  } else {
    for (auto t : kInstructions) ps.push_back(parsed(t));
  }
  const auto target = js.target.value_or(spec::kDefaultTarget);
  const auto ptx = js.ptx.value_or(spec::kLatestPtx);
  for (const auto& p : ps) {
    try {
      if (spec::is_warp_form(p.instr.form))
        show(p, model::warp_from_json(js, p), target, ptx);
      else
        show(p, model::cta_from_json(js, p), target, ptx);
    } catch (const model::InputError& e) {
      file_error(e);
    }
  }
}

void vectors(std::string_view data) {
  const std::string file = "v.jsonl";
  const auto ls = lines_of(data);
  auto format_error = [&](const vectors::FormatError& e, std::size_t line) {
    require(has_place(e.what(), file, line, true),
            std::string("a vector file error without its place: ") + e.what());
    require(e.line() == line && e.column() >= 1 && e.column() <= characters(ls[line - 1]) + 1,
            std::string("a vector file error placed outside its line: ") + e.what());
  };
  vectors::VectorReader reader(file);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    std::string_view line = ls[i];
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    const std::size_t no = i + 1;
    const std::string where = file + ":" + std::to_string(no);
    if (no == 1) {
      try {
        (void)vectors::parse_header(line, file);
      } catch (const vectors::FormatError& e) {
        format_error(e, 1);
      }
      continue;
    }
    // A fresh reader and the shared one, as `check` uses it (its instructions cached and its
    // buffers kept from line to line), must read the same vector or refuse with the same message.
    vectors::VectorReader fresh(file);
    std::optional<vectors::VectorExpect> first, shared;
    std::string first_error, shared_error;
    try {
      first = fresh.read(line, no);
    } catch (const vectors::FormatError& e) {
      format_error(e, no);
      first_error = e.what();
    }
    try {
      shared = reader.read(line, no);
    } catch (const vectors::FormatError& e) {
      format_error(e, no);
      shared_error = e.what();
    }
    require(first_error == shared_error, where + ": the reader's cache changed its answer");
    if (first) {
      same_expect(*first, *shared, where);
      const auto diff = vectors::vector_difference(first->vector, shared->vector);
      require(diff.empty(), where + ": the reader's cache read a different " + diff);
      check_widths(*first, where);
      for (std::size_t k = 0; k < first->rounds.size(); ++k)
        require(vectors::round_width(first->vector, first->vector.rounds[k]) ==
                    first->rounds[k].defined.size(),
                where + ": a round's state and expectations differ in width");
      // The vector read, written again and read back, is the same vector.
      const auto e = vectors::expected(first->vector, spec::kDefaultTarget, spec::kLatestPtx);
      const auto again = vectors::vector_line(first->vector, e);
      try {
        const auto back = vectors::VectorReader(file).read(again, no);
        const auto d = vectors::vector_difference(first->vector, back.vector);
        require(d.empty(), where + ": written and read back, the vector differs in " + d);
      } catch (const vectors::FormatError& err) {
        throw Violation(where + ": a vector read does not read back once written: " + err.what());
      }
    }
    // `expect` reads the whole vector and then holds its expectations to the specification, so
    // it may refuse a line (a stale expectation) that `read` reads; never the other way round.
    try {
      const auto& ex = fresh.expect(line, no);
      require(first && ex.id == first->id,
              where + ": expectations held where the vector is not read");
    } catch (const vectors::FormatError& e) {
      format_error(e, no);
    }
    try {
      const auto v = reader.full(line, no);
      require(first && vectors::vector_difference(v, first->vector).empty(),
              where + ": full() reads another vector than read()");
    } catch (const vectors::FormatError& e) {
      require(!first.has_value(), where + ": full() refuses a line that read() reads");
      format_error(e, no);
    }
  }
}

void results(std::string_view data) {
  static const std::string vfile_text = [] {
    std::ifstream in(WARPSPEC_FUZZ_VECTORS, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
  }();
  static const std::vector<vectors::Vector> vs = [] {
    std::vector<vectors::Vector> out;
    vectors::VectorReader r("fixed");
    const auto ls = lines_of(vfile_text);
    for (std::size_t i = 1; i < ls.size(); ++i)
      if (!ls[i].empty()) out.push_back(r.full(ls[i], i + 1));
    return out;
  }();
  require(!vs.empty(), std::string("cannot read ") + WARPSPEC_FUZZ_VECTORS);
  const std::string rfile = "r.jsonl", vfile = "v.jsonl";
  // Each line on its own, as the results for one of the fixed vectors.
  const auto ls = lines_of(data);
  vectors::ResultReader reader(rfile);
  std::size_t k = 0;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    if (i == 0 && ls[0].find("\"schema\"") != std::string_view::npos) continue;  // a header
    const auto& v = vs[k++ % vs.size()];
    const auto e = vectors::expected(v, spec::kDefaultTarget, spec::kLatestPtx);
    std::vector<std::size_t> widths;
    for (const auto& r : v.rounds) widths.push_back(vectors::round_width(v, r));
    try {
      const auto& res = reader.parse(ls[i], i + 1, vectors::result_shape(v.instr, widths));
      if (res.skipped) continue;
      require(res.rounds.size() == widths.size(), "a result with the wrong number of rounds");
      for (std::size_t r = 0; r < widths.size(); ++r) {
        const auto& o = res.rounds[r];
        require(o.d.size() == widths[r] && o.p.size() == widths[r] && o.present.size() == widths[r],
                "a result round of the wrong width");
      }
      auto m = vectors::compare(v, e, res.rounds);
      for (auto l : m.lanes) require(l < widths[m.round], "a mismatch lane beyond the round");
    } catch (const vectors::FormatError& err) {
      require(has_place(err.what(), rfile, i + 1, true),
              std::string("a results error without its place: ") + err.what());
    }
  }
  // The whole file, as `warpspec check` reads it.
  std::istringstream vin(vfile_text), rin{std::string(data)};
  try {
    auto rep = vectors::check(vin, vfile, rin, rfile);
    (void)vectors::render(rep, 5);
    (void)vectors::render_json(rep);
  } catch (const vectors::FormatError& err) {
    const std::string msg = err.what();
    require(msg.starts_with(rfile + ":") || msg.starts_with(vfile + ":"),
            "a check error without its file: " + msg);
    require(has_place(msg, msg.substr(0, msg.find(':')), 0, true),
            "a check error without its place: " + msg);
  }
}

void capture(std::string_view data) {
  static const Scratch scratch(".jsonl");
  const std::string& path = scratch.path;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    require(out.good(), "cannot write " + path);
  }
  auto format_error = [&](const capture::FormatError& e) {
    // Every error names its line; a malformed line its column too, a damaged gzip stream none.
    const bool gzip = std::string_view(e.what()).find("gzip") != std::string_view::npos;
    require(has_place(e.what(), path, 0, !gzip),
            std::string("a capture error without its place: ") + e.what());
  };
  // Record by record, each record written back and read again.
  try {
    capture::Reader reader(path);
    capture::Record rec;
    while (reader.next(rec)) {
      const std::string line = capture::to_line(rec);
      const auto again = capture::parse_record(line, "written", 1);
      require(capture::to_line(again) == line, "a record does not survive writing and reading");
      if (const auto* w = std::get_if<capture::WarpRecord>(&rec))
        (void)model::evaluate(capture::instr_of(*w), capture::warp_of(*w));
      else
        (void)model::evaluate_cta(capture::instr_of(std::get<capture::CtaRecord>(rec)),
                                  capture::cta_of(std::get<capture::CtaRecord>(rec)));
    }
  } catch (const capture::FormatError& e) {
    format_error(e);
    return;
  }
  // The whole file, replayed as `warpspec capture-check` does.
  try {
    capture::Replayer rp(capture::Replayer::Options{5, 2});
    rp.add_file(path);
    for (const auto& s : rp.mismatches()) (void)capture::lane_table(s, false);
    (void)capture::observations_json(rp);
    (void)capture::unconfirmed_forms(rp);
  } catch (const capture::FormatError& e) {
    format_error(e);
  }
}

std::span<const Target> targets() {
  static constexpr Target kTargets[] = {
      {"instr", &instr},     {"state_flags", &state_flags}, {"state_json", &state_json},
      {"vectors", &vectors}, {"results", &results},         {"capture", &capture},
  };
  return kTargets;
}

}  // namespace warpspec::fuzz
