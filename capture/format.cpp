#include "capture/format.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <system_error>

#include "model/state_io.hpp"

namespace warpspec::capture {

using nlohmann::json;
namespace {

constexpr unsigned kW = spec::kWarpSize;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// Parsing context: names the file and line in every error.
struct Ctx {
  const std::string& file;
  std::size_t line;
  [[noreturn]] void fail(const std::string& what) const { throw FormatError(file, line, what); }
};

/// Parses one line as JSON; a syntax error names its column and what was expected there.
json parse_line(const Ctx& c, const std::string& text, const char* expected) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    c.fail(std::string(expected) + ", but this line is not valid JSON at column " +
           std::to_string(e.byte == 0 ? 1 : e.byte) + " (" + model::json_error_text(e.what()) +
           ")");
  } catch (const json::exception& e) {
    c.fail(std::string(expected) + ", but this line is not valid JSON (" +
           model::json_error_text(e.what()) + ")");
  }
}

uint64_t word(const Ctx& c, const json& v, const char* field, int bits) {
  const uint64_t limit = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t x = 0;
  if (v.is_number_unsigned()) {
    x = v.get<uint64_t>();
  } else if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    x = static_cast<uint64_t>(v.get<int64_t>());
  } else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
      c.fail(std::string("field '") + field + "': expected a hex word such as \"0x1f\", got \"" +
             s + "\"");
    for (std::size_t i = 2; i < s.size(); ++i) {
      const char ch = s[i];
      int dgt = -1;
      if (ch >= '0' && ch <= '9') dgt = ch - '0';
      if (ch >= 'a' && ch <= 'f') dgt = ch - 'a' + 10;
      if (ch >= 'A' && ch <= 'F') dgt = ch - 'A' + 10;
      if (dgt < 0) c.fail(std::string("field '") + field + "': bad hex digit in \"" + s + "\"");
      x = (x << 4) | static_cast<uint64_t>(dgt);
    }
  } else {
    c.fail(std::string("field '") + field +
           "': expected an unsigned number or a \"0x\" hex string");
  }
  if (x > limit)
    c.fail(std::string("field '") + field + "': value " + hex(x) + " does not fit in " +
           std::to_string(bits) + " bits");
  return x;
}

const json& need(const Ctx& c, const json& obj, const char* field) {
  auto it = obj.find(field);
  if (it == obj.end()) c.fail(std::string("missing field '") + field + "'");
  return *it;
}

std::string need_string(const Ctx& c, const json& obj, const char* field) {
  const json& v = need(c, obj, field);
  if (!v.is_string()) c.fail(std::string("field '") + field + "': expected a string");
  return v.get<std::string>();
}

std::string opt_string(const Ctx& c, const json& obj, const char* field) {
  auto it = obj.find(field);
  if (it == obj.end()) return {};
  if (!it->is_string()) c.fail(std::string("field '") + field + "': expected a string");
  return it->get<std::string>();
}

/// A per-lane field: one value for every lane, or an array of `n`.
template <class T, class F>
std::vector<T> per_lane(const Ctx& c, const json& v, const char* field, std::size_t n, F&& conv) {
  std::vector<T> out;
  if (v.is_array()) {
    if (v.size() != n)
      c.fail(std::string("field '") + field + "': expected " + std::to_string(n) +
             " entries, got " + std::to_string(v.size()));
    for (const auto& e : v) out.push_back(conv(e));
  } else {
    out.assign(n, conv(v));
  }
  return out;
}

/// A per-lane result: one value for every lane in `who`, or an array with null elsewhere.
template <class T, class F>
std::vector<T> results(const Ctx& c, const json& v, const char* field, const std::vector<bool>& who,
                       F&& conv) {
  std::vector<T> out(who.size(), T{});
  if (!v.is_array()) {
    if (v.is_null()) c.fail(std::string("field '") + field + "': expected a value, not null");
    const T x = conv(v);
    for (std::size_t i = 0; i < who.size(); ++i)
      if (who[i]) out[i] = x;
    return out;
  }
  if (v.size() != who.size())
    c.fail(std::string("field '") + field + "': expected " + std::to_string(who.size()) +
           " entries, got " + std::to_string(v.size()));
  for (std::size_t i = 0; i < who.size(); ++i) {
    if (who[i] && v[i].is_null())
      c.fail(std::string("field '") + field + "': entry " + std::to_string(i) +
             " is null but that lane or thread executes");
    if (!who[i] && !v[i].is_null())
      c.fail(std::string("field '") + field + "': entry " + std::to_string(i) +
             " must be null: that lane or thread does not execute");
    if (who[i]) out[i] = conv(v[i]);
  }
  return out;
}

bool as_bool(const Ctx& c, const json& v, const char* field) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_unsigned() || v.is_number_integer()) {
    auto x = v.get<int64_t>();
    if (x == 0 || x == 1) return x == 1;
  }
  c.fail(std::string("field '") + field + "': expected true/false or 0/1");
}

std::optional<spec::CType> ctype_from(std::string_view s) {
  using spec::CType;
  for (CType t : {CType::Int, CType::Unsigned, CType::Long, CType::UnsignedLong, CType::LongLong,
                  CType::UnsignedLongLong, CType::Float, CType::Double})
    if (spec::ctype_name(t) == s) return t;
  return std::nullopt;
}

/// Fields shared by warp and block records: form, how it was invoked, negation, tag.
template <class R>
void parse_invocation(const Ctx& c, const json& o, R& r) {
  const std::string form = need_string(c, o, "form");
  auto id = spec::find_form(form);
  if (!id)
    c.fail("unknown form '" + form + "': expected a catalog name such as match.any.sync.b32");
  r.form = *id;
  const std::string via = need_string(c, o, "via");
  if (via == "ptx") {
    r.via = Via::Ptx;
    r.instr = need_string(c, o, "instr");
    if (r.instr.rfind(form, 0) != 0)
      c.fail("field 'instr': \"" + r.instr + "\" does not start with the form name " + form);
  } else if (via == "intrinsic") {
    r.via = Via::Intrinsic;
    r.call = need_string(c, o, "call");
    // Intrinsics without a value argument (__syncthreads) carry no ctype.
    const std::string ct = opt_string(c, o, "ctype");
    if (!ct.empty()) {
      auto t = ctype_from(ct);
      if (!t) c.fail("field 'ctype': unknown C type '" + ct + "'");
      r.ctype = *t;
    }
    bool found = false;
    for (const auto& i : spec::all_intrinsics())
      if (i.name == r.call && i.form == r.form && i.value_type == r.ctype) found = true;
    if (!found) c.fail("intrinsic " + r.call + "(" + ct + ") does not lower to " + form);
  } else {
    c.fail("field 'via': expected \"ptx\" or \"intrinsic\", got \"" + via + "\"");
  }
  if (auto it = o.find("negate"); it != o.end()) r.negate = as_bool(c, *it, "negate");
  if (r.negate && !spec::form_info(r.form).negatable) c.fail(form + " has no negated operand");
  r.tag = opt_string(c, o, "tag");
}

WarpRecord parse_warp(const Ctx& c, const json& o) {
  WarpRecord r;
  parse_invocation(c, o, r);
  const uint32_t exec = static_cast<uint32_t>(word(c, need(c, o, "executes"), "executes", 32));
  const uint32_t exited = static_cast<uint32_t>(word(c, need(c, o, "exited"), "exited", 32));
  if (exec & exited) c.fail("lanes " + hex(exec & exited) + " are both executing and exited");
  std::vector<bool> who(kW);
  for (unsigned i = 0; i < kW; ++i) {
    who[i] = (exec >> i) & 1u;
    r.status[i] = who[i]                 ? model::LaneStatus::Executes
                  : ((exited >> i) & 1u) ? model::LaneStatus::Exited
                                         : model::LaneStatus::Inactive;
  }
  const int abits = spec::form_info(r.form).a_type == spec::OperandType::B64 ? 64 : 32;
  // Predicate sources are compared with 0 over the whole register the harness passed (64 bits).
  const int vbits = spec::form_info(r.form).a_type == spec::OperandType::Pred ? 64 : abits;
  auto w32 = [&](const char* f) {
    return [&c, f](const json& v) { return static_cast<uint32_t>(word(c, v, f, 32)); };
  };
  auto m = per_lane<uint32_t>(c, need(c, o, "mask"), "mask", kW, w32("mask"));
  auto a = per_lane<uint64_t>(c, need(c, o, "a"), "a", kW,
                              [&](const json& v) { return word(c, v, "a", vbits); });
  std::vector<uint32_t> site(kW, 0);
  if (auto it = o.find("site"); it != o.end())
    site = per_lane<uint32_t>(c, *it, "site", kW, w32("site"));
  for (unsigned i = 0; i < kW; ++i) {
    r.mask[i] = m[i];
    r.a[i] = a[i];
    r.site[i] = site[i];
  }
  r.fault = opt_string(c, o, "fault");
  if (!r.fault.empty()) {
    // A failed launch observed nothing: only what the instruction would have written.
    if (o.contains("d") || o.contains("p") || o.contains("active"))
      c.fail("a record with 'fault' carries no 'd', 'p' or 'active'");
    const std::string w = need_string(c, o, "writes");
    if (w != "d" && w != "p" && w != "d|p")
      c.fail("field 'writes': expected \"d\", \"p\" or \"d|p\"");
    r.has_d = w != "p";
    r.has_p = w != "d";
    if (r.has_p && !spec::form_info(r.form).optional_p)
      c.fail(std::string(spec::form_info(r.form).name) + " has no p result");
    return r;
  }
  if (auto it = o.find("d"); it != o.end()) {
    r.has_d = true;
    auto d = results<uint32_t>(c, *it, "d", who, w32("d"));
    for (unsigned i = 0; i < kW; ++i) r.d[i] = d[i];
  }
  if (auto it = o.find("p"); it != o.end()) {
    r.has_p = true;
    auto p =
        results<char>(c, *it, "p", who, [&](const json& v) { return char(as_bool(c, v, "p")); });
    for (unsigned i = 0; i < kW; ++i) r.p[i] = p[i] != 0;
  }
  if (!r.has_d && !r.has_p) c.fail("a warp record needs an observed 'd' or 'p'");
  if (r.has_p && !spec::form_info(r.form).optional_p)
    c.fail(spec::form_info(r.form).name.data() + std::string(" has no p result"));
  if (auto it = o.find("active"); it != o.end()) {
    auto act = results<uint32_t>(c, *it, "active", who, w32("active"));
    r.active.emplace();
    for (unsigned i = 0; i < kW; ++i) (*r.active)[i] = act[i];
  }
  return r;
}

CtaRecord parse_cta(const Ctx& c, const json& o) {
  CtaRecord r;
  parse_invocation(c, o, r);
  const json& tv = need(c, o, "threads");
  if (!tv.is_number_unsigned() || tv.get<uint64_t>() < 1 ||
      tv.get<uint64_t>() > model::kMaxCtaThreads)
    c.fail("field 'threads': expected a block size from 1 to 1024");
  const std::size_t n = tv.get<std::size_t>();
  const std::size_t warps = (n + kW - 1) / kW;
  const json& ev = need(c, o, "exited");
  if (!ev.is_array() || ev.size() != warps)
    c.fail("field 'exited': expected an array of " + std::to_string(warps) +
           " lane words, one per warp");
  r.exited.assign(n, false);
  std::vector<bool> who(n, true);
  for (std::size_t w = 0; w < warps; ++w) {
    const uint64_t bits = word(c, ev[w], "exited", 32);
    for (unsigned i = 0; i < kW; ++i) {
      const std::size_t t = w * kW + i;
      const bool b = (bits >> i) & 1u;
      if (t >= n && b)
        c.fail("field 'exited': bit set for thread " + std::to_string(t) + " beyond the block");
      if (t < n) r.exited[t] = b, who[t] = !b;
    }
  }
  auto w32 = [&](const char* f) {
    return [&c, f](const json& v) { return static_cast<uint32_t>(word(c, v, f, 32)); };
  };
  r.pred = per_lane<uint32_t>(c, need(c, o, "pred"), "pred", n, w32("pred"));
  r.d = results<uint32_t>(c, need(c, o, "d"), "d", who, w32("d"));
  return r;
}

json lane_words(const std::array<uint32_t, kW>& v) {
  bool same = true;
  for (unsigned i = 1; i < kW; ++i) same = same && v[i] == v[0];
  if (same) return hex(v[0]);
  json a = json::array();
  for (auto x : v) a.push_back(hex(x));
  return a;
}

/// Results on the lanes in `who`: a scalar when they all agree, else an array with nulls.
template <class T, class F>
json result_words(const std::vector<T>& v, const std::vector<bool>& who, F&& enc) {
  std::optional<T> first;
  bool same = true;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (who[i]) {
      if (!first) first = v[i];
      same = same && v[i] == *first;
    }
  if (same && first) return enc(*first);
  json a = json::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.push_back(who[i] ? enc(v[i]) : json());
  return a;
}

template <class R>
void put_invocation(json& o, const R& r) {
  o["form"] = spec::form_info(r.form).name;
  if (r.via == Via::Ptx) {
    o["via"] = "ptx";
    o["instr"] = r.instr;
  } else {
    o["via"] = "intrinsic";
    o["call"] = r.call;
    if (r.ctype != spec::CType::Void) o["ctype"] = spec::ctype_name(r.ctype);
  }
  if (r.negate) o["negate"] = true;
  if (!r.tag.empty()) o["tag"] = r.tag;
}

json warp_json(const WarpRecord& r) {
  json o = json::object();
  put_invocation(o, r);
  uint32_t exec = 0, exited = 0;
  std::vector<bool> who(kW);
  for (unsigned i = 0; i < kW; ++i) {
    who[i] = r.status[i] == model::LaneStatus::Executes;
    if (who[i]) exec |= 1u << i;
    if (r.status[i] == model::LaneStatus::Exited) exited |= 1u << i;
  }
  o["executes"] = hex(exec);
  o["exited"] = hex(exited);
  o["mask"] = lane_words(r.mask);
  bool same_a = true;
  for (unsigned i = 1; i < kW; ++i) same_a = same_a && r.a[i] == r.a[0];
  if (same_a) {
    o["a"] = hex(r.a[0]);
  } else {
    json a = json::array();
    for (auto x : r.a) a.push_back(hex(x));
    o["a"] = a;
  }
  bool any_site = false;
  for (auto s : r.site) any_site = any_site || s != 0;
  if (any_site) {
    json s = json::array();
    for (auto x : r.site) s.push_back(x);
    o["site"] = s;
  }
  if (!r.fault.empty()) {
    o["fault"] = r.fault;
    o["writes"] = r.has_d && r.has_p ? "d|p" : r.has_p ? "p" : "d";
    return o;
  }
  if (r.has_d)
    o["d"] = result_words(std::vector<uint32_t>(r.d.begin(), r.d.end()), who,
                          [](uint32_t x) { return json(hex(x)); });
  if (r.has_p)
    o["p"] =
        result_words(std::vector<int>(r.p.begin(), r.p.end()), who, [](int x) { return json(x); });
  if (r.active)
    o["active"] = result_words(std::vector<uint32_t>(r.active->begin(), r.active->end()), who,
                               [](uint32_t x) { return json(hex(x)); });
  return o;
}

json cta_json(const CtaRecord& r) {
  json o = json::object();
  put_invocation(o, r);
  const std::size_t n = r.exited.size();
  o["threads"] = n;
  json ex = json::array();
  std::vector<bool> who(n);
  for (std::size_t w = 0; w * kW < n; ++w) {
    uint32_t bits = 0;
    for (unsigned i = 0; i < kW && w * kW + i < n; ++i)
      if (r.exited[w * kW + i]) bits |= 1u << i;
    ex.push_back(hex(bits));
  }
  for (std::size_t t = 0; t < n; ++t) who[t] = !r.exited[t];
  o["exited"] = ex;
  std::vector<bool> all(n, true);
  o["pred"] = result_words(r.pred, all, [](uint32_t x) { return json(hex(x)); });
  o["d"] = result_words(r.d, who, [](uint32_t x) { return json(hex(x)); });
  return o;
}

}  // namespace

// ---------------------------------------------------------------- lines

std::string to_line(const Header& h) {
  json o = json::object();
  o["schema"] = kSchema;
  o["device"] = h.device;
  o["sm"] = h.sm;
  o["driver"] = h.driver;
  o["runtime"] = h.runtime;
  if (!h.compiler.empty()) o["compiler"] = h.compiler;
  if (!h.ptx.empty()) o["ptx"] = h.ptx;
  if (!h.set.empty()) o["set"] = h.set;
  o["seed"] = h.seed;
  o["warp_size"] = kW;
  return o.dump();
}

std::string to_line(const Record& r) {
  return std::visit(
      [](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, WarpRecord>)
          return warp_json(x).dump();
        else
          return cta_json(x).dump();
      },
      r);
}

Header parse_header(const std::string& text, const std::string& file, std::size_t line) {
  const Ctx c{file, line};
  json o = parse_line(c, text, "expected the header: a JSON object with \"schema\"");
  if (!o.is_object()) c.fail("expected the header: a JSON object with \"schema\"");
  auto it = o.find("schema");
  if (it == o.end() || !it->is_string())
    c.fail(std::string("expected the header line with \"schema\": \"") + std::string(kSchema) +
           "\"");
  if (it->get<std::string>() != kSchema)
    c.fail("unsupported schema \"" + it->get<std::string>() + "\": expected \"" +
           std::string(kSchema) + "\"");
  if (auto ws = o.find("warp_size");
      ws != o.end() && !(ws->is_number_unsigned() && ws->get<uint64_t>() == kW))
    c.fail("field 'warp_size': expected 32");
  Header h;
  h.device = need_string(c, o, "device");
  h.sm = need_string(c, o, "sm");
  if (!spec::parse_target(h.sm))
    c.fail("field 'sm': expected a target such as sm_90, got \"" + h.sm + "\"");
  h.driver = need_string(c, o, "driver");
  h.runtime = need_string(c, o, "runtime");
  h.compiler = opt_string(c, o, "compiler");
  h.ptx = opt_string(c, o, "ptx");
  if (!h.ptx.empty() && !spec::parse_ptx(h.ptx))
    c.fail("field 'ptx': expected a version such as 9.0");
  h.set = opt_string(c, o, "set");
  if (auto s = o.find("seed"); s != o.end()) h.seed = word(c, *s, "seed", 64);
  return h;
}

Record parse_record(const std::string& text, const std::string& file, std::size_t line) {
  const Ctx c{file, line};
  json o = parse_line(c, text, "expected one JSON object per line");
  if (!o.is_object()) c.fail("expected a JSON object");
  const std::string form = need_string(c, o, "form");
  auto id = spec::find_form(form);
  if (!id)
    c.fail("unknown form '" + form + "': expected a catalog name such as match.any.sync.b32");
  if (spec::is_warp_form(*id)) return parse_warp(c, o);
  return parse_cta(c, o);
}

// ---------------------------------------------------------------- model views

spec::Instr instr_of(const WarpRecord& r) {
  spec::Instr in;
  in.form = r.form;
  in.negate = r.negate;
  in.write_d = r.has_d;
  in.write_p = r.has_p;
  return in;
}

model::Warp warp_of(const WarpRecord& r) {
  model::Warp w{};
  for (unsigned i = 0; i < kW; ++i) {
    model::set_status(w, i, r.status[i]);
    w.mask[i] = r.mask[i];
    w.a[i] = r.a[i];
    w.site[i] = r.site[i];
  }
  return w;
}

spec::Instr instr_of(const CtaRecord& r) {
  spec::Instr in;
  in.form = r.form;
  in.negate = r.negate;
  return in;
}

model::Cta cta_of(const CtaRecord& r) {
  model::Cta c = model::make_cta(r.exited.size());
  for (std::size_t t = 0; t < r.exited.size(); ++t) {
    c.exited[t] = r.exited[t];
    c.arrive[t] = !r.exited[t];
    c.pred[t] = r.pred[t];
  }
  return c;
}

std::string invocation(const Record& r) {
  return std::visit(
      [](const auto& x) {
        if (x.via == Via::Ptx) return x.instr;
        if (x.ctype == spec::CType::Void) return x.call + "()";
        return x.call + "(" + std::string(spec::ctype_name(x.ctype)) + ")";
      },
      r);
}

}  // namespace warpspec::capture
