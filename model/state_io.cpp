#include "model/state_io.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/input.hpp"
#include "model/json_file.hpp"

namespace warpspec::model {

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

std::optional<std::size_t> to_size(std::string_view s) {
  std::size_t v = 0;
  auto t = trim(s);
  if (t.empty() || t.size() > 6) return std::nullopt;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc{} || p != t.data() + t.size()) return std::nullopt;
  return v;
}

[[noreturn]] void usage(std::string msg) {
  throw InputError(std::move(msg), false);
}

// Where a value of a state comes from, for messages: a command-line flag, or the JSON path of a
// value in a state file, whose line and column are then found in the file's text.
struct Where {
  Where(std::string flag) : path(std::move(flag)) {}
  Where(const JsonFile& f, std::string p) : file(&f), path(std::move(p)) {}
  const JsonFile* file = nullptr;  // null for a flag
  std::string path;

  Where operator+(std::string_view more) const {
    Where w = *this;
    w.path += more;
    return w;
  }
  // Placed at the value, or at its member `name`'s own name when one is given.
  [[noreturn]] void fail(const std::string& msg,
                         std::optional<std::string_view> name = std::nullopt) const {
    if (file) file->fail(path, msg, name);
    throw InputError(path + ": " + msg, false);
  }
};

uint64_t value_or_throw(std::string_view text, const spec::ValueSyntax& syn, const Where& where) {
  uint64_t v = 0;
  auto err = spec::parse_value(text, syn, v);
  if (!err.empty()) where.fail(err);
  return v;
}

const spec::ValueSyntax kMaskSyntax{32, false, false, false};
const spec::ValueSyntax kSiteSyntax{32, false, false, false};

// Applies statuses given as two lane sets, refusing overlap.
template <class SetStatus>
void apply_statuses(const StateFlags& f, std::size_t n, SetStatus set) {
  auto ex = f.exited.empty() ? std::vector<bool>(n) : parse_lane_set(f.exited, n, "--exited");
  auto in = f.inactive.empty() ? std::vector<bool>(n) : parse_lane_set(f.inactive, n, "--inactive");
  for (std::size_t i = 0; i < n; ++i) {
    if (ex[i] && in[i])
      usage("lane " + std::to_string(i) +
            " is in both --exited and --inactive; a lane is one of "
            "executes, exited or inactive");
    set(i, ex[i] ? LaneStatus::Exited : in[i] ? LaneStatus::Inactive : LaneStatus::Executes);
  }
}

using json = nlohmann::json;

// A lane value of a state file: a string's content, an integer's digits, or any other number as
// the file writes it (so that a message quotes it as written, and an integer beyond 64 bits is
// not first rounded to a double); true and false only where the operand is a predicate. Only
// that last kind looks for the value in the text, which costs a walk of the file.
uint64_t value_at(const json& v, const spec::ValueSyntax& syn, const Where& where) {
  std::string text;
  if (v.is_string())
    text = v.get<std::string>();
  else if (v.is_boolean() && syn.is_pred)
    text = v.get<bool>() ? "1" : "0";
  else if (v.is_number_unsigned())
    text = std::to_string(v.get<uint64_t>());
  else if (v.is_number_integer())
    text = std::to_string(v.get<int64_t>());
  else if (v.is_number())
    text = std::string(where.file->raw(where.path));
  else
    where.fail(std::string("expected ") +
               (syn.is_pred ? "0, 1, true, false, \"0x0\" or \"0x1\"" : "a number or a string") +
               ", found " + v.type_name());
  return value_or_throw(text, syn, where);
}

const json& field(const json& obj, const char* name, const Where& where) {
  auto it = obj.find(name);
  if (it == obj.end()) where.fail("missing field \"" + std::string(name) + "\"");
  return *it;
}

LaneStatus status_from(const json& v, const Where& where) {
  if (v.is_string()) {
    auto s = v.get<std::string>();
    if (s == "executes") return LaneStatus::Executes;
    if (s == "exited") return LaneStatus::Exited;
    if (s == "inactive") return LaneStatus::Inactive;
  }
  where.fail("expected \"executes\", \"exited\" or \"inactive\"");
}

}  // namespace

std::vector<std::string> expand_list(std::string_view list, std::size_t n, std::string_view what) {
  const std::string w(what);
  auto items = split(list, ',');
  if (items.size() == 1 && items[0].find('*') == std::string_view::npos) {
    if (trim(items[0]).empty()) usage(w + ": empty list");
    return std::vector<std::string>(n, trim(items[0]));
  }
  std::vector<std::string> out;
  for (std::size_t k = 0; k < items.size(); ++k) {
    auto item = items[k];
    auto star = item.find('*');
    if (star == std::string_view::npos) {
      if (trim(item).empty()) usage(w + ": item " + std::to_string(k + 1) + " is empty");
      out.push_back(trim(item));
      continue;
    }
    auto value = trim(item.substr(0, star));
    if (value.empty()) usage(w + ": item " + std::to_string(k + 1) + " has no value before '*'");
    auto count_text = trim(item.substr(star + 1));
    if (count_text.empty()) {
      if (k + 1 != items.size())
        usage(w + ": '" + value + "*' (fill the rest) must be the last item");
      if (out.size() >= n) usage(w + ": nothing left to fill with '" + value + "*'");
      out.resize(n, value);
      continue;
    }
    auto count = to_size(count_text);
    if (!count || *count == 0)
      usage(w + ": item " + std::to_string(k + 1) + ": '" + count_text + "' is not a repeat count");
    if (out.size() + *count > n) usage(w + ": more than " + std::to_string(n) + " values");
    out.insert(out.end(), *count, value);
  }
  if (out.size() != n)
    usage(w + ": " + std::to_string(out.size()) + " values for " + std::to_string(n) +
          " lanes; end the list with 'V*' to fill the rest");
  return out;
}

std::vector<bool> parse_lane_set(std::string_view text, std::size_t n, std::string_view what) {
  const std::string w(what);
  auto t = trim(text);
  std::vector<bool> set(n);
  if (t == "none" || t.empty()) return set;
  if (t == "all") return std::vector<bool>(n, true);
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    uint64_t v = 0;
    auto err = spec::parse_value(t, kMaskSyntax, v);
    if (!err.empty()) usage(w + ": " + err);
    if (n < 32 && (v >> n)) usage(w + ": " + t + " names lanes beyond " + std::to_string(n - 1));
    for (std::size_t i = 0; i < n && i < 32; ++i) set[i] = (v >> i) & 1u;
    return set;
  }
  for (auto part : split(t, ',')) {
    auto dash = part.find('-');
    auto lo = to_size(part.substr(0, dash));
    auto hi = dash == std::string_view::npos ? lo : to_size(part.substr(dash + 1));
    if (!lo || !hi || *hi < *lo)
      usage(w + ": '" + trim(part) + "' is not a lane or range; expected e.g. 0-3,7 or 0xff");
    if (*hi >= n)
      usage(w + ": lane " + std::to_string(*hi) + " is beyond " + std::to_string(n - 1));
    for (auto i = *lo; i <= *hi; ++i) set[i] = true;
  }
  return set;
}

// A shuffle's b or c on every lane: the instruction's immediate, or the register's per-lane
// values from `list` (command-line list syntax). Forms without b and c refuse a list.
void fill_word_operand(const spec::ParsedInstr& p, char name, const std::optional<uint32_t>& imm,
                       const std::string& reg, const std::string& list,
                       std::array<uint32_t, spec::kWarpSize>& out) {
  const std::string flag = std::string("--") + name;
  if (!spec::has_operands_bc(p.instr.form)) {
    if (!list.empty()) usage(flag + ": " + p.text + " has no operand " + name);
    return;
  }
  if (imm) {
    if (!list.empty())
      usage(flag + ": " + name + " is the immediate in the instruction; " + flag +
            " applies only when it is a register");
    out.fill(*imm);
    return;
  }
  if (list.empty())
    usage(std::string("the operand ") + name + " '" + reg +
          "' is a register: give its values with " + flag +
          " (one value for all lanes, or a list such as '1*16,2*')");
  auto vs = expand_list(list, spec::kWarpSize, flag);
  for (unsigned i = 0; i < spec::kWarpSize; ++i)
    out[i] = static_cast<uint32_t>(
        value_or_throw(vs[i], kMaskSyntax, flag + " lane " + std::to_string(i)));
}

// The same from a JSON state file's lane object: field "b" or "c", which must agree with an
// immediate when the instruction has one.
void word_operand_from_json(const spec::ParsedInstr& p, const char* name,
                            const std::optional<uint32_t>& imm, const nlohmann::json& l,
                            const Where& where, uint32_t& out) {
  const Where at = where + "." + name;
  if (!spec::has_operands_bc(p.instr.form)) {
    if (l.contains(name)) at.fail(p.text + " has no operand " + name);
    return;
  }
  if (imm && !l.contains(name)) {
    out = *imm;
    return;
  }
  out = static_cast<uint32_t>(value_at(field(l, name, where), kMaskSyntax, at));
  if (imm && out != *imm) at.fail(std::string("differs from the instruction's immediate ") + name);
}

Warp warp_from_flags(const spec::ParsedInstr& p, const StateFlags& f) {
  const auto syn = spec::value_syntax(p);
  Warp w = make_warp(0);
  apply_statuses(f, spec::kWarpSize, [&](std::size_t i, LaneStatus s) { set_status(w, i, s); });
  if (!syn.none) {
    if (f.a.empty())
      usage(
          "give the per-lane source operands with --a (e.g. --a '5*2,6*' for lanes 0-1 = 5, the "
          "rest 6)");
    auto as = expand_list(f.a, spec::kWarpSize, "--a");
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      w.a[i] = value_or_throw(as[i], syn, "--a lane " + std::to_string(i));
  } else if (!f.a.empty()) {
    usage("--a: " + p.text + " has no source operand");
  }
  if (!spec::has_membermask(p.instr.form)) {
    if (!f.mask.empty() || !f.masks.empty())
      usage(p.text + " has no membermask: drop --mask/--masks");
  } else if (p.instr.imm_mask) {
    if (!f.mask.empty() || !f.masks.empty())
      usage(
          "the membermask is the immediate in the instruction; --mask/--masks apply only when it "
          "is a register");
    for (auto& m : w.mask) m = *p.instr.imm_mask;
  } else {
    if (!f.mask.empty() && !f.masks.empty()) usage("give either --mask or --masks, not both");
    if (f.mask.empty() && f.masks.empty())
      usage("the membermask '" + p.mask_register +
            "' is a register: give its value with --mask (all lanes) or --masks (per lane)");
    auto ms = expand_list(f.mask.empty() ? f.masks : f.mask, spec::kWarpSize,
                          f.mask.empty() ? "--masks" : "--mask");
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      w.mask[i] = static_cast<uint32_t>(
          value_or_throw(ms[i], kMaskSyntax, "membermask of lane " + std::to_string(i)));
  }
  if (!f.sites.empty()) {
    auto ss = expand_list(f.sites, spec::kWarpSize, "--sites");
    for (unsigned i = 0; i < spec::kWarpSize; ++i)
      w.site[i] = static_cast<uint32_t>(
          value_or_throw(ss[i], kSiteSyntax, "--sites lane " + std::to_string(i)));
  }
  fill_word_operand(p, 'b', p.instr.imm_b, p.b_register, f.b, w.b);
  fill_word_operand(p, 'c', p.instr.imm_c, p.c_register, f.c, w.c);
  return w;
}

namespace {
// A block barrier's register operand (a or b) per thread from its flag, or the flag refused when
// the instruction writes the operand as an immediate or not at all.
void fill_thread_operand(const std::string& flag, const std::string& what, bool is_register,
                         const std::string& reg, const std::string& list, std::size_t n,
                         std::vector<uint32_t>& out) {
  if (!is_register) {
    if (!list.empty())
      usage(flag + ": the instruction writes " + what + " as an immediate or not at all; " + flag +
            " applies only when it is a register");
    return;
  }
  if (list.empty())
    usage("the operand " + what + " '" + reg + "' is a register: give its values with " + flag +
          " (one value for all threads, or a list such as '1*64,2*')");
  auto vs = expand_list(list, n, flag);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<uint32_t>(
        value_or_throw(vs[i], kMaskSyntax, flag + " thread " + std::to_string(i)));
}
}  // namespace

Cta cta_from_flags(const spec::ParsedInstr& p, const StateFlags& f) {
  const std::size_t n = f.threads ? f.threads : 32;
  if (n > kMaxCtaThreads) usage("--threads: a block holds at most 1024 threads");
  if (!f.mask.empty() || !f.masks.empty() || !f.sites.empty())
    usage(p.text + " is a block barrier: it takes no membermask or call sites");
  Cta c = make_cta(n);
  apply_statuses(f, n, [&](std::size_t i, LaneStatus s) {
    c.arrive[i] = s == LaneStatus::Executes;
    c.exited[i] = s == LaneStatus::Exited;
  });
  fill_thread_operand("--bar", "a (the barrier number)", !p.instr.imm_bar, p.bar_register, f.bar, n,
                      c.bar);
  fill_thread_operand("--count", "b (the thread count)", p.instr.has_count && !p.instr.imm_count,
                      p.count_register, f.count, n, c.count);
  if (!f.partner.empty()) {
    auto ps = parse_lane_set(f.partner, n, "--partner");
    for (std::size_t i = 0; i < n; ++i) c.partner[i] = ps[i];
  }
  const auto syn = spec::value_syntax(p);
  if (syn.none) {
    if (!f.a.empty()) usage("--a: " + p.text + " takes no predicate");
    return c;
  }
  if (f.a.empty()) usage("give each thread's predicate with --a (e.g. --a '1*10,0*')");
  auto as = expand_list(f.a, n, "--a");
  for (std::size_t i = 0; i < n; ++i)
    c.pred[i] =
        static_cast<uint32_t>(value_or_throw(as[i], syn, "--a thread " + std::to_string(i)));
  return c;
}

JsonState read_state_file_header(const std::string& path) {
  return read_state_text(read_input(path), path);
}

JsonState read_state_text(std::string text, const std::string& path) {
  JsonState js;
  js.file = path;
  js.doc = std::make_shared<const JsonFile>(std::move(text), path);
  const auto& f = *js.doc;
  const auto& doc = f.root();
  if (!doc.is_object()) f.fail("", "expected a JSON object at the top level");
  f.only_members(doc, "", {"schema", "instruction", "target", "ptx", "lanes", "threads"});
  if (auto it = doc.find("schema"); it != doc.end() && *it != "warpspec-state/1")
    f.fail("schema", (it->is_string() ? "\"" + spec::shown_text(it->get<std::string>()) + "\""
                                      : std::string("a value of type ") + it->type_name()) +
                         " is not supported; expected \"warpspec-state/1\"");
  if (auto it = doc.find("instruction"); it != doc.end()) {
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
      f.fail("instruction", "expected an instruction such as \"match.any.sync.b32 d, a, m;\"");
    js.instruction = it->get<std::string>();
  }
  if (auto it = doc.find("target"); it != doc.end()) {
    if (!it->is_string() || !(js.target = spec::parse_target(it->get<std::string>())))
      f.fail("target", "expected \"sm_XX\", \"sm_XXa\" or \"sm_XXf\"");
  }
  if (auto it = doc.find("ptx"); it != doc.end()) {
    if (!it->is_string() || !(js.ptx = spec::parse_ptx(it->get<std::string>())))
      f.fail("ptx", "expected a version string such as \"8.6\"");
  }
  return js;
}

Warp warp_from_json(const JsonState& js, const spec::ParsedInstr& p) {
  const auto& f = *js.doc;
  const auto syn = spec::value_syntax(p);
  if (f.root().contains("threads"))
    f.fail("threads",
           p.text + " is a warp instruction: its state has 32 \"lanes\", not \"threads\"");
  const auto& lanes = field(f.root(), "lanes", Where(f, ""));
  if (!lanes.is_array() || lanes.size() != spec::kWarpSize)
    f.fail("lanes", "expected an array of exactly 32 lane objects");
  Warp w = make_warp(0);
  for (unsigned i = 0; i < spec::kWarpSize; ++i) {
    const Where where(f, "lanes[" + std::to_string(i) + "]");
    const auto& l = lanes[i];
    if (!l.is_object()) where.fail("expected an object");
    f.only_members(l, where.path, {"lane", "status", "mask", "a", "site", "b", "c"});
    if (auto it = l.find("lane");
        it != l.end() && !(it->is_number_unsigned() && it->get<uint64_t>() == i))
      (where + ".lane").fail("expected " + std::to_string(i) + " (lanes are listed in order)");
    set_status(
        w, i,
        l.contains("status") ? status_from(l["status"], where + ".status") : LaneStatus::Executes);
    if (syn.none && l.contains("a")) (where + ".a").fail(p.text + " has no source operand a");
    if (!syn.none) w.a[i] = value_at(field(l, "a", where), syn, where + ".a");
    const Where mask = where + ".mask";
    if (!spec::has_membermask(p.instr.form)) {
      if (l.contains("mask")) mask.fail(p.text + " has no membermask");
    } else if (p.instr.imm_mask) {
      w.mask[i] = *p.instr.imm_mask;
      if (l.contains("mask") && value_at(l["mask"], kMaskSyntax, mask) != *p.instr.imm_mask)
        mask.fail("differs from the instruction's immediate membermask");
    } else {
      w.mask[i] = static_cast<uint32_t>(value_at(field(l, "mask", where), kMaskSyntax, mask));
    }
    if (l.contains("site"))
      w.site[i] = static_cast<uint32_t>(value_at(l["site"], kSiteSyntax, where + ".site"));
    word_operand_from_json(p, "b", p.instr.imm_b, l, where, w.b[i]);
    word_operand_from_json(p, "c", p.instr.imm_c, l, where, w.c[i]);
  }
  return w;
}

Cta cta_from_json(const JsonState& js, const spec::ParsedInstr& p) {
  const auto& f = *js.doc;
  const auto syn = spec::value_syntax(p);
  if (f.root().contains("lanes"))
    f.fail("lanes", p.text + " is a block barrier: its state has \"threads\", not \"lanes\"");
  const auto& threads = field(f.root(), "threads", Where(f, ""));
  if (!threads.is_array() || threads.empty() || threads.size() > kMaxCtaThreads)
    f.fail("threads", "expected an array of 1 to 1024 thread objects");
  Cta c = make_cta(threads.size());
  for (std::size_t i = 0; i < threads.size(); ++i) {
    const Where where(f, "threads[" + std::to_string(i) + "]");
    const auto& t = threads[i];
    if (!t.is_object()) where.fail("expected an object");
    f.only_members(t, where.path, {"status", "a", "bar", "count", "via"});
    auto s =
        t.contains("status") ? status_from(t["status"], where + ".status") : LaneStatus::Executes;
    c.arrive[i] = s == LaneStatus::Executes;
    c.exited[i] = s == LaneStatus::Exited;
    if (syn.none && t.contains("a")) (where + ".a").fail(p.text + " takes no predicate a");
    if (!syn.none)
      c.pred[i] = static_cast<uint32_t>(value_at(field(t, "a", where), syn, where + ".a"));
    auto reg = [&](const char* key, bool wanted, std::vector<uint32_t>& out) {
      if (!t.contains(key)) {
        if (wanted)
          where.fail("missing \"" + std::string(key) +
                     "\" (the instruction reads it from a register)");
        return;
      }
      const Where at = where + "." + key;
      if (!wanted) at.fail("given, but the instruction does not read it from a register");
      out[i] = static_cast<uint32_t>(value_at(t[key], kMaskSyntax, at));
    };
    reg("bar", !p.instr.imm_bar, c.bar);
    reg("count", p.instr.has_count && !p.instr.imm_count, c.count);
    if (t.contains("via")) {
      const auto& v = t["via"];
      const std::string own(spec::form_info(p.instr.form).name);
      const std::string other(spec::partner_name(p.instr.form));
      if (!v.is_string() || (v != own && v != other))
        (where + ".via").fail("expected \"" + own + "\" or \"" + other + "\"");
      c.partner[i] = v == other;
    }
  }
  return c;
}

}  // namespace warpspec::model
