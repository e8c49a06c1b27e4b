#include "vectors/format.hpp"

#include <algorithm>
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
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char u[8];
      std::snprintf(u, sizeof u, "\\u%04x", static_cast<unsigned>(c));
      out += u;
      continue;
    }
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

}  // namespace

std::string header_line(const VectorsHeader& h) {
  return "{\"schema\":\"" + std::string(kVectorsSchema) + "\",\"target\":\"" +
         spec::to_string(h.target) + "\",\"ptx\":\"" + spec::to_string(h.ptx) +
         "\",\"seed\":" + std::to_string(h.seed) + ",\"vectors\":" + std::to_string(h.count) + "}";
}

void write_vectors(std::ostream& os, VectorsHeader h, const std::vector<Vector>& vs) {
  h.count = vs.size();
  os << header_line(h) << "\n";
  for (const auto& v : vs) os << vector_line(v, expected(v, h.target, h.ptx)) << "\n";
}

std::string vector_line(const Vector& v, const std::vector<Expected>& e) {
  const auto& f = spec::form_info(v.instr.instr.form);
  const auto syn = spec::value_syntax(v.instr);
  const bool cta = v.is_cta();
  std::string s = "{\"id\":" + std::to_string(v.id) + ",\"form\":\"" + std::string(f.name) +
                  "\",\"instruction\":" + json_string(v.instr.text) +
                  ",\"ub\":" + (has_ub(e) ? "true" : "false") +
                  // A vector made elsewhere (the C interface's) has no source to name.
                  (v.source.empty() ? std::string() : ",\"source\":" + json_string(v.source)) +
                  ",\"clauses\":[";
  for (std::size_t i = 0; i < v.clauses.size(); ++i)
    s += (i ? ",\"" : "\"") + std::string(spec::clause_info(v.clauses[i]).key) + "\"";
  s += "],\"rounds\":[";
  for (std::size_t k = 0; k < v.rounds.size(); ++k) {
    const auto& r = v.rounds[k];
    const auto& x = e[k];
    s += k ? ",{" : "{";
    std::vector<uint8_t> exited, inactive;
    std::vector<uint64_t> a;
    std::vector<uint32_t> masks, sites, bs, cs;
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
        bs.push_back(r.warp.b[i]);
        cs.push_back(r.warp.c[i]);
      }
    }
    if (cta) s += "\"threads\":" + std::to_string(n) + ",";
    s += "\"exited\":" + lane_set(exited, cta) + ",\"inactive\":" + lane_set(inactive, cta);
    if (!cta && !v.instr.instr.imm_mask && spec::has_membermask(v.instr.instr.form))
      s += ",\"mask\":" + list(masks, hex32);
    if (!syn.none)
      s += ",\"a\":" + list(a, [&](uint64_t x) {
             return cta           ? std::to_string(static_cast<int32_t>(x))
                    : syn.is_pred ? std::to_string(x)
                                  : hex_bits(x, syn.bits);
           });
    if (!cta && spec::has_operands_bc(v.instr.instr.form)) {
      if (!v.instr.instr.imm_b) s += ",\"b\":" + list(bs, hex32);
      if (!v.instr.instr.imm_c) s += ",\"c\":" + list(cs, hex32);
    }
    if (cta) {
      const auto dec = [](uint32_t z) { return std::to_string(z); };
      if (!v.instr.instr.imm_bar)
        s += ",\"bar\":" +
             list(std::vector<uint32_t>(r.cta.bar.begin(), r.cta.bar.begin() + n), dec);
      if (v.instr.instr.has_count && !v.instr.instr.imm_count)
        s += ",\"count\":" +
             list(std::vector<uint32_t>(r.cta.count.begin(), r.cta.count.begin() + n), dec);
      std::vector<uint8_t> partner(r.cta.partner.begin(), r.cta.partner.begin() + n);
      if (std::find(partner.begin(), partner.end(), 1) != partner.end())
        s += ",\"partner\":" + lane_set(partner, true);
    }
    if (!cta && std::any_of(sites.begin(), sites.end(), [](uint32_t z) { return z != 0; }))
      s += ",\"site\":" + list(sites, [](uint32_t z) { return std::to_string(z); });
    s += ",\"expect\":{\"defined\":" + lane_set(x.defined, cta);
    // Only forms with a clause that leaves d alone open write which lanes' d is pinned down.
    const bool loose = !cta && spec::has_loose_d(v.instr.instr.form);
    if (loose) s += ",\"d_defined\":" + lane_set(x.d_defined, cta);
    if (spec::writes_d(v.instr.instr)) {
      std::vector<uint64_t> d;
      for (std::size_t i = 0; i < n; ++i) d.push_back(x.d_defined[i] ? d_value(x, i) : 0);
      // A predicate result is a JSON boolean, as in results files and in `eval --json`; a 64-bit
      // shuffle overload's d has sixteen hex digits.
      if (f.d_type == spec::ResultType::Pred)
        s += ",\"d\":" + list(d, [](uint64_t z) { return std::string(z ? "true" : "false"); });
      else
        s += ",\"d\":" +
             list(d, [&](uint64_t z) { return hex_bits(z, v.instr.instr.wide ? 64 : 32); });
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

ResultShape result_shape(const spec::ParsedInstr& in, std::vector<std::size_t> widths) {
  const auto& f = spec::form_info(in.instr.form);
  ResultShape s;
  s.widths = std::move(widths);
  s.d = f.d_type == spec::ResultType::None || in.instr.write_d;
  s.p = in.instr.write_p;
  s.d_bits = in.instr.wide ? 64 : 32;
  return s;
}

std::string result_line(uint64_t id, const std::vector<Observed>& rounds, bool pred_d,
                        bool with_p) {
  auto one = [&](const Observed& o) {
    std::string s = "\"d\":[";
    const int bits = o.d_hi.empty() ? 32 : 64;
    for (std::size_t i = 0; i < o.d.size(); ++i) {
      s += i ? "," : "";
      s += !o.present[i] ? "null"
           : pred_d      ? (o.d[i] ? "true" : "false")
                         : hex_bits(d_value(o, i), bits);
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
