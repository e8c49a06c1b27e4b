#include "capture/format.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <system_error>

#include "json/read.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::capture {

using Json = nlohmann::json;  // for writing; reading is json/read.hpp
namespace {

constexpr unsigned kW = spec::kWarpSize;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// ---------------------------------------------------------------- reading

enum Member {
  kForm,
  kVia,
  kInstr,
  kCall,
  kCtype,
  kNegate,
  kTag,  // every record
  kExecutes,
  kExited,
  kMask,
  kA,
  kSite,
  kD,
  kP,
  kActive,
  kFault,
  kWrites,  // warp records
  kThreads,
  kPred,  // block records (with exited and d)
  kB,
  kC,
  kWidth,  // shuffle records
  kElsewhere,
  kPartner,
  kBar,
  kCount,
  kRan  // named block barriers
};
constexpr json::Names<27> kRecordNames{
    "form", "via", "instr", "call",  "ctype",     "negate",  "tag",   "executes", "exited",
    "mask", "a",   "site",  "d",     "p",         "active",  "fault", "writes",   "threads",
    "pred", "b",   "c",     "width", "elsewhere", "partner", "bar",   "count",    "ran"};

constexpr uint32_t bit(int k) {
  return uint32_t{1} << k;
}

/// A word: "0x" and 1 to 16 hex digits, or a non-negative integer, that fits `bits`.
uint64_t word(json::Value& v, int bits) {
  uint64_t x = 0;
  const auto kind = v.kind();
  if (kind == json::Kind::Number) {
    const auto u = v.as_uint();
    if (!u) v.expected("an unsigned number or a \"0x\" hex string");
    x = *u;
  } else if (kind == json::Kind::String) {
    const auto s = v.string();
    if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
      v.expected("a hex word such as \"0x1f\"");
    const auto h = json::hex_digits(s.substr(2));
    if (!h) v.fail("bad hex digit in " + json::found(v.doc().line().text, v.at()));
    x = *h;
  } else {
    v.expected("an unsigned number or a \"0x\" hex string");
  }
  if (bits < 64 && (x >> bits))
    v.fail("value " + hex(x) + " does not fit in " + std::to_string(bits) + " bits");
  return x;
}

uint64_t w32(json::Value& v) {
  return word(v, 32);
}

bool as_bool(json::Value& v) {
  if (v.kind() == json::Kind::Bool) return v.boolean();
  if (v.kind() == json::Kind::Number)
    if (const auto x = v.as_uint(); x && *x <= 1) return *x == 1;
  v.expected("true/false or 0/1");
}

/// A per-lane field: one value for every lane, or an array of `n`.
template <class T, class F>
void per_lane(json::Value& v, std::size_t n, T* out, F&& conv) {
  if (v.kind() != json::Kind::Array) {
    std::fill_n(out, n, static_cast<T>(conv(v)));
    return;
  }
  const auto count = v.array().each([&](std::size_t i, json::Value& x) {
    if (i < n) out[i] = static_cast<T>(conv(x));
  });
  if (count != n)
    v.fail("expected " + std::to_string(n) + " entries, found " + std::to_string(count));
}

/// A per-lane result: one value for every lane in `who`, or an array with null elsewhere.
template <class T, class F>
void results(json::Value& v, const std::vector<bool>& who, T* out, F&& conv) {
  if (v.kind() != json::Kind::Array) {
    if (v.null()) v.fail("expected a value, not null");
    const T x = static_cast<T>(conv(v));
    for (std::size_t i = 0; i < who.size(); ++i)
      if (who[i]) out[i] = x;
    return;
  }
  const auto count = v.array().each([&](std::size_t i, json::Value& x) {
    if (i >= who.size()) return;
    const bool null = x.null();
    if (who[i] && null) x.fail("null, but that lane or thread executes");
    if (!who[i] && !null) x.fail("must be null: that lane or thread does not execute");
    if (who[i]) out[i] = static_cast<T>(conv(x));
  });
  if (count != who.size())
    v.fail("expected " + std::to_string(who.size()) + " entries, found " + std::to_string(count));
}

std::optional<spec::CType> ctype_from(std::string_view s) {
  using spec::CType;
  for (CType t : {CType::Int, CType::Unsigned, CType::Long, CType::UnsignedLong, CType::LongLong,
                  CType::UnsignedLongLong, CType::Float, CType::Double})
    if (spec::ctype_name(t) == s) return t;
  return std::nullopt;
}

/// A record's line as it is read: the members every record has, kept with where they stand.
struct Fields {
  Fields(json::Document& d, json::Object& o, spec::FormId f) : doc(d), root(o), form(f) {}
  json::Document& doc;
  json::Object& root;
  spec::FormId form;
  uint32_t seen = 0;
  std::array<const char*, kRecordNames.size()> at{};  // where each member's value starts
  std::string_view via, instr, call, ctype, tag;

  [[noreturn]] void fail(int k, const std::string& msg) const {
    doc.fail(at[k], json::Path(root.path(), kRecordNames[k]), msg);
  }
  bool has(int k) const { return seen >> k & 1u; }
  /// Refuses a record without every member in `members` (bits of kRecordNames).
  void need(uint32_t members) const { root.require(kRecordNames, seen, members); }
  /// Reads a member every record has; false for another.
  bool common(int k, json::Value& m, bool& negate) {
    if (k < 0) return false;
    at[k] = m.at();
    switch (k) {
      case kForm:
        return true;  // read first
      case kVia:
        via = m.string();
        return true;
      case kInstr:
        instr = m.string();
        return true;
      case kCall:
        call = m.string();
        return true;
      case kCtype:
        ctype = m.string();
        return true;
      case kNegate:
        negate = as_bool(m);
        return true;
      case kTag:
        tag = m.string();
        return true;
      default:
        return false;
    }
  }
  /// Checks the members every record has and copies them into `r`.
  template <class R>
  void finish(R& r) {
    const std::string_view form = spec::form_info(this->form).name;
    r.form = this->form;
    need(bit(kVia));
    if (via == "ptx") {
      r.via = Via::Ptx;
      need(bit(kInstr));
      // A block barrier's text is read by the instruction parser instead (parse_cta), which
      // also knows its barrier.cta spellings.
      if (spec::is_warp_form(this->form) && !instr.starts_with(form))
        fail(kInstr, "\"" + spec::shown_text(instr) + "\" does not start with the form name " +
                         std::string(form));
      r.instr = instr;
    } else if (via == "intrinsic") {
      r.via = Via::Intrinsic;
      need(bit(kCall));
      r.call = call;
      // Intrinsics without a value argument (__syncthreads) carry no ctype.
      if (!ctype.empty()) {
        const auto t = ctype_from(ctype);
        if (!t) fail(kCtype, "unknown C type '" + spec::shown_text(ctype) + "'");
        r.ctype = *t;
      }
      bool found = false;
      for (const auto& i : spec::all_intrinsics())
        found = found || (i.name == r.call && i.form == r.form && i.value_type == r.ctype);
      if (!found)
        fail(kCall, "intrinsic " + spec::shown_text(r.call) + "(" + spec::shown_text(ctype) +
                        ") does not lower to " +
                        std::string(form));
    } else {
      fail(kVia, "expected \"ptx\" or \"intrinsic\", found \"" + spec::shown_text(via) + "\"");
    }
    if (r.negate && !spec::form_info(r.form).negatable)
      fail(kNegate, std::string(form) + " has no negated operand");
    r.tag = tag;
  }
};

/// The lanes of a record that executes: what d, p and active are read against.
std::vector<bool> lanes_of(uint32_t word) {
  std::vector<bool> who(kW);
  for (unsigned i = 0; i < kW; ++i) who[i] = (word >> i) & 1u;
  return who;
}

/// A shuffle's b and c, and an intrinsic's width, which must be what c was made from; no other
/// form has them.
void shuffle_operands(Fields& in, WarpRecord& r, const std::array<uint32_t, kW>& width) {
  const std::string_view form = spec::form_info(r.form).name;
  const bool bc = spec::has_operands_bc(r.form);
  for (const int k : {kB, kC})
    if (!bc && in.has(k))
      in.fail(k, std::string(form) + " has no " + std::string(kRecordNames[k]) + " operand");
  if (bc) in.need(bit(kB) | bit(kC));
  const bool takes_width = bc && r.via == Via::Intrinsic;
  if (!takes_width) {
    if (in.has(kWidth)) in.fail(kWidth, "only a shuffle intrinsic takes a width");
    return;
  }
  in.need(bit(kWidth));
  for (unsigned i = 0; i < kW; ++i)
    if (const uint32_t want = spec::shfl_c_of_width(width[i], spec::form_info(r.form).mode);
        r.c[i] != want)
      in.fail(kC, "lane " + std::to_string(i) + ": c is " + hex(r.c[i]) + ", but " + r.call +
                      " passes " + hex(want) + " for width " + std::to_string(width[i]));
  r.width = width;
}

/// The instruction a record's text writes, checked against its form and `negate` (written on
/// `operand`, "a" or "c"): the replay reads those fields, so a text that says otherwise is
/// refused, not replayed as the fields say.
template <class R>
spec::Instr record_instr(Fields& in, const R& r, const char* operand) {
  const auto parsed = spec::parse_instruction(r.instr);
  if (const auto* e = std::get_if<spec::ParseError>(&parsed))
    in.fail(kInstr, "\"" + spec::shown_text(r.instr) + "\" does not parse: " + e->message);
  const spec::Instr ins = std::get<spec::ParsedInstr>(parsed).instr;
  if (ins.form != r.form)
    in.fail(kInstr, "\"" + spec::shown_text(r.instr) + "\" is " +
                        std::string(spec::form_info(ins.form).name) +
                        ", not " + std::string(spec::form_info(r.form).name));
  if (ins.negate != r.negate)
    in.fail(in.has(kNegate) ? kNegate : kInstr,
            std::string("\"negate\" must be ") + (ins.negate ? "true" : "false") + ": \"" +
                spec::shown_text(r.instr) + "\" writes " + (ins.negate ? "!" : "") + operand);
  return ins;
}

/// A warp record's text, checked as record_instr() checks it and against its lanes' membermasks.
void warp_instr(Fields& in, const WarpRecord& r) {
  const spec::Instr ins = record_instr(in, r, "a");
  if (ins.imm_mask)
    for (unsigned i = 0; i < kW; ++i)
      if (r.status[i] == model::LaneStatus::Executes && r.mask[i] != *ins.imm_mask)
        in.fail(kMask, "lane " + std::to_string(i) + " passes " + hex(r.mask[i]) + ", but \"" +
                           r.instr + "\" writes the membermask " + hex(*ins.imm_mask));
}

WarpRecord parse_warp(Fields& in) {
  WarpRecord r;
  auto& root = in.root;
  // The lanes' status first: the results are read against it.
  uint32_t exec = 0, exited = 0;
  for (const int k : {kExecutes, kExited}) {
    const json::Path at(root.path(), kRecordNames[k]);
    auto v = root.find(kRecordNames[k], at);
    if (!v) root.fail("missing field \"" + std::string(kRecordNames[k]) + "\"");
    (k == kExecutes ? exec : exited) = static_cast<uint32_t>(word(*v, 32));
    if (k == kExited && (exec & exited))
      v->fail("lanes " + hex(exec & exited) + " are both executing and exited");
    root.reset();
  }
  const std::vector<bool> who = lanes_of(exec);
  for (unsigned i = 0; i < kW; ++i)
    r.status[i] = who[i]                 ? model::LaneStatus::Executes
                  : ((exited >> i) & 1u) ? model::LaneStatus::Exited
                                         : model::LaneStatus::Inactive;
  const auto& f = spec::form_info(in.form);
  // Predicate sources are compared with 0 over the whole register the harness passed (64 bits).
  const int abits =
      f.a_type == spec::OperandType::B64 || f.a_type == spec::OperandType::Pred ? 64 : 32;
  std::array<uint32_t, kW> active{}, width{};
  in.seen = root.members(kRecordNames, [&](int k, json::Value& m) {
    if (in.common(k, m, r.negate)) return;
    if (k >= 0) in.at[k] = m.at();
    switch (k) {
      case kExecutes:
      case kExited:
        break;  // read above
      case kMask:
        per_lane(m, kW, r.mask.data(), w32);
        break;
      case kA:
        per_lane(m, kW, r.a.data(), [&](json::Value& v) { return word(v, abits); });
        break;
      case kSite:
        per_lane(m, kW, r.site.data(), w32);
        break;
      case kB:
        per_lane(m, kW, r.b.data(), w32);
        break;
      case kC:
        per_lane(m, kW, r.c.data(), w32);
        break;
      case kWidth:
        per_lane(m, kW, width.data(), [](json::Value& v) {
          const auto x = v.kind() == json::Kind::Number ? v.as_uint() : std::nullopt;
          if (!x || *x < 1 || *x > kW) v.expected("a width from 1 to 32");
          return *x;
        });
        break;
      case kD:
        results(m, who, r.d.data(), w32);
        break;
      case kP:
        results(m, who, r.p.data(), as_bool);
        break;
      case kActive:
        results(m, who, active.data(), w32);
        break;
      case kFault:
        r.fault = m.string();
        break;
      case kWrites: {
        const auto w = m.string();
        if (w != "d" && w != "p" && w != "d|p") m.expected("\"d\", \"p\" or \"d|p\"");
        r.has_d = w != "p";
        r.has_p = w != "d";
        break;
      }
      default:
        m.skip();
    }
  });
  in.finish(r);
  in.need(bit(kMask) | bit(kA));
  if (r.via == Via::Ptx) warp_instr(in, r);
  shuffle_operands(in, r, width);
  if (in.has(kFault)) {
    // A failed launch observed nothing: only what the instruction would have written.
    for (const int k : {kD, kP, kActive})
      if (in.has(k)) in.fail(k, "a record with \"fault\" carries no d, p or active");
    in.need(bit(kWrites));
    if (r.has_p && !f.optional_p) in.fail(kWrites, std::string(f.name) + " has no p result");
    return r;
  }
  r.has_d = in.has(kD);
  r.has_p = in.has(kP);
  if (!r.has_d && !r.has_p) root.fail("a warp record needs an observed \"d\" or \"p\"");
  if (r.has_p && !f.optional_p) in.fail(kP, std::string(f.name) + " has no p result");
  if (in.has(kActive)) r.active = active;
  return r;
}

/// An array of one lane word per warp of an `n`-thread block, as `exited` is written: bit i of
/// word w is thread 32w + i. Bits past the block are refused.
std::vector<bool> warp_words(json::Value& v, std::size_t n) {
  const std::size_t warps = (n + kW - 1) / kW;
  if (v.kind() != json::Kind::Array)
    v.expected("an array of " + std::to_string(warps) + " lane words, one per warp");
  std::vector<bool> out(n, false);
  const auto count = v.array().each([&](std::size_t w, json::Value& x) {
    if (w >= warps) return;
    const uint64_t bits = word(x, 32);
    for (unsigned i = 0; i < kW; ++i) {
      const std::size_t thread = w * kW + i;
      const bool b = (bits >> i) & 1u;
      if (thread >= n && b)
        x.fail("bit set for thread " + std::to_string(thread) + " beyond the block");
      if (thread < n) out[thread] = b;
    }
  });
  if (count != warps)
    v.fail("expected an array of " + std::to_string(warps) + " lane words, one per warp");
  return out;
}

/// The instruction a block record's text writes, checked against its form and `negate`.
spec::Instr cta_instr(Fields& in, const CtaRecord& r) {
  if (r.via == Via::Intrinsic) return instr_of(r);
  return record_instr(in, r, "c");
}

CtaRecord parse_cta(Fields& in) {
  CtaRecord r;
  auto& root = in.root;
  // The block's size, then who has exited, sits elsewhere, arrives as a partner and came back:
  // the other members are read against them.
  const json::Path threads_at(root.path(), "threads");
  auto tv = root.find("threads", threads_at);
  if (!tv) root.fail("missing field \"threads\"");
  const auto t = tv->kind() == json::Kind::Number ? tv->as_uint() : std::nullopt;
  if (!t || *t < 1 || *t > model::kMaxCtaThreads) tv->expected("a block size from 1 to 1024");
  const std::size_t n = *t;
  root.reset();
  r.elsewhere.assign(n, false);
  r.partner.assign(n, false);
  for (const int k : {kExited, kElsewhere, kPartner, kRan}) {
    const json::Path at(root.path(), kRecordNames[k]);
    auto v = root.find(kRecordNames[k], at);
    if (!v) {
      if (k == kExited) root.fail("missing field \"exited\"");
      root.reset();
      continue;
    }
    auto bits = warp_words(*v, n);
    for (std::size_t th = 0; th < n; ++th) {
      if (!bits[th] || k == kExited) continue;
      const std::string who = "thread " + std::to_string(th);
      if (r.exited[th]) v->fail(who + " has exited");
      if (k == kPartner && r.elsewhere[th]) v->fail(who + " is elsewhere, not at a barrier");
      if (k == kRan && r.elsewhere[th]) v->fail(who + " is elsewhere: it runs no barrier");
    }
    if (k == kExited) r.exited = std::move(bits);
    if (k == kElsewhere) r.elsewhere = std::move(bits);
    if (k == kPartner) r.partner = std::move(bits);
    if (k == kRan) r.ran = std::move(bits);
    root.reset();
  }
  std::vector<bool> who(n);
  for (std::size_t th = 0; th < n; ++th) who[th] = r.executes(th) && r.came_back(th);
  r.pred.assign(n, 0);
  r.d.assign(n, 0);
  std::vector<uint32_t> bar(n), count(n);
  in.seen = root.members(kRecordNames, [&](int k, json::Value& m) {
    if (in.common(k, m, r.negate)) return;
    if (k >= 0) in.at[k] = m.at();
    switch (k) {
      case kThreads:
      case kExited:
      case kElsewhere:
      case kPartner:
      case kRan:
        break;  // read above
      case kPred:
        per_lane(m, n, r.pred.data(), w32);
        break;
      case kBar:
        per_lane(m, n, bar.data(), w32);
        break;
      case kCount:
        per_lane(m, n, count.data(), w32);
        break;
      case kD:
        results(m, who, r.d.data(), w32);
        break;
      case kFault:
        r.fault = m.string();
        break;
      default:
        m.skip();
    }
  });
  in.finish(r);
  in.need(bit(kPred) | bit(kD));
  // a and b: per thread exactly where the instruction takes them from a register.
  const spec::Instr ins = cta_instr(in, r);
  const auto operand = [&](int k, bool reg, const std::string& why_not, std::vector<uint32_t>& v,
                           std::vector<uint32_t>& out) {
    if (reg) {
      in.need(bit(k));
      out = std::move(v);
    } else if (in.has(k)) {
      in.fail(k, why_not);
    }
  };
  operand(kBar, !ins.imm_bar,
          "the instruction writes a as the immediate " + std::to_string(ins.imm_bar.value_or(0)) +
              ": no per-thread \"bar\"",
          bar, r.bar);
  operand(kCount, ins.has_count && !ins.imm_count,
          ins.has_count
              ? "the instruction writes b as the immediate " +
                    std::to_string(ins.imm_count.value_or(0)) + ": no per-thread \"count\""
              : "the instruction has no thread count b",
          count, r.count);
  // Only a launch that failed or did not return leaves a thread behind at its barrier.
  if (r.fault.empty() && r.ran)
    for (std::size_t th = 0; th < n; ++th)
      if (r.arrives(th) && !(*r.ran)[th])
        in.fail(kRan, "thread " + std::to_string(th) +
                          " did not come back, but the record has no \"fault\"");
  return r;
}

Json lane_words(const std::array<uint32_t, kW>& v) {
  bool same = true;
  for (unsigned i = 1; i < kW; ++i) same = same && v[i] == v[0];
  if (same) return hex(v[0]);
  Json a = Json::array();
  for (auto x : v) a.push_back(hex(x));
  return a;
}

/// Results on the lanes in `who`: a scalar when they all agree, else an array with nulls.
template <class T, class F>
Json result_words(const std::vector<T>& v, const std::vector<bool>& who, F&& enc) {
  std::optional<T> first;
  bool same = true;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (who[i]) {
      if (!first) first = v[i];
      same = same && v[i] == *first;
    }
  if (same && first) return enc(*first);
  Json a = Json::array();
  for (std::size_t i = 0; i < v.size(); ++i) a.push_back(who[i] ? enc(v[i]) : Json());
  return a;
}

template <class R>
void put_invocation(Json& o, const R& r) {
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

Json warp_json(const WarpRecord& r) {
  Json o = Json::object();
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
    Json a = Json::array();
    for (auto x : r.a) a.push_back(hex(x));
    o["a"] = a;
  }
  bool any_site = false;
  for (auto s : r.site) any_site = any_site || s != 0;
  if (any_site) {
    Json s = Json::array();
    for (auto x : r.site) s.push_back(x);
    o["site"] = s;
  }
  if (spec::has_operands_bc(r.form)) {
    o["b"] = lane_words(r.b);
    o["c"] = lane_words(r.c);
  }
  if (r.width) {
    const auto& w = *r.width;
    if (std::all_of(w.begin(), w.end(), [&](uint32_t x) { return x == w[0]; })) {
      o["width"] = w[0];
    } else {
      Json a = Json::array();
      for (auto x : w) a.push_back(x);
      o["width"] = a;
    }
  }
  if (!r.fault.empty()) {
    o["fault"] = r.fault;
    o["writes"] = r.has_d && r.has_p ? "d|p" : r.has_p ? "p" : "d";
    return o;
  }
  if (r.has_d)
    o["d"] = result_words(std::vector<uint32_t>(r.d.begin(), r.d.end()), who,
                          [](uint32_t x) { return Json(hex(x)); });
  if (r.has_p)
    o["p"] =
        result_words(std::vector<int>(r.p.begin(), r.p.end()), who, [](int x) { return Json(x); });
  if (r.active)
    o["active"] = result_words(std::vector<uint32_t>(r.active->begin(), r.active->end()), who,
                               [](uint32_t x) { return Json(hex(x)); });
  return o;
}

/// Per-thread flags as one lane word per warp (`exited` and its like).
Json warp_words_json(const std::vector<bool>& v, std::size_t n) {
  Json a = Json::array();
  for (std::size_t w = 0; w * kW < n; ++w) {
    uint32_t bits = 0;
    for (unsigned i = 0; i < kW && w * kW + i < n; ++i)
      if (v.size() > w * kW + i && v[w * kW + i]) bits |= 1u << i;
    a.push_back(hex(bits));
  }
  return a;
}

Json cta_json(const CtaRecord& r) {
  Json o = Json::object();
  put_invocation(o, r);
  const std::size_t n = r.exited.size();
  o["threads"] = n;
  o["exited"] = warp_words_json(r.exited, n);
  // Written only where they say something, so that a __syncthreads record reads as it always did.
  const auto any = [](const std::vector<bool>& v) {
    return std::find(v.begin(), v.end(), true) != v.end();
  };
  if (any(r.elsewhere)) o["elsewhere"] = warp_words_json(r.elsewhere, n);
  if (any(r.partner)) o["partner"] = warp_words_json(r.partner, n);
  if (r.ran) o["ran"] = warp_words_json(*r.ran, n);
  if (!r.fault.empty()) o["fault"] = r.fault;
  std::vector<bool> all(n, true), who(n);
  for (std::size_t t = 0; t < n; ++t) who[t] = r.executes(t) && r.came_back(t);
  const auto words = [](uint32_t x) { return Json(hex(x)); };
  o["pred"] = result_words(r.pred, all, words);
  if (!r.bar.empty()) o["bar"] = result_words(r.bar, all, words);
  if (!r.count.empty()) o["count"] = result_words(r.count, all, words);
  o["d"] = result_words(r.d, who, words);
  return o;
}

}  // namespace

// ---------------------------------------------------------------- lines

std::string to_line(const Header& h) {
  Json o = Json::object();
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

Header parse_header(json::Document& doc, const json::Line& line) {
  auto root = doc.open(line);
  // The schema first: another version of the format may hold other members.
  const json::Path schema_at(root.path(), "schema");
  auto schema = root.find("schema", schema_at);
  if (!schema || schema->kind() != json::Kind::String)
    root.fail("expected the header line with \"schema\": \"" + std::string(kSchema) + "\"");
  if (const auto s = schema->string(); s != kSchema)
    schema->fail("unsupported schema \"" + spec::shown_text(s) + "\": expected \"" +
                 std::string(kSchema) + "\"");
  root.reset();
  constexpr json::Names<10> names{"schema",   "device", "sm",  "driver", "runtime",
                                  "compiler", "ptx",    "set", "seed",   "warp_size"};
  Header h;
  const uint32_t seen = root.members(names, [&](int k, json::Value& m) {
    switch (k) {
      case 0:
        break;  // read above
      case 1:
        h.device = m.string();
        break;
      case 2:
        h.sm = m.string();
        if (!spec::parse_target(h.sm)) m.expected("a target such as sm_90");
        break;
      case 3:
        h.driver = m.string();
        break;
      case 4:
        h.runtime = m.string();
        break;
      case 5:
        h.compiler = m.string();
        break;
      case 6:
        h.ptx = m.string();
        if (!h.ptx.empty() && !spec::parse_ptx(h.ptx)) m.expected("a version such as 9.0");
        break;
      case 7:
        h.set = m.string();
        break;
      case 8:
        h.seed = word(m, 64);
        break;
      case 9:
        if (m.kind() != json::Kind::Number || m.as_uint() != kW) m.expected("32");
        break;
      default:
        m.skip();
    }
  });
  root.require(names, seen, bit(1) | bit(2) | bit(3) | bit(4));
  doc.finish();
  return h;
}

Record parse_record(json::Document& doc, const json::Line& line) {
  auto root = doc.open(line);
  const json::Path form_at(root.path(), "form");
  auto form = root.find("form", form_at);
  if (!form) root.fail("missing field \"form\"");
  const auto name = form->string();
  const auto id = spec::find_form(name);
  if (!id)
    form->fail("unknown form '" + spec::shown_text(name) +
               "': expected a catalog name such as match.any.sync.b32");
  root.reset();
  Fields in(doc, root, *id);
  Record r = spec::is_warp_form(*id) ? Record(parse_warp(in)) : Record(parse_cta(in));
  doc.finish();
  return r;
}

Header parse_header(const std::string& text, const std::string& file, std::size_t line) {
  json::Document doc(file);
  json::PaddedLine copy;
  return parse_header(doc, copy.set(text, line));
}

Record parse_record(const std::string& text, const std::string& file, std::size_t line) {
  json::Document doc(file);
  json::PaddedLine copy;
  return parse_record(doc, copy.set(text, line));
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
    w.b[i] = r.b[i];
    w.c[i] = r.c[i];
  }
  return w;
}

spec::Instr instr_of(const CtaRecord& r) {
  if (r.via == Via::Ptx) {
    const auto parsed = spec::parse_instruction(r.instr);
    if (const auto* e = std::get_if<spec::ParseError>(&parsed))
      throw std::invalid_argument("\"" + r.instr + "\": " + e->message);
    return std::get<spec::ParsedInstr>(parsed).instr;
  }
  // The __syncthreads family: barrier 0, every thread of the block, no count.
  spec::Instr in;
  in.form = r.form;
  in.negate = r.negate;
  in.imm_bar = 0;
  return in;
}

model::Cta cta_of(const CtaRecord& r) {
  const std::size_t n = r.exited.size();
  model::Cta c = model::make_cta(n);
  for (std::size_t t = 0; t < n; ++t) {
    c.exited[t] = r.exited[t];
    c.arrive[t] = r.arrives(t);
    c.partner[t] = r.partner.size() > t && r.partner[t];
    c.pred[t] = r.pred[t];
    c.bar[t] = r.bar.size() > t ? r.bar[t] : 0;
    c.count[t] = r.count.size() > t ? r.count[t] : 0;
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
