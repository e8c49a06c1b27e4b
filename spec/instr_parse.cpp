#include "spec/instr_parse.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace warpspec::spec {

namespace {

// ---------------------------------------------------------------- a tiny cursor over the text

struct Cursor {
  std::string_view s;
  std::size_t pos = 0;

  void skip_space() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool at_end() {
    skip_space();
    return pos >= s.size();
  }
  bool eat(char c) {
    skip_space();
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  char peek() {
    skip_space();
    return pos < s.size() ? s[pos] : '\0';
  }
  std::size_t column() {
    skip_space();
    return pos + 1;
  }
  // A run of characters that may form a name, number or dotted opcode.
  std::string_view word() {
    skip_space();
    std::size_t b = pos;
    while (pos < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.' ||
            s[pos] == '%' || s[pos] == '$' || s[pos] == '-' || s[pos] == '+'))
      ++pos;
    return s.substr(b, pos - b);
  }
};

struct Fail {
  std::size_t column;
  std::string message;
};

std::string quoted(std::string_view t) {
  return "'" + shown_text(t) + "'";
}

// The character at the cursor, quoted: a character outside ASCII whole, never its first byte
// alone (half a UTF-8 sequence is no character a reader can recognise).
std::string describe_next(Cursor& c) {
  const char first = c.peek();
  if (first == '\0') return "the end of the text";
  const auto b = static_cast<unsigned char>(first);
  const std::size_t n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return quoted(c.s.substr(c.pos, n));
}

bool is_identifier(std::string_view w) {
  if (w.empty()) return false;
  const char c = w[0];
  if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$'))
    return false;
  return std::all_of(w.begin() + 1, w.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$';
  });
}

// Parses an unsigned integer literal (decimal or 0x-hex) that must fit in `bits` bits.
std::optional<uint64_t> parse_unsigned(std::string_view w, int bits) {
  int base = 10;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
    base = 16;
    w.remove_prefix(2);
  }
  if (w.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v, base);
  if (ec != std::errc{} || p != w.data() + w.size()) return std::nullopt;
  if (bits < 64 && v >> bits) return std::nullopt;
  return v;
}

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      out.push_back(s.substr(b, i - b));
      b = i + 1;
    }
  return out;
}

// ---------------------------------------------------------------- the opcode

// Matches the dotted opcode against the catalog. Errors point at the first token that no form
// continues with, and list the tokens that would have been accepted there.
FormId match_opcode(std::string_view op, std::size_t col0) {
  std::string norm(op);
  // Accepted aliases of the block barriers: barrier{.cta}.op{.aligned} and bar.cta.op. The .cta
  // scope changes nothing; barrier without .aligned lets a warp's threads reach the barrier from
  // different instructions, which a single step cannot tell apart (it is the program's matter).
  if (norm.starts_with("barrier.") && !norm.starts_with("barrier.cluster"))
    norm = "bar." + norm.substr(8);
  if (norm.starts_with("bar.cta.")) norm = "bar." + norm.substr(8);
  if (norm.starts_with("bar.")) {
    const auto at = norm.find(".aligned");
    if (at != std::string::npos) norm.erase(at, 8);
  }
  auto toks = split_dots(norm);
  std::size_t best = 0;
  for (const auto& f : kForms) {
    auto ft = split_dots(f.name);
    std::size_t k = 0;
    while (k < ft.size() && k < toks.size() && ft[k] == toks[k]) ++k;
    if (k == ft.size() && k == toks.size()) return f.id;
    best = std::max(best, k);
  }
  // Build the message: which tokens could follow the longest known prefix.
  std::vector<std::string_view> next;
  for (const auto& f : kForms) {
    auto ft = split_dots(f.name);
    bool prefix = ft.size() >= best &&
                  std::equal(ft.begin(), ft.begin() + static_cast<long>(best), toks.begin());
    if (prefix && ft.size() > best && std::find(next.begin(), next.end(), ft[best]) == next.end())
      next.push_back(ft[best]);
  }
  std::string expected;
  for (std::size_t i = 0; i < next.size(); ++i)
    expected += (i ? ", " : "") + std::string(best ? "." : "") + std::string(next[i]);
  std::size_t col = col0;
  for (std::size_t i = 0; i < best && i < toks.size(); ++i) col += toks[i].size() + 1;
  if (best == 0)
    throw Fail{
        col0,
        "unknown instruction " + quoted(toks[0]) +
            "; expected match, vote, redux, shfl, elect, bar or activemask (see 'warpspec list')"};
  std::string prefix;
  for (std::size_t i = 0; i < best; ++i) prefix += (i ? "." : "") + std::string(toks[i]);
  if (best >= toks.size())
    throw Fail{col0 + op.size(), "incomplete opcode '" + prefix + "'; expected one of " + expected};
  throw Fail{col - 1, "unknown qualifier " + quoted("." + std::string(toks[best])) + " after " +
                          quoted(prefix) + "; expected one of " + expected};
}

// ---------------------------------------------------------------- operands

std::string expect_register(Cursor& c, const char* what, bool allow_sink = false) {
  const auto col = c.column();
  auto w = c.word();
  if (allow_sink && w == "_") return "_";
  if (w == "_") throw Fail{col, std::string("the sink '_' is not allowed for ") + what};
  if (!is_identifier(w))
    throw Fail{col, std::string("expected a register name for ") + what + ", found " +
                        (w.empty() ? describe_next(c) : quoted(w))};
  return std::string(w);
}

void expect_comma(Cursor& c, const char* before) {
  if (!c.eat(','))
    throw Fail{c.column(),
               std::string("expected ',' before ") + before + ", found " + describe_next(c)};
}

// Reads a membermask operand: a 32-bit immediate or a register name.
// A 32-bit operand that is an immediate or a register: sets `imm` or `reg`.
void read_word_operand(Cursor& c, const char* what, const char* example,
                       std::optional<uint32_t>& imm, std::string& reg) {
  const auto col = c.column();
  auto w = c.word();
  if (w.empty())
    throw Fail{col, std::string("expected ") + what + " (an immediate such as " + example +
                        " or a register), found " + describe_next(c)};
  if (std::isdigit(static_cast<unsigned char>(w[0])) || w[0] == '-') {
    auto v = parse_unsigned(w, 32);
    if (!v) {
      std::string_view named(what);  // "the membermask" -> "membermask '0x1ffffffff' is not ..."
      if (named.starts_with("the ")) named.remove_prefix(4);
      throw Fail{col, std::string(named) + " " + quoted(w) + " is not a 32-bit unsigned value"};
    }
    imm = static_cast<uint32_t>(*v);
    return;
  }
  if (!is_identifier(w)) throw Fail{col, std::string("expected ") + what + ", found " + quoted(w)};
  reg = std::string(w);
}

void read_mask(Cursor& c, ParsedInstr& out) {
  read_word_operand(c, "the membermask", "0xffffffff", out.instr.imm_mask, out.mask_register);
}

bool read_negation(Cursor& c) {
  return c.eat('!');
}

void expect_end(Cursor& c) {
  c.eat(';');
  c.skip_space();
  if (c.pos + 1 < c.s.size() && c.s[c.pos] == '/' && c.s[c.pos + 1] == '/') return;
  if (!c.at_end())
    throw Fail{c.column(), "unexpected " + describe_next(c) + " after the instruction"};
}

// An operand as written back: a register's name, or the immediate in hex (in decimal when
// `decimal`, as lane numbers and offsets are written).
std::string word_text(const std::optional<uint32_t>& imm, const std::string& reg,
                      bool decimal = false) {
  if (imm) {
    if (decimal) return std::to_string(*imm);
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", *imm);
    return buf;
  }
  return reg;
}

std::string mask_text(const ParsedInstr& p) {
  return word_text(p.instr.imm_mask, p.mask_register);
}

bool in_form_arrive(FormId id) {
  return id == FormId::BarArrive;
}

ParsedInstr parse_ptx(Cursor& c) {
  const auto op_col = c.column();
  auto op = c.word();
  if (op.empty()) {
    // Not a letter: name the whole character (a UTF-8 one is several bytes), not an empty word.
    const std::string_view rest = c.s.substr(c.pos);
    std::size_t n = rest.empty() ? 0 : 1;
    while (n < rest.size() && (static_cast<unsigned char>(rest[n]) & 0xc0u) == 0x80u) ++n;
    throw Fail{op_col, rest.empty() ? "expected an instruction such as match.any.sync.b32"
                                    : "expected an instruction such as match.any.sync.b32, found " +
                                          quoted(rest.substr(0, n))};
  }
  ParsedInstr out;
  out.instr.form = match_opcode(op, op_col);
  out.aligned = !(op.starts_with("barrier.") && op.find(".aligned") == std::string_view::npos);
  const FormInfo& f = form_info(out.instr.form);
  std::string d = "d", p, a = "a", neg;
  switch (f.family) {
    case Family::Match:
    case Family::Vote:
    case Family::Redux: {
      const auto dcol = c.column();
      d = expect_register(c, "the destination d", f.optional_p);
      if (c.eat('|')) {
        if (!f.optional_p)
          throw Fail{c.column() - 1, "'|p' is only allowed on match.all and shfl.sync"};
        p = expect_register(c, "the predicate destination p", true);
        if (d == "_" && p == "_") throw Fail{dcol, "only one of d and p may be the sink '_'"};
        out.instr.write_p = p != "_";
      } else if (d == "_") {
        throw Fail{dcol, "the sink '_' may stand for d only in the form 'd|p'"};
      }
      out.instr.write_d = d != "_";
      expect_comma(c, "the source operand");
      if (f.negatable && read_negation(c)) {
        out.instr.negate = true;
        neg = "!";
      } else if (c.peek() == '!') {
        throw Fail{c.column(), "'!' negation is only allowed on vote.sync sources"};
      }
      a = expect_register(c, "the source operand a");
      expect_comma(c, "the membermask");
      read_mask(c, out);
      out.text = std::string(f.name) + " " + d + (p.empty() ? "" : "|" + p) + ", " + neg + a +
                 ", " + mask_text(out) + ";";
      break;
    }
    case Family::Shfl: {
      d = expect_register(c, "the destination d");
      if (c.eat('|')) {
        p = expect_register(c, "the predicate destination p", true);
        out.instr.write_p = p != "_";
      }
      expect_comma(c, "the source operand");
      a = expect_register(c, "the source operand a");
      expect_comma(c, "b (the source lane or lane offset)");
      read_word_operand(c, "b (the source lane or lane offset)", "1", out.instr.imm_b,
                        out.b_register);
      expect_comma(c, "c (segment mask and clamp)");
      read_word_operand(c, "c (segment mask and clamp)", "0x1f", out.instr.imm_c, out.c_register);
      expect_comma(c, "the membermask");
      read_mask(c, out);
      out.text = std::string(f.name) + " " + d + (p.empty() ? "" : "|" + p) + ", " + a + ", " +
                 word_text(out.instr.imm_b, out.b_register, true) + ", " +
                 word_text(out.instr.imm_c, out.c_register) + ", " + mask_text(out) + ";";
      break;
    }
    case Family::Elect: {
      d = expect_register(c, "the destination d (the leader's lane number)", true);
      if (!c.eat('|')) throw Fail{c.column(), "expected '|p': elect.sync writes a predicate too"};
      p = expect_register(c, "the predicate destination p");
      out.instr.write_d = d != "_";
      out.instr.write_p = true;
      expect_comma(c, "the membermask");
      read_mask(c, out);
      out.text = std::string(f.name) + " " + d + "|" + p + ", " + mask_text(out) + ";";
      break;
    }
    case Family::WarpBarrier:
      read_mask(c, out);
      out.text = std::string(f.name) + " " + mask_text(out) + ";";
      break;
    case Family::Activemask:
      d = expect_register(c, "the destination d");
      out.text = std::string(f.name) + " " + d + ";";
      break;
    case Family::CtaBarrier: {
      if (f.mode != Mode::None) {
        d = expect_register(c, "the destination d");
        expect_comma(c, "the barrier number");
      }
      const auto bcol = c.column();
      read_word_operand(c, "the barrier number a", "1", out.instr.imm_bar, out.bar_register);
      if (out.instr.imm_bar && *out.instr.imm_bar > 15)
        throw Fail{bcol, "expected a barrier number 0-15, found '" +
                             std::to_string(*out.instr.imm_bar) + "'"};
      std::string operands = word_text(out.instr.imm_bar, out.bar_register, true);
      // The thread count b: required for bar.arrive, optional elsewhere (before bar.red's c).
      const bool arrive = in_form_arrive(f.id);
      c.skip_space();
      const bool more = c.peek() == ',';
      bool count = arrive;
      if (!arrive && more && f.mode != Mode::None) {
        // bar.red d, a, b, c or d, a, c: a count is there when two operands follow a.
        auto save = c.pos;
        c.eat(',');
        c.eat('!');
        (void)c.word();
        c.skip_space();
        count = c.peek() == ',';
        c.pos = save;
      } else if (!arrive && more) {
        count = true;
      }
      if (count) {
        expect_comma(
            c, arrive ? "the thread count b (bar.arrive requires one)" : "the thread count b");
        const auto ccol = c.column();
        read_word_operand(c, "the thread count b", "64", out.instr.imm_count, out.count_register);
        out.instr.has_count = true;
        if (out.instr.imm_count && *out.instr.imm_count > 1024)
          throw Fail{ccol, "a thread count names at most 1024 threads, found '" +
                               std::to_string(*out.instr.imm_count) + "'"};
        operands += ", " + word_text(out.instr.imm_count, out.count_register, true);
      }
      if (f.mode != Mode::None) {
        expect_comma(c, "the predicate");
        if (read_negation(c)) {
          out.instr.negate = true;
          neg = "!";
        }
        a = expect_register(c, "the predicate operand");
        out.text = std::string(f.name) + " " + d + ", " + operands + ", " + neg + a + ";";
      } else {
        out.text = std::string(f.name) + " " + operands + ";";
      }
      break;
    }
  }
  expect_end(c);
  const bool has_d =
      f.family != Family::WarpBarrier && !(f.family == Family::CtaBarrier && f.mode == Mode::None);
  const bool has_a = f.family == Family::Match || f.family == Family::Vote ||
                     f.family == Family::Redux || f.family == Family::Shfl ||
                     (f.family == Family::CtaBarrier && f.mode != Mode::None);
  if (has_d) out.d_register = d;
  out.p_register = p;
  if (has_a) out.a_register = a;
  return out;
}

// ---------------------------------------------------------------- intrinsic calls

std::optional<CType> ctype_from(std::string_view s) {
  std::string t;
  for (char ch : s)
    if (!std::isspace(static_cast<unsigned char>(ch)) || (!t.empty() && t.back() != ' '))
      t += std::isspace(static_cast<unsigned char>(ch)) ? ' ' : ch;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  static constexpr std::pair<std::string_view, CType> names[] = {
      {"int", CType::Int},
      {"signed", CType::Int},
      {"unsigned", CType::Unsigned},
      {"unsigned int", CType::Unsigned},
      {"long", CType::Long},
      {"long int", CType::Long},
      {"unsigned long", CType::UnsignedLong},
      {"long long", CType::LongLong},
      {"unsigned long long", CType::UnsignedLongLong},
      {"float", CType::Float},
      {"double", CType::Double},
      {"int32_t", CType::Int},
      {"uint32_t", CType::Unsigned},
      {"int64_t", CType::LongLong},
      {"uint64_t", CType::UnsignedLongLong}};
  for (auto [n, ct] : names)
    if (t == n) return ct;
  return std::nullopt;
}

ParsedInstr parse_call(Cursor& c) {
  const auto name_col = c.column();
  auto name = c.word();
  std::vector<const IntrinsicInfo*> overloads;
  for (const auto& i : kIntrinsics)
    if (i.name == name) overloads.push_back(&i);
  if (overloads.empty())
    throw Fail{name_col, "unknown intrinsic " + quoted(name) +
                             "; see 'warpspec list --json' for the intrinsics of each form"};
  if (!c.eat('(')) throw Fail{c.column(), "expected '(' after " + std::string(name)};
  ParsedInstr out;
  const IntrinsicInfo* chosen = overloads.front();
  std::string args;
  bool first = true;
  auto sep = [&](const char* what) {
    if (!first) expect_comma(c, what);
    first = false;
  };
  if (chosen->has_mask) {
    if (name == "__syncwarp" && c.peek() == ')') {
      out.instr.imm_mask = 0xffffffffu;  // the default argument
    } else {
      sep("the membermask");
      read_mask(c, out);
    }
    args = mask_text(out);
  }
  if (chosen->value_type != CType::Void) {
    sep("the value argument");
    std::optional<CType> cast;
    const auto cast_col = c.column();
    if (c.eat('(')) {
      auto close = c.s.find(')', c.pos);
      if (close == std::string_view::npos) throw Fail{cast_col, "unclosed '(' in a cast"};
      cast = ctype_from(c.s.substr(c.pos, close - c.pos));
      if (!cast)
        throw Fail{cast_col + 1, "unknown type " + quoted(c.s.substr(c.pos, close - c.pos)) +
                                     " in the cast; expected int, unsigned, long, unsigned long, "
                                     "long long, unsigned long long, float or double"};
      c.pos = close + 1;
      const IntrinsicInfo* match = nullptr;
      std::string have;
      for (auto* o : overloads) {
        if (o->value_type == *cast) match = o;
        have += (have.empty() ? "" : ", ") + std::string(ctype_name(o->value_type));
      }
      if (!match)
        throw Fail{cast_col, std::string(name) + " has no " + std::string(ctype_name(*cast)) +
                                 " overload; it takes " + have};
      chosen = match;
    }
    const auto vcol = c.column();
    if (c.peek() == '!') throw Fail{vcol, "negate the predicate in the state, not in the call"};
    auto v = c.word();
    if (v.empty()) throw Fail{vcol, "expected the value argument, found " + describe_next(c)};
    args += std::string(args.empty() ? "" : ", ") +
            (cast ? "(" + std::string(ctype_name(*cast)) + ")" : "") + std::string(v);
  }
  if (spec::form_info(chosen->form).family == Family::Shfl) {
    const bool up = spec::form_info(chosen->form).mode == Mode::Up;
    const char* what = name == "__shfl_sync"       ? "srcLane (the source lane)"
                       : name == "__shfl_xor_sync" ? "laneMask (the lane mask to xor)"
                                                   : "delta (the lane offset)";
    sep(what);
    read_word_operand(c, what, "1", out.instr.imm_b, out.b_register);
    args += ", " + word_text(out.instr.imm_b, out.b_register, true);
    uint32_t width = 32;
    if (c.eat(',')) {
      const auto wcol = c.column();
      auto w = c.word();
      auto v = parse_unsigned(w, 32);
      if (!v || *v == 0 || *v > 32 || (*v & (*v - 1)) != 0)
        throw Fail{wcol,
                   "width must be a power of two from 1 to 32, written as a number (CUDA "
                   "leaves other widths undefined); found " +
                       quoted(w)};
      width = static_cast<uint32_t>(*v);
      args += ", " + std::to_string(width);
    }
    out.instr.imm_c = shfl_c_of_width(width, up ? Mode::Up : Mode::Idx);
  }
  if (chosen->pred_out) {
    sep("'&pred' (the int* that receives the predicate)");
    const auto pcol = c.column();
    if (!c.eat('&')) throw Fail{pcol, "expected '&pred', the int* that receives the predicate"};
    auto p = expect_register(c, "the predicate output");
    out.instr.write_p = true;
    args += ", &" + p;
  }
  if (!c.eat(')'))
    throw Fail{c.column(),
               "expected ')' to close the call (too many arguments?), found " + describe_next(c)};
  expect_end(c);
  out.instr.form = chosen->form;
  out.instr.wide = is_wide_shuffle(*chosen);
  if (!is_warp_form(chosen->form)) out.instr.imm_bar = 0;  // __syncthreads*: barrier 0, no count
  out.intrinsic = chosen;
  out.text = std::string(name) + "(" + args + ")";
  return out;
}

}  // namespace

std::variant<ParsedInstr, ParseError> parse_instruction(std::string_view text) {
  Cursor c{text};
  try {
    if (c.at_end())
      return ParseError{
          1, "empty instruction; expected e.g. 'vote.sync.ballot.b32 d, p, 0xffffffff;'"};
    if (c.peek() == '@')
      return ParseError{c.column(),
                        "guard predicates (@p) are not supported; give the state instead"};
    auto save = c.pos;
    auto w = c.word();
    c.pos = save;
    if (w.starts_with("__")) return parse_call(c);
    return parse_ptx(c);
  } catch (const Fail& f) {
    return ParseError{f.column, f.message};
  }
}

ValueSyntax value_syntax(const ParsedInstr& p) {
  const FormInfo& f = form_info(p.instr.form);
  ValueSyntax s;
  if (p.intrinsic) {
    if (p.intrinsic->value_type == CType::Void) return {32, false, false, true};
    if (f.a_type == OperandType::Pred) return {32, false, false, false};  // an int predicate
    s.bits = ctype_bits(p.intrinsic->value_type);
    s.is_float = ctype_is_float(p.intrinsic->value_type);
    return s;
  }
  switch (f.a_type) {
    case OperandType::None:
      return {32, false, false, true};
    case OperandType::Pred:
      return {32, false, true, false};
    case OperandType::B64:
      return {64, false, false, false};
    case OperandType::F32:
      return {32, true, false, false};
    default:
      return {32, false, false, false};
  }
}

std::string parse_value(std::string_view text, const ValueSyntax& syn, uint64_t& out) {
  auto t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  if (t.empty()) return "empty value";
  const std::string shown = quoted(t);
  const uint64_t width_mask = syn.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << syn.bits) - 1;
  if (syn.is_pred) {
    if (t == "1" || t == "true") return out = 1, "";
    if (t == "0" || t == "false") return out = 0, "";
    // 0x strings are bits for every operand, a predicate's too ("0x1", "0x00000000").
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
      if (const auto v = parse_unsigned(t, 64); v && *v <= 1) return out = *v, "";
    return shown + " is not a predicate; expected 0, 1, true, false, 0x0 or 0x1";
  }
  // 0x-hex: the exact bit pattern.
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    auto v = parse_unsigned(t, syn.bits);
    if (!v) return shown + " does not fit in " + std::to_string(syn.bits) + " bits";
    return out = *v, "";
  }
  const bool looks_float = t.find_first_of(".eEnNiI") != std::string_view::npos;
  if (syn.is_float) {
    std::string s(t);
    char* end = nullptr;
    // Read in the operand's own precision (strtof rounds the decimal once, as a compiler does).
    // A finite number too large for the type would become infinity: a slip, not a spelling of
    // it, refused; "inf" itself is read.
    errno = 0;
    const double v = syn.bits == 32 ? std::strtof(s.c_str(), &end) : std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
      return shown + " is not a number (use e.g. 1.5, -0.0, inf, nan or 0x bits)";
    if (std::isinf(v) && errno == ERANGE)
      return shown + " is beyond the largest finite " +
             (syn.bits == 32 ? std::string("float (3.40282347e+38)")
                             : std::string("double (1.7976931348623157e+308)")) +
             "; write inf for infinity";
    if (syn.bits == 32) {
      out = std::bit_cast<uint32_t>(static_cast<float>(v));  // exact: v came from a float
      if (std::isnan(v)) out = std::signbit(v) ? 0xffc00000u : 0x7fc00000u;
    } else {
      out = std::bit_cast<uint64_t>(v);
    }
    return "";
  }
  if (looks_float)
    return shown + " is not an integer (this operand is " + std::to_string(syn.bits) +
           "-bit integer bits)";
  const bool neg = t.front() == '-';
  if (t.front() == '+' || neg) t.remove_prefix(1);
  auto mag = parse_unsigned(t, 64);
  const bool digits = !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
  if (!mag && digits)  // an integer, too large for any operand
    return shown + (neg ? " is below the smallest " : " does not fit in ") +
           std::to_string(syn.bits) + (neg ? "-bit value" : " bits");
  if (!mag) return shown + " is not an integer";
  if (neg) {
    const uint64_t limit = uint64_t{1} << (syn.bits - 1);
    if (*mag > limit)
      return shown + " is below the smallest " + std::to_string(syn.bits) + "-bit value";
    out = (~*mag + 1) & width_mask;
    return "";
  }
  if (syn.bits < 64 && (*mag >> syn.bits))
    return shown + " does not fit in " + std::to_string(syn.bits) + " bits";
  out = *mag;
  return "";
}

std::string shown_text(std::string_view t, bool ascii, std::size_t max_chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t chars = 0, i = 0;
  for (; i < t.size() && chars < max_chars; ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    chars += ascii || (c & 0xc0u) != 0x80u;
    if (c < 0x20 || c == 0x7f || (ascii && c >= 0x80)) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  while (!ascii && i < t.size() && (static_cast<unsigned char>(t[i]) & 0xc0u) == 0x80u)
    out += t[i++];
  if (i < t.size()) out += "...";
  return out;
}

}  // namespace warpspec::spec
