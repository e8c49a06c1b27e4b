#include "vectors/format.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>

#include "model/render.hpp"

namespace warpspec::vectors {

namespace {

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "\"0x%08x\"", v);
  return b;
}

std::string hex_bits(uint64_t v, int bits) {
  char b[24];
  if (bits == 64)
    std::snprintf(b, sizeof b, "\"0x%016" PRIx64 "\"", v);
  else
    std::snprintf(b, sizeof b, "\"0x%08" PRIx64 "\"", v);
  return b;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A list of values as one value when all are equal, else an array.
template <class T, class F>
std::string list(const std::vector<T>& xs, F show) {
  bool same = true;
  for (const auto& x : xs) same = same && x == xs.front();
  if (same && !xs.empty()) return show(xs.front());
  std::string out = "[";
  for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? "," : "") + show(xs[i]);
  return out + "]";
}

uint32_t word_of(const std::vector<uint8_t>& bits) {
  uint32_t w = 0;
  for (std::size_t i = 0; i < bits.size() && i < 32; ++i) w |= uint32_t{bits[i] != 0} << i;
  return w;
}

std::string lane_set(const std::vector<uint8_t>& bits, bool cta) {
  if (!cta) return hex32(word_of(bits));
  std::vector<unsigned> xs;
  for (unsigned i = 0; i < bits.size(); ++i)
    if (bits[i]) xs.push_back(i);
  return "\"" + (xs.empty() ? std::string("none") : model::format_threads(xs)) + "\"";
}

[[noreturn]] void bad(const std::string& file, std::size_t line, std::size_t col,
                      const std::string& msg) {
  throw FormatError(file, line, col, msg);
}

}  // namespace

std::string header_line(const VectorsHeader& h) {
  return "{\"schema\":\"" + std::string(kVectorsSchema) + "\",\"target\":\"" +
         spec::to_string(h.target) + "\",\"ptx\":\"" + spec::to_string(h.ptx) +
         "\",\"seed\":" + std::to_string(h.seed) + ",\"vectors\":" + std::to_string(h.count) + "}";
}

std::string vector_line(const Vector& v, const std::vector<Expected>& e) {
  const auto& f = spec::form_info(v.instr.instr.form);
  const auto syn = spec::value_syntax(v.instr);
  const bool cta = v.is_cta();
  std::string s = "{\"id\":" + std::to_string(v.id) + ",\"form\":\"" + std::string(f.name) +
                  "\",\"instruction\":" + json_string(v.instr.text) +
                  ",\"ub\":" + (has_ub(e) ? "true" : "false") + ",\"source\":\"" + v.source +
                  "\",\"clauses\":[";
  for (std::size_t i = 0; i < v.clauses.size(); ++i)
    s += (i ? ",\"" : "\"") + std::string(spec::clause_info(v.clauses[i]).key) + "\"";
  s += "],\"rounds\":[";
  for (std::size_t k = 0; k < v.rounds.size(); ++k) {
    const auto& r = v.rounds[k];
    const auto& x = e[k];
    s += k ? ",{" : "{";
    std::vector<uint8_t> exited, inactive;
    std::vector<uint64_t> a;
    std::vector<uint32_t> masks, sites;
    const std::size_t n = round_width(v, r);
    for (std::size_t i = 0; i < n; ++i) {
      if (cta) {
        exited.push_back(r.cta.exited[i]);
        inactive.push_back(!r.cta.exited[i] && !r.cta.arrive[i]);
        a.push_back(r.cta.pred[i]);
      } else {
        exited.push_back(r.warp.exited[i]);
        inactive.push_back(!r.warp.exited[i] && !r.warp.exec[i]);
        a.push_back(r.warp.a[i]);
        masks.push_back(r.warp.mask[i]);
        sites.push_back(r.warp.site[i]);
      }
    }
    if (cta) s += "\"threads\":" + std::to_string(n) + ",";
    s += "\"exited\":" + lane_set(exited, cta) + ",\"inactive\":" + lane_set(inactive, cta);
    if (!cta && !v.instr.instr.imm_mask) s += ",\"mask\":" + list(masks, hex32);
    if (!syn.none)
      s += ",\"a\":" + list(a, [&](uint64_t x) {
             return cta           ? std::to_string(static_cast<int32_t>(x))
                    : syn.is_pred ? std::to_string(x)
                                  : hex_bits(x, syn.bits);
           });
    if (!cta && std::any_of(sites.begin(), sites.end(), [](uint32_t z) { return z != 0; }))
      s += ",\"site\":" + list(sites, [](uint32_t z) { return std::to_string(z); });
    s += ",\"expect\":{\"defined\":" + lane_set(x.defined, cta);
    if (f.d_type != spec::ResultType::None && v.instr.instr.write_d) {
      std::vector<uint32_t> d;
      for (std::size_t i = 0; i < n; ++i) d.push_back(x.defined[i] ? x.d[i] : 0);
      s += ",\"d\":" + list(d, hex32);
    }
    if (v.instr.instr.write_p) {
      std::vector<uint8_t> p;
      for (std::size_t i = 0; i < n; ++i) p.push_back(x.defined[i] && x.p[i]);
      s += ",\"p\":" + hex32(word_of(p));
    }
    s += ",\"ub\":[";
    for (std::size_t u = 0; u < x.ub.size(); ++u) {
      std::vector<uint8_t> lanes(n);
      for (auto l : x.ub[u].second) lanes[l] = 1;
      s += (u ? "," : "") + std::string("{\"clause\":\"") +
           std::string(spec::clause_info(x.ub[u].first).key) +
           "\",\"lanes\":" + lane_set(lanes, cta) + "}";
    }
    s += "]}}";
  }
  return s + "]}";
}

VectorsHeader parse_header(std::string_view line, const std::string& file) {
  json::Document doc;
  if (!doc.parse(line)) bad(file, 1, doc.error_column(), doc.error());
  const auto& root = doc.root();
  const auto* schema = doc.get(root, "schema");
  if (!schema || schema->kind != json::Kind::String)
    bad(file, 1, 1,
        "expected a header line with \"schema\": \"" + std::string(kVectorsSchema) + "\"");
  if (schema->text != kVectorsSchema)
    bad(file, 1, 1,
        "schema \"" + std::string(schema->text) + "\" is not supported; expected \"" +
            std::string(kVectorsSchema) + "\"");
  VectorsHeader h;
  if (const auto* t = doc.get(root, "target")) {
    auto tt = spec::parse_target(t->text);
    if (!tt) bad(file, 1, 1, "\"target\": expected sm_XX");
    h.target = *tt;
  }
  if (const auto* p = doc.get(root, "ptx")) {
    auto pp = spec::parse_ptx(p->text);
    if (!pp) bad(file, 1, 1, "\"ptx\": expected a version such as \"8.6\"");
    h.ptx = *pp;
  }
  if (const auto* s = doc.get(root, "seed")) h.seed = json::as_uint(*s).value_or(0);
  if (const auto* c = doc.get(root, "vectors")) {
    const auto n = json::as_uint(*c);
    if (!n) bad(file, 1, 1, "\"vectors\": expected the number of vectors in the file");
    h.count = *n;
  } else {
    h.count_given = false;
  }
  return h;
}

const spec::ParsedInstr* VectorReader::cached(std::string_view raw, spec::ParseError& err) {
  if (last_instr_ && raw == last_raw_) return last_instr_;  // vectors come grouped by form
  auto it = instrs_.find(raw);
  if (it != instrs_.end()) {
    last_raw_.assign(raw);
    last_instr_ = &it->second;
    return last_instr_;
  }
  std::string text;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) ++i;
    text += raw[i];
  }
  auto r = spec::parse_instruction(text);
  if (auto* e = std::get_if<spec::ParseError>(&r)) {
    err = *e;
    return nullptr;
  }
  return &instrs_.emplace(std::string(raw), std::get<spec::ParsedInstr>(std::move(r)))
              .first->second;
}

const spec::ParsedInstr& VectorReader::instr(const json::Value& v, std::size_t line_no) {
  if (v.kind != json::Kind::String) bad(file_, line_no, 1, "\"instruction\" must be a string");
  spec::ParseError e;
  const auto* in = cached(v.text, e);
  if (!in)
    bad(file_, line_no, 1, "\"instruction\" column " + std::to_string(e.column) + ": " + e.message);
  return *in;
}

namespace {

// Where a value sits, e.g. rounds[1].expect.d; assembled only when reporting an error.
struct Where {
  const char* base;
  long index;  // -1: none
  const char* field;
  long lane = -1;  // an element of the field's list; -1: the field itself
  std::string str() const {
    std::string s = base;
    if (index >= 0) s += "[" + std::to_string(index) + "]";
    if (field && *field) s += std::string(".") + field;
    if (lane >= 0) s += "[" + std::to_string(lane) + "]";
    return s;
  }
  Where at(std::size_t i) const { return {base, index, field, static_cast<long>(i)}; }
};

// Where element i of a per-lane field is: the element of a list, or the field itself when one
// value stands for every lane.
Where elem(const json::Value& list, const Where& w, std::size_t i) {
  return list.kind == json::Kind::Array ? w.at(i) : w;
}

struct LineCtx {
  const std::string& file;
  std::size_t line;
  const json::Document& doc;
  [[noreturn]] void fail(const std::string& msg) const { bad(file, line, 1, msg); }
  [[noreturn]] void fail(const Where& w, const std::string& msg) const {
    bad(file, line, 1, w.str() + ": " + msg);
  }
  // The same, at the column where `v` starts.
  [[noreturn]] void fail(const json::Value& v, const Where& w, const std::string& msg) const {
    bad(file, line, doc.column_of(v), w.str() + ": " + msg);
  }
  const json::Value& need(const json::Value& obj, std::string_view key, const Where& w) const {
    const auto* v = doc.get(obj, key);
    if (!v) fail(w, "missing field \"" + std::string(key) + "\"");
    return *v;
  }
};

// A lane set from its text: a hex word for warps, ranges ("0-3,7" or "none") for blocks. Calls
// `f(lo, hi)` for each range of lanes it holds, in order, and returns an error message, empty on
// success.
template <class F>
std::string lane_ranges(std::string_view t, std::size_t n, F&& f) {
  if (t.starts_with("0x") || t.starts_with("0X")) {
    json::Value v;
    v.kind = json::Kind::String;
    v.text = t;
    auto x = json::as_uint(v, 32);
    if (!x || (n < 32 && (*x >> n))) return "expected a " + std::to_string(n) + "-lane mask";
    for (unsigned i = 0; i < n && i < 32; ++i)
      if ((*x >> i) & 1u) f(i, i);
    return {};
  }
  if (t == "none" || t.empty()) return {};
  std::size_t pos = 0;
  while (pos < t.size()) {
    auto comma = t.find(',', pos);
    auto part =
        t.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    auto dash = part.find('-');
    unsigned lo = 0, hi = 0;
    const char* mid = part.data() + (dash == std::string_view::npos ? part.size() : dash);
    auto p1 = std::from_chars(part.data(), mid, lo);
    bool ok = p1.ec == std::errc{} && p1.ptr == mid;
    hi = lo;
    if (dash != std::string_view::npos) {
      auto p2 = std::from_chars(mid + 1, part.data() + part.size(), hi);
      ok = ok && p2.ec == std::errc{} && p2.ptr == part.data() + part.size();
    }
    if (!ok || hi < lo || hi >= n)
      return "'" + std::string(part) + "' is not a range within 0-" + std::to_string(n - 1);
    f(lo, hi);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return {};
}

// The same lane set as one flag per lane.
std::string parse_set(std::string_view t, std::size_t n, std::vector<uint8_t>& out) {
  out.assign(n, 0);
  return lane_ranges(t, n, [&](unsigned lo, unsigned hi) {
    std::fill(out.begin() + lo, out.begin() + hi + 1, uint8_t{1});
  });
}

void read_set(const LineCtx& c, const json::Value& v, std::size_t n, const Where& w,
              std::vector<uint8_t>& out) {
  if (v.kind != json::Kind::String) c.fail(w, "expected a lane set string");
  if (auto err = parse_set(v.text, n, out); !err.empty()) c.fail(w, err);
}

// Reads a per-lane list with the pull reader: one value for all lanes, or an array of n. With
// `present`, entries may be null (no result on that lane); without, null is an error.
void pull_lanes(json::Pull& p, std::size_t n, int width, std::vector<uint32_t>& vals,
                std::vector<uint8_t>* present) {
  if (p.accept('[')) {
    std::size_t i = 0;
    bool closed = false;
    if (!p.accept(']')) {
      i = p.compact_items(vals.data(), present ? present->data() : nullptr, n, width, closed);
      if (!closed) do {
          if (i >= n) p.fail("more than " + std::to_string(n) + " values");
          if (p.null()) {
            if (!present) p.fail("expected a value, found null");
            ++i;
            continue;
          }
          vals[i] = static_cast<uint32_t>(p.bits(width));
          if (present) (*present)[i] = 1;
          ++i;
        } while (p.more_items());
    }
    // A results list may stop early (the lanes after it have no result); an expectation may not.
    if (i != n && !present)
      p.fail(std::to_string(i) + " values for " + std::to_string(n) + " lanes");
    return;
  }
  if (p.null()) {
    if (!present) p.fail("expected a value, found null");
    return;
  }
  const auto x = static_cast<uint32_t>(p.bits(width));
  for (std::size_t i = 0; i < n; ++i) {
    vals[i] = x;
    if (present) (*present)[i] = 1;
  }
}

// The pull reader met a layout it does not handle (keys in another order): use the DOM reader.
struct NeedDom {};

// Reads an id: a non-negative integer, as a number or a string (what json::as_uint accepts).
uint64_t pull_id(json::Pull& p) {
  const char c = p.peek();
  if (c != '"' && !(c >= '0' && c <= '9')) throw NeedDom{};
  return p.bits(64);
}

// A per-lane list: one value for all lanes, or an array of n.
void read_list(const LineCtx& c, const json::Value& v, std::size_t n, const Where& w,
               std::vector<const json::Value*>& out) {
  if (v.kind != json::Kind::Array) {
    out.assign(n, &v);
    return;
  }
  c.doc.items(v, out);
  if (out.size() != n)
    c.fail(w, std::to_string(out.size()) + " values for " + std::to_string(n) + " lanes");
}

// A per-lane list of results: one value for all lanes, or an array of at most n (lanes beyond
// its end have no result).
void read_results(const LineCtx& c, const json::Value& v, std::size_t n, const Where& w,
                  std::vector<const json::Value*>& out) {
  if (v.kind != json::Kind::Array) {
    out.assign(n, &v);
    return;
  }
  c.doc.items(v, out);
  if (out.size() > n)
    c.fail(w, std::to_string(out.size()) + " values for " + std::to_string(n) + " lanes");
}

uint64_t read_bits(const LineCtx& c, const json::Value& v, int bits, const Where& w) {
  if (v.kind == json::Kind::String || (v.kind == json::Kind::Number && v.text[0] != '-')) {
    if (auto x = json::as_uint(v, bits)) return *x;
  } else if (v.kind == json::Kind::Number) {
    int64_t x = 0;
    auto r = std::from_chars(v.text.data(), v.text.data() + v.text.size(), x);
    if (r.ec == std::errc{} && r.ptr == v.text.data() + v.text.size() &&
        (bits == 64 || x >= INT32_MIN))
      return bits == 64 ? static_cast<uint64_t>(x) : static_cast<uint32_t>(x);
  } else if (v.kind == json::Kind::Bool) {
    return v.text == "true";
  }
  c.fail(v, w, "expected a " + std::to_string(bits) + "-bit value (\"0x...\" or an integer), found " +
                (v.kind == json::Kind::String || v.kind == json::Kind::Number
                     ? "'" + std::string(v.text) + "'"
                     : std::string(json::kind_name(v.kind))));
}

}  // namespace

namespace {

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
    return "expect.defined is " + lanes_text(file.defined) + ", but the specification defines " +
           lanes_text(spec.defined);
  const auto& f = spec::form_info(in.instr.form);
  const bool want_d = f.d_type != spec::ResultType::None && in.instr.write_d;
  char b[96];
  for (unsigned i = 0; i < spec.defined.size(); ++i) {
    if (!spec.defined[i]) continue;
    if (want_d && file.d[i] != spec.d[i]) {
      std::snprintf(b, sizeof b,
                    "expect.d is 0x%08x on lane %u, but the specification gives 0x%08x", file.d[i],
                    i, spec.d[i]);
      return b;
    }
    if (in.instr.write_p && file.p[i] != spec.p[i]) {
      std::snprintf(b, sizeof b, "expect.p is %u on lane %u, but the specification gives %u",
                    unsigned{file.p[i]}, i, unsigned{spec.p[i]});
      return b;
    }
  }
  auto sorted = [](auto ub) {
    std::sort(ub.begin(), ub.end());
    return ub;
  };
  if (file.ub != spec.ub && sorted(file.ub) != sorted(spec.ub)) {
    std::string s = "expect.ub lists";
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

}  // namespace

const VectorExpect& VectorReader::expect(std::string_view line, std::size_t line_no) {
  // The whole line is read and validated, as `vectors --in` reads it; then the expectations are
  // derived again (by the fast implementation, proved equal to the model) and must be the ones
  // the file states: a file whose `expect` was edited, or made for another target or by another
  // version of the specification, is refused rather than trusted.
  read(line, line_no);
  expected_fast(cur_.vector, header_.target, header_.ptx, derived_);
  for (std::size_t k = 0; k < derived_.size(); ++k) {
    const auto why = departure(*cur_.instr, cur_.rounds[k], derived_[k]);
    if (!why.empty())
      bad(file_, line_no, 1,
          "vector " + std::to_string(cur_.id) + ", rounds[" + std::to_string(k) + "]: " + why +
              " for this state on " + spec::to_string(header_.target) +
              "; the file was edited or made by another version of warpspec: make it again with "
              "'warpspec vectors'");
  }
  if (cur_.ub != has_ub(derived_))
    bad(file_, line_no, 1,
        "vector " + std::to_string(cur_.id) + ": \"ub\" is " + (cur_.ub ? "true" : "false") +
            ", but the specification says " + (cur_.ub ? "no round has" : "some round has") +
            " undefined behaviour");
  std::swap(cur_.rounds, derived_);  // both keep their storage for the next line
  return cur_;
}

const VectorExpect& VectorReader::read(std::string_view line, std::size_t line_no) {
  // The pull reader handles the layout warpspec writes; anything else, errors included, goes
  // through the DOM reader, which accepts any key order and words the messages.
  if (path_ == Path::General || !pull(line)) parse_dom(line, line_no);
  return cur_;
}

Vector VectorReader::full(std::string_view line, std::size_t line_no) {
  return read(line, line_no).vector;
}

namespace {

// What the rounds of a vector line hold, from its instruction.
struct LineShape {
  bool cta = false;
  bool want_d = false, want_p = false;  // expect.d and expect.p are written
  bool has_a = false;                   // the form has a source operand
  int a_bits = 32;                      // its width in a warp round (block rounds: 32)
  std::optional<uint32_t> imm_mask;     // warp rounds: no "mask" when it is an immediate
};

// The next member of an object must be `name`.
template <std::size_t N>
void member(json::Pull& p, const char (&name)[N]) {
  if (!p.more_members() || !p.key_is(name)) throw NeedDom{};
}

// A warp's lane set as a word.
uint32_t pull_word(json::Pull& p) {
  if (const auto x = p.hex_word()) return *x;  // as `vector_line` writes it (and parse_set reads)
  const auto t = p.string();
  uint32_t w = 0;
  const auto err = lane_ranges(t, spec::kWarpSize, [&](unsigned lo, unsigned hi) {
    w |= static_cast<uint32_t>((uint64_t{2} << hi) - (uint64_t{1} << lo));
  });
  if (!err.empty()) throw NeedDom{};
  return w;
}

void pull_set(json::Pull& p, std::size_t n, std::vector<uint8_t>& out) {
  if (n == spec::kWarpSize) {
    const uint32_t w = pull_word(p);
    out.resize(n);
    bits_to_flags(&w, n, out.data());
    return;
  }
  if (!parse_set(p.string(), n, out).empty()) throw NeedDom{};
}

// A block round's "exited" and "inactive" sets, straight into its state: ranges filled a word of
// flags at a time.
void pull_block_status(json::Pull& p, std::size_t n, model::Cta& c) {
  c.exited.assign(n, false);
  c.arrive.assign(n, true);
  auto err = lane_ranges(p.string(), n, [&](unsigned lo, unsigned hi) {
    std::fill(c.exited.begin() + lo, c.exited.begin() + hi + 1, true);
    std::fill(c.arrive.begin() + lo, c.arrive.begin() + hi + 1, false);
  });
  if (!err.empty()) throw NeedDom{};
  member(p, "inactive");
  err = lane_ranges(p.string(), n, [&](unsigned lo, unsigned hi) {
    std::fill(c.arrive.begin() + lo, c.arrive.begin() + hi + 1, false);
  });
  if (!err.empty()) throw NeedDom{};
}

// A per-lane list of a vector line, read into `out`: one value for all n lanes, or an array of
// exactly n; no null. Each value as read_bits reads it.
template <class T>
void pull_list(json::Pull& p, std::size_t n, int width, T* out) {
  if (p.accept('[')) {
    std::size_t i = 0;
    bool closed = false;
    if (!p.accept(']')) {
      i = p.compact_words(out, n, width, closed);
      if (!closed) do {
          if (i >= n) throw NeedDom{};
          out[i++] = static_cast<T>(p.bits(width));
        } while (p.more_items());
    }
    if (i != n) throw NeedDom{};
    return;
  }
  std::fill_n(out, n, static_cast<T>(p.bits(width)));
}

// A round's "expect" object: defined, then d and p when the instruction writes them, then ub.
void pull_expectation(json::Pull& p, const LineShape& s, std::size_t n, Expected& e,
                      std::vector<uint8_t>& lanes) {
  p.expect('{');
  if (!p.key_is("defined")) throw NeedDom{};
  pull_set(p, n, e.defined);
  e.executes = e.defined;
  e.d.assign(n, 0);
  e.p.assign(n, 0);
  if (s.want_d) {
    member(p, "d");
    pull_list(p, n, 32, e.d.data());
  }
  if (s.want_p) {
    member(p, "p");
    const auto w = p.bits(32);
    for (std::size_t i = 0; i < n && i < 32; ++i) e.p[i] = (w >> i) & 1u;
  }
  member(p, "ub");
  std::size_t u = 0;
  p.expect('[');
  if (!p.accept(']')) do {
      p.expect('{');
      if (!p.key_is("clause")) throw NeedDom{};
      const auto clause = spec::find_clause(p.string());
      if (!clause) throw NeedDom{};
      member(p, "lanes");
      pull_set(p, n, lanes);
      if (p.more_members()) throw NeedDom{};
      if (e.ub.size() <= u) e.ub.resize(u + 1);
      e.ub[u].first = *clause;
      auto& ls = e.ub[u].second;
      ls.clear();
      for (unsigned i = 0; i < n; ++i)
        if (lanes[i]) ls.push_back(i);
      ++u;
    } while (p.more_items());
  e.ub.resize(u);
  if (p.more_members()) throw NeedDom{};
}

// One round: its state into `r` (the other kind of state cleared, as the DOM reader leaves it),
// its expectations into `e`.
void pull_round(json::Pull& p, const LineShape& s, Round& r, Expected& e,
                std::vector<uint8_t>& lanes) {
  p.expect('{');
  std::size_t n = spec::kWarpSize;
  if (s.cta) {
    if (!p.key_is("threads")) throw NeedDom{};
    const auto t = pull_id(p);
    if (t == 0 || t > model::kMaxCtaThreads) throw NeedDom{};
    n = static_cast<std::size_t>(t);
    member(p, "exited");
  } else if (!p.key_is("exited")) {
    throw NeedDom{};
  }
  if (s.cta) {
    r.warp = model::Warp{};
    auto& c = r.cta;
    pull_block_status(p, n, c);
    c.pred.assign(n, 0);
    if (s.has_a) {
      member(p, "a");
      pull_list(p, n, 32, c.pred.data());
    }
    member(p, "expect");
  } else {
    const uint32_t exited = pull_word(p);
    member(p, "inactive");
    const uint32_t inactive = pull_word(p);
    if (exited & inactive) throw NeedDom{};  // a lane both exited and inactive
    r.cta.arrive.clear();
    r.cta.exited.clear();
    r.cta.pred.clear();
    auto& w = r.warp;
    if (s.imm_mask) {
      w.mask.fill(*s.imm_mask);
    } else {
      member(p, "mask");
      pull_list(p, n, 32, w.mask.data());
    }
    if (s.has_a) {
      member(p, "a");
      pull_list(p, n, s.a_bits, w.a.data());
    } else {
      w.a.fill(0);
    }
    if (!p.more_members()) throw NeedDom{};
    const auto k = p.key();  // "site" (only when some lane's is not 0), then "expect"
    if (k == "site") {
      pull_list(p, n, 32, w.site.data());
      member(p, "expect");
    } else if (k == "expect") {
      w.site.fill(0);
    } else {
      throw NeedDom{};
    }
    for (unsigned i = 0; i < n; ++i) {
      w.exec[i] = (~(exited | inactive) >> i) & 1u;
      w.exited[i] = (exited >> i) & 1u;
    }
  }
  pull_expectation(p, s, n, e, lanes);
  if (p.more_members()) throw NeedDom{};
}

}  // namespace

bool VectorReader::pull(std::string_view line) {
  try {
    pull_line(line);
    return true;
  } catch (const json::Pull::Error&) {
  } catch (const NeedDom&) {
  }
  return false;
}

void VectorReader::pull_line(std::string_view line) {
  // Exactly the keys `vector_line` writes, in its order; every value is checked as the DOM reader
  // checks it, and anything it might word differently throws.
  json::Pull p(line);
  VectorExpect& out = cur_;
  Vector& v = out.vector;
  p.expect('{');
  if (!p.key_is("id")) throw NeedDom{};
  out.id = pull_id(p);
  member(p, "form");
  const auto form = p.string();
  member(p, "instruction");
  spec::ParseError err;
  const auto* in = cached(p.string(), err);
  if (!in) throw NeedDom{};
  if (form != form_text_ || form_id_ != in->instr.form) {
    const auto f = spec::find_form(form);
    if (f != in->instr.form) throw NeedDom{};
    form_text_.assign(form);
    form_id_ = f;
  }
  out.instr = in;
  member(p, "ub");
  out.ub = p.boolean();
  member(p, "source");
  v.source.assign(p.string());
  member(p, "clauses");
  out.clauses.clear();
  p.expect('[');
  if (!p.accept(']')) do {
      if (auto c = spec::find_clause(p.string())) out.clauses.push_back(*c);
    } while (p.more_items());
  member(p, "rounds");
  const auto& f = spec::form_info(in->instr.form);
  const auto syn = spec::value_syntax(*in);
  LineShape shape;
  shape.cta = !spec::is_warp_form(f.id);
  shape.want_d = f.d_type != spec::ResultType::None && in->instr.write_d;
  shape.want_p = in->instr.write_p;
  shape.has_a = !syn.none;
  shape.a_bits = shape.cta ? 32 : syn.bits;
  if (shape.a_bits != 32 && shape.a_bits != 64) throw NeedDom{};  // compact_words reads these
  shape.imm_mask = in->instr.imm_mask;
  std::size_t k = 0;
  p.expect('[');
  if (p.accept(']')) throw NeedDom{};
  do {
    if (out.rounds.size() <= k) out.rounds.resize(k + 1);
    if (v.rounds.size() <= k) v.rounds.resize(k + 1);
    pull_round(p, shape, v.rounds[k], out.rounds[k], lanes_);
    ++k;
  } while (p.more_items());
  if (p.more_members()) throw NeedDom{};
  p.end();
  out.rounds.resize(k);
  v.rounds.resize(k);
  v.id = out.id;
  if (vector_instr_ != in) {
    v.instr = *in;
    vector_instr_ = in;
  }
  v.clauses = out.clauses;
}

void VectorReader::parse_expect(std::string_view line, std::size_t line_no) {
  if (!doc_.parse(line)) bad(file_, line_no, doc_.error_column(), doc_.error());
  LineCtx c{file_, line_no, doc_};
  const Where top{"vector", -1, ""};
  const auto& root = doc_.root();
  if (root.kind != json::Kind::Object) c.fail("expected a vector object");
  VectorExpect& out = cur_;
  auto id = json::as_uint(c.need(root, "id", top));
  if (!id) c.fail("\"id\": expected a non-negative integer");
  out.id = *id;
  out.instr = &instr(c.need(root, "instruction", top), line_no);
  if (const auto* fm = doc_.get(root, "form")) {
    const auto form = fm->kind == json::Kind::String ? spec::find_form(fm->text) : std::nullopt;
    if (!form)
      c.fail("\"form\": '" + std::string(fm->text) +
             "' is not a form of the catalog (warpspec list)");
    if (*form != out.instr->instr.form)
      c.fail("\"form\" is " + std::string(fm->text) + ", but the instruction is a " +
             std::string(spec::form_info(out.instr->instr.form).name));
  }
  out.ub = c.need(root, "ub", top).text == "true";
  out.clauses.clear();
  if (const auto* cl = doc_.get(root, "clauses")) {
    doc_.items(*cl, scratch_);
    for (const auto* k : scratch_)
      if (auto cid = spec::find_clause(k->text)) out.clauses.push_back(*cid);
  }
  const auto& f = spec::form_info(out.instr->instr.form);
  const bool cta = !spec::is_warp_form(f.id);
  const bool want_d = f.d_type != spec::ResultType::None && out.instr->instr.write_d;
  const bool want_p = out.instr->instr.write_p;
  const auto& rounds = c.need(root, "rounds", top);
  if (rounds.kind != json::Kind::Array || rounds.count == 0)
    c.fail("\"rounds\": expected a non-empty array");
  doc_.items(rounds, rounds_);
  out.rounds.resize(rounds_.size());
  for (std::size_t k = 0; k < rounds_.size(); ++k) {
    const Where rw{"rounds", static_cast<long>(k), ""};
    std::size_t n = spec::kWarpSize;
    if (cta) {
      auto t = json::as_uint(c.need(*rounds_[k], "threads", rw));
      if (!t || *t == 0 || *t > model::kMaxCtaThreads)
        c.fail(Where{"rounds", static_cast<long>(k), "threads"}, "expected 1 to 1024");
      n = *t;
    }
    const auto& ex = c.need(*rounds_[k], "expect", rw);
    const Where ew{"rounds", static_cast<long>(k), "expect"};
    Expected& e = out.rounds[k];
    read_set(c, c.need(ex, "defined", ew), n,
             Where{"rounds", static_cast<long>(k), "expect.defined"}, e.defined);
    e.executes = e.defined;
    e.d.assign(n, 0);
    e.p.assign(n, 0);
    e.ub.clear();
    if (want_d) {
      const Where dw{"rounds", static_cast<long>(k), "expect.d"};
      const auto& dl = c.need(ex, "d", ew);
      read_list(c, dl, n, dw, scratch_);
      for (std::size_t i = 0; i < n; ++i)
        e.d[i] = static_cast<uint32_t>(read_bits(c, *scratch_[i], 32, elem(dl, dw, i)));
    }
    if (want_p) {
      auto w =
          read_bits(c, c.need(ex, "p", ew), 32, Where{"rounds", static_cast<long>(k), "expect.p"});
      for (std::size_t i = 0; i < n && i < 32; ++i) e.p[i] = (w >> i) & 1u;
    }
    if (const auto* ub = doc_.get(ex, "ub")) {
      const Where uw{"rounds", static_cast<long>(k), "expect.ub"};
      std::vector<const json::Value*> us;
      doc_.items(*ub, us);
      for (const auto* u : us) {
        const auto& key = c.need(*u, "clause", uw);
        auto cid = spec::find_clause(key.text);
        if (!cid) c.fail(uw, "unknown clause \"" + std::string(key.text) + "\"");
        std::vector<uint8_t> lanes;
        read_set(c, c.need(*u, "lanes", uw), n, uw, lanes);
        std::vector<unsigned> ls;
        for (unsigned i = 0; i < n; ++i)
          if (lanes[i]) ls.push_back(i);
        e.ub.push_back({*cid, ls});
      }
    }
  }
}

void VectorReader::parse_dom(std::string_view line, std::size_t line_no) {
  ++general_lines_;
  parse_expect(line, line_no);  // validates the line, fills the instruction
  const VectorExpect& ex = cur_;
  LineCtx c{file_, line_no, doc_};
  const auto& root = doc_.root();
  Vector v;
  v.id = ex.id;
  v.instr = *ex.instr;
  v.clauses = ex.clauses;
  if (const auto* s = doc_.get(root, "source")) v.source = std::string(s->text);
  const auto syn = spec::value_syntax(v.instr);
  const bool cta = v.is_cta();
  std::vector<uint8_t> exited, inactive;
  std::vector<const json::Value*> xs;
  for (std::size_t k = 0; k < rounds_.size(); ++k) {
    const json::Value& r = *rounds_[k];
    const long kk = static_cast<long>(k);
    const Where rw{"rounds", kk, ""};
    Round round;
    const std::size_t n = ex.rounds[k].defined.size();
    read_set(c, c.need(r, "exited", rw), n, Where{"rounds", kk, "exited"}, exited);
    read_set(c, c.need(r, "inactive", rw), n, Where{"rounds", kk, "inactive"}, inactive);
    std::vector<uint64_t> a(n, 0);
    if (!syn.none) {
      const Where aw{"rounds", kk, "a"};
      const auto& al = c.need(r, "a", rw);
      read_list(c, al, n, aw, xs);
      for (std::size_t i = 0; i < n; ++i)
        a[i] = read_bits(c, *xs[i], cta ? 32 : syn.bits, elem(al, aw, i));
    }
    if (cta) {
      round.cta = model::make_cta(n);
      for (std::size_t i = 0; i < n; ++i) {
        round.cta.exited[i] = exited[i];
        round.cta.arrive[i] = !exited[i] && !inactive[i];
        round.cta.pred[i] = static_cast<uint32_t>(a[i]);
      }
    } else {
      round.warp = model::make_warp(v.instr.instr.imm_mask.value_or(0));
      if (!v.instr.instr.imm_mask) {
        const Where mw{"rounds", kk, "mask"};
        const auto& ml = c.need(r, "mask", rw);
        read_list(c, ml, n, mw, xs);
        for (std::size_t i = 0; i < n; ++i)
          round.warp.mask[i] = static_cast<uint32_t>(read_bits(c, *xs[i], 32, elem(ml, mw, i)));
      }
      if (const auto* st = doc_.get(r, "site")) {
        const Where sw{"rounds", kk, "site"};
        read_list(c, *st, n, sw, xs);
        for (std::size_t i = 0; i < n; ++i)
          round.warp.site[i] = static_cast<uint32_t>(read_bits(c, *xs[i], 32, elem(*st, sw, i)));
      }
      for (unsigned i = 0; i < n; ++i) {
        if (exited[i] && inactive[i])
          c.fail(rw, "lane " + std::to_string(i) + " is both exited and inactive");
        model::set_status(round.warp, i,
                          exited[i]     ? model::LaneStatus::Exited
                          : inactive[i] ? model::LaneStatus::Inactive
                                        : model::LaneStatus::Executes);
        round.warp.a[i] = a[i];
      }
    }
    v.rounds.push_back(std::move(round));
  }
  cur_.vector = std::move(v);
  vector_instr_ = nullptr;
}

ResultShape result_shape(const spec::ParsedInstr& in, std::vector<std::size_t> widths) {
  const auto& f = spec::form_info(in.instr.form);
  ResultShape s;
  s.widths = std::move(widths);
  s.d = f.d_type == spec::ResultType::None || in.instr.write_d;
  s.p = in.instr.write_p;
  return s;
}

namespace {

// What one round object of a results line said.
struct RoundGot {
  bool have_d = false, have_p = false;
  std::vector<uint8_t> p_present;
};

// Turns what a round said into per-lane presence: a lane has its result when every field the
// shape asks for has a value there.
void settle(Observed& o, const ResultShape& s, const RoundGot& got) {
  const std::size_t n = o.present.size();
  if (!s.d)
    o.present.assign(n, 1);
  else if (!got.have_d)
    o.present.assign(n, 0);
  if (s.p)
    for (std::size_t i = 0; i < n; ++i)
      o.present[i] = o.present[i] && got.have_p && got.p_present[i];
}

void blank(Observed& o, std::size_t n) {
  o.d.assign(n, 0);
  o.p.assign(n, 0);
  o.present.assign(n, 0);
  o.ub_reported = false;
  o.hang = false;
}

// Rounds the line does not give: after a round that hung they did not run (they hang too);
// otherwise they have no result on any lane.
void fill_missing_rounds(ResultLine& out, std::size_t given, const ResultShape& s) {
  out.rounds.resize(std::max(given, s.widths.size()));
  bool hung = false;
  for (std::size_t k = 0; k < s.widths.size(); ++k) {
    if (k >= given) {
      blank(out.rounds[k], s.widths[k]);
      out.rounds[k].hang = hung;
    }
    hung = hung || out.rounds[k].hang;
  }
}

}  // namespace

const ResultLine& ResultReader::parse(std::string_view line, std::size_t line_no,
                                      const ResultShape& shape) {
  try {
    return pull(line, shape);
  } catch (const json::Pull::Error&) {
  } catch (const NeedDom&) {
  }
  return parse_dom(line, line_no, shape);
}

const ResultLine& ResultReader::pull(std::string_view line, const ResultShape& shape) {
  const auto& widths = shape.widths;
  json::Pull p(line);
  ResultLine& out = cur_;
  out.skipped = false;
  bool have_id = false, flat = false, nested = false;
  std::size_t rounds = 0;
  auto reset = [&](std::size_t k) {
    if (k >= widths.size()) throw NeedDom{};
    if (out.rounds.size() <= k) out.rounds.resize(k + 1);
    blank(out.rounds[k], widths[k]);
    return &out.rounds[k];
  };
  // Reads the d/p/ub/hang members of one round object, starting at member `first`, up to (not
  // including) its closing brace. Any other member is left to the general reader.
  auto round_members = [&](Observed& o, std::size_t n, std::string_view first) {
    RoundGot got;
    std::string_view k = first;
    while (true) {
      if (k == "d") {
        pull_lanes(p, n, 32, o.d, &o.present);
        got.have_d = true;
      } else if (k == "p") {
        if (!shape.p) throw NeedDom{};  // an error, worded by the general reader
        std::vector<uint32_t> pv(n, 0);
        got.p_present.assign(n, 0);
        pull_lanes(p, n, 1, pv, &got.p_present);
        for (std::size_t i = 0; i < n; ++i) o.p[i] = pv[i] != 0;
        got.have_p = true;
      } else if (k == "ub") {
        o.ub_reported = p.boolean();
      } else if (k == "hang") {
        o.hang = p.boolean();
      } else {
        throw NeedDom{};
      }
      if (!p.accept(',')) break;
      k = p.key();
    }
    settle(o, shape, got);
  };
  p.expect('{');
  if (p.peek() == '}') throw NeedDom{};
  do {
    const auto k = p.key();
    if (k == "id") {
      out.id = pull_id(p);
      have_id = true;
    } else if (k == "skipped") {
      out.skipped = p.boolean();
    } else if (k == "rounds") {
      if (nested) throw NeedDom{};
      nested = true;
      p.expect('[');
      if (!p.accept(']')) do {
          Observed* o = reset(rounds);
          p.expect('{');
          if (p.accept('}'))
            settle(*o, shape, {});
          else {
            round_members(*o, widths[rounds], p.key());
            p.expect('}');
          }
          ++rounds;
        } while (p.more_items());
    } else if (k == "d" || k == "p" || k == "ub" || k == "hang") {
      if (flat || nested) throw NeedDom{};
      flat = true;
      round_members(*reset(0), widths[0], k);
      rounds = 1;
      p.expect('}');
      p.end();
      break;
    } else {
      throw NeedDom{};  // an unknown member: the general reader decides
    }
  } while (p.more_members());
  if (!flat) p.end();
  if (!have_id) throw NeedDom{};
  if (out.skipped) {
    out.rounds.clear();
    return out;
  }
  if (!flat && !nested) {  // neither d, p nor rounds: a first round with no result at all
    settle(*reset(0), shape, {});
    rounds = 1;
  }
  fill_missing_rounds(out, rounds, shape);
  return out;
}

const ResultLine& ResultReader::parse_dom(std::string_view line, std::size_t line_no,
                                          const ResultShape& shape) {
  const auto& widths = shape.widths;
  if (!doc_.parse(line)) bad(file_, line_no, doc_.error_column(), doc_.error());
  LineCtx c{file_, line_no, doc_};
  const auto& root = doc_.root();
  if (root.kind != json::Kind::Object)
    c.fail("expected a result object such as {\"id\": 1, \"d\": [...]}");
  ResultLine& out = cur_;
  auto id = json::as_uint(c.need(root, "id", Where{"result", -1, ""}));
  if (!id) c.fail("\"id\": expected a non-negative integer");
  out.id = *id;
  out.skipped = false;
  if (const auto* sk = doc_.get(root, "skipped"); sk && sk->text == "true") {
    out.skipped = true;
    out.rounds.clear();
    return out;
  }
  const bool nested = doc_.get(root, "rounds") != nullptr;
  if (nested) {
    const auto* rs = doc_.get(root, "rounds");
    if (rs->kind != json::Kind::Array) c.fail("\"rounds\": expected an array");
    doc_.items(*rs, rounds_);
    for (const char* k : {"d", "p", "ub", "hang"})
      if (doc_.get(root, k))
        c.fail(std::string("\"") + k +
               "\" beside \"rounds\": put it inside the round it belongs to");
  } else {
    rounds_.assign(1, &root);
  }
  if (rounds_.size() > widths.size())
    c.fail(std::to_string(rounds_.size()) + " rounds, but vector " + std::to_string(out.id) +
           " has " + std::to_string(widths.size()));
  out.rounds.resize(rounds_.size());
  for (std::size_t k = 0; k < rounds_.size(); ++k) {
    const char* base = nested ? "rounds" : "result";
    const long kk = nested ? static_cast<long>(k) : -1;
    const std::size_t n = widths[k];
    Observed& o = out.rounds[k];
    blank(o, n);
    if (rounds_[k]->kind != json::Kind::Object) c.fail(Where{base, kk, ""}, "expected an object");
    RoundGot got;
    if (const auto* d = doc_.get(*rounds_[k], "d")) {
      const Where dw{base, kk, "d"};
      read_results(c, *d, n, dw, scratch_);
      for (std::size_t i = 0; i < scratch_.size(); ++i) {
        if (scratch_[i]->kind == json::Kind::Null) continue;
        o.d[i] = static_cast<uint32_t>(read_bits(c, *scratch_[i], 32, elem(*d, dw, i)));
        o.present[i] = 1;
      }
      got.have_d = true;
    }
    if (const auto* p = doc_.get(*rounds_[k], "p")) {
      const Where pw{base, kk, "p"};
      if (!shape.p)
        c.fail(pw, "this instruction writes no predicate p; give only d (docs/vectors.md)");
      read_results(c, *p, n, pw, scratch_);
      got.p_present.assign(n, 0);
      for (std::size_t i = 0; i < scratch_.size(); ++i) {
        if (scratch_[i]->kind == json::Kind::Null) continue;
        o.p[i] = read_bits(c, *scratch_[i], 1, elem(*p, pw, i)) != 0;
        got.p_present[i] = 1;
      }
      got.have_p = true;
    }
    auto flag = [&](std::string_view key) {
      const auto* v = doc_.get(*rounds_[k], key);
      if (!v) return false;
      if (v->kind != json::Kind::Bool)
        c.fail(Where{base, kk, key == "ub" ? "ub" : "hang"}, "expected true or false");
      return v->text == "true";
    };
    o.ub_reported = flag("ub");
    o.hang = flag("hang");
    settle(o, shape, got);
  }
  fill_missing_rounds(out, rounds_.size(), shape);
  return out;
}

std::string result_line(uint64_t id, const std::vector<Observed>& rounds, bool pred_d,
                        bool with_p) {
  auto one = [&](const Observed& o) {
    std::string s = "\"d\":[";
    for (std::size_t i = 0; i < o.d.size(); ++i) {
      s += i ? "," : "";
      s += !o.present[i] ? "null" : pred_d ? (o.d[i] ? "true" : "false") : hex32(o.d[i]);
    }
    s += "]";
    if (with_p) {
      s += ",\"p\":[";
      for (std::size_t i = 0; i < o.p.size(); ++i)
        s += std::string(i ? "," : "") + (!o.present[i] ? "null" : o.p[i] ? "1" : "0");
      s += "]";
    }
    if (o.ub_reported) s += ",\"ub\":true";
    if (o.hang) s += ",\"hang\":true";
    return s;
  };
  if (rounds.size() == 1) return "{\"id\":" + std::to_string(id) + "," + one(rounds[0]) + "}";
  std::string s = "{\"id\":" + std::to_string(id) + ",\"rounds\":[";
  for (std::size_t k = 0; k < rounds.size(); ++k) s += (k ? ",{" : "{") + one(rounds[k]) + "}";
  return s + "]}";
}

}  // namespace warpspec::vectors
