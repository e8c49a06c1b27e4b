#include "programs/ptx_reader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/catalog.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::programs {

namespace {

// ---------------------------------------------------------------- failures

// The first problem ends the read: functions throw it where they find it and read_ptx turns it
// into the ReadError, so that no caller has to pass a half-read result on.
struct Failure {
  SourceLoc loc;
  std::string message;
  bool no_entry = false;
};

[[noreturn]] void fail(SourceLoc loc, std::string message) {
  throw Failure{loc, std::move(message)};
}

// What one kernel may declare: every state of an exploration holds each thread's registers and
// the block's shared window, so these bound one state's size. A block of sm_90 may use at most
// 227 KiB of shared memory.
constexpr std::size_t kMaxRegisters = 16384;
constexpr uint64_t kMaxSharedBytes = uint64_t{256} << 10;

std::string hex_byte(char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(c));
  return buf;
}

std::string quoted(std::string_view s) {
  return "'" + spec::shown_text(s) + "'";
}

// ---------------------------------------------------------------- text and tokens

// Byte offsets to lines and columns. Columns count characters, as every other input's messages
// do (a UTF-8 comment before an error on its line moves the column by its characters, not its
// bytes); a tab is one column.
class LineTable {
 public:
  explicit LineTable(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
      if ((static_cast<unsigned char>(text[i]) & 0xc0u) == 0x80u) continuations_.push_back(i);
    }
  }
  SourceLoc at(std::size_t offset) const {
    const auto line = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin();
    const std::size_t start = starts_[static_cast<std::size_t>(line) - 1];
    // The bytes before `offset` on its line, less those that continue a multi-byte character.
    const auto first = std::lower_bound(continuations_.begin(), continuations_.end(), start);
    const auto last = std::lower_bound(first, continuations_.end(), offset);
    return {static_cast<unsigned>(line),
            static_cast<unsigned>(offset - start - static_cast<std::size_t>(last - first) + 1)};
  }

 private:
  std::vector<std::size_t> starts_{0};
  std::vector<std::size_t> continuations_;  // offsets of UTF-8 continuation bytes, in order
};

// The text with its comments blanked (newlines kept): offsets stay those of the source, and an
// instruction's text can be handed to spec::parse_instruction without the comments around it.
std::string blank_comments(std::string_view text, const LineTable& lines) {
  std::string out(text);
  for (std::size_t i = 0; i < out.size();) {
    if (out[i] == '"') {
      const auto end = out.find_first_of("\"\n", i + 1);
      if (end == std::string::npos || out[end] != '"') fail(lines.at(i), "unterminated string");
      i = end + 1;
    } else if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      const auto end = out.find("*/", i + 2);
      if (end == std::string::npos) fail(lines.at(i), "unterminated comment '/*'");
      for (; i < end + 2; ++i)
        if (out[i] != '\n') out[i] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

enum class Tok : uint8_t { Word, Number, String, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  std::size_t offset = 0;
  SourceLoc loc;
  bool is(char c) const { return kind == Tok::Punct && text[0] == c; }
  bool is_word(std::string_view w) const { return kind == Tok::Word && text == w; }
};

std::string describe(const Token& t) {
  return t.kind == Tok::End ? "the end of the text" : quoted(t.text);
}

bool is_word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
         c == '.';
}
bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

// Words take in `::` followed by a letter, so that `ld.shared::cta.u32` stays one opcode while
// `$L__BB0_2:` is a label followed by its colon.
std::size_t word_end(std::string_view s, std::size_t i) {
  while (i < s.size()) {
    if (is_word_char(s[i])) {
      ++i;
    } else if (s.compare(i, 2, "::") == 0 && i + 2 < s.size() &&
               std::isalpha(static_cast<unsigned char>(s[i + 2]))) {
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

std::vector<Token> lex(std::string_view s, const LineTable& lines) {
  static constexpr std::string_view kPunct = ",;:[](){}<>|@!+-=";
  std::vector<Token> out;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    std::size_t end = i + 1;
    Tok kind = Tok::Punct;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    } else if (c == '"') {
      end = s.find('"', i + 1) + 1;  // blank_comments saw it closed
      kind = Tok::String;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      end = word_end(s, i);
      kind = Tok::Number;
    } else if (is_word_start(c)) {
      end = word_end(s, i + 1);
      kind = Tok::Word;
    } else if (kPunct.find(c) == std::string_view::npos) {
      fail(lines.at(i), static_cast<unsigned char>(s[i]) >= 0x80
                            ? "unexpected byte " + hex_byte(s[i]) + " (PTX is ASCII text)"
                            : "unexpected character " + quoted(std::string_view(&s[i], 1)));
    }
    out.push_back({kind, s.substr(i, end - i), i, lines.at(i)});
    i = end;
  }
  out.push_back({Tok::End, "", s.size(), lines.at(s.size())});
  return out;
}

// A position in the token list.
class Cursor {
 public:
  explicit Cursor(const std::vector<Token>& toks) : toks_(toks) {}
  const Token& peek(std::size_t ahead = 0) const {
    return toks_[std::min(pos_ + ahead, toks_.size() - 1)];
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool eat(char c) {
    if (!peek().is(c)) return false;
    next();
    return true;
  }
  const Token& expect(char c, std::string_view where) {
    if (!peek().is(c))
      fail(peek().loc, "expected '" + std::string(1, c) + "' " + std::string(where) + ", found " +
                           describe(peek()));
    return next();
  }
  const Token& expect(Tok kind, std::string_view what) {
    if (peek().kind != kind)
      fail(peek().loc, "expected " + std::string(what) + ", found " + describe(peek()));
    return next();
  }
  // Skips the rest of the line the token before the cursor is on (`.loc`, `.file`: no ';').
  void skip_line() {
    const unsigned line = previous().loc.line;
    while (peek().kind != Tok::End && peek().loc.line == line) next();
  }
  const Token& previous() const { return toks_[pos_ ? pos_ - 1 : 0]; }
  std::size_t pos() const { return pos_; }
  void seek(std::size_t pos) { pos_ = pos; }

 private:
  const std::vector<Token>& toks_;
  std::size_t pos_ = 0;
};

// ---------------------------------------------------------------- types, numbers, specials

std::optional<Type> parse_type(std::string_view q) {
  static constexpr std::pair<std::string_view, Type> kTypes[] = {
      {"pred", Type::Pred}, {"b8", Type::B8}, {"b16", Type::B16}, {"b32", Type::B32},
      {"b64", Type::B64},   {"u8", Type::U8}, {"u16", Type::U16}, {"u32", Type::U32},
      {"u64", Type::U64},   {"s8", Type::S8}, {"s16", Type::S16}, {"s32", Type::S32},
      {"s64", Type::S64}};
  if (q.starts_with('.')) q.remove_prefix(1);
  for (auto [name, t] : kTypes)
    if (name == q) return t;
  return std::nullopt;
}

bool is_float_type(std::string_view q) {
  static constexpr std::string_view kFloats[] = {"f16", "f16x2", "bf16", "bf16x2",
                                                 "f32", "f64",   "tf32"};
  if (q.starts_with('.')) q.remove_prefix(1);
  return std::find(std::begin(kFloats), std::end(kFloats), q) != std::end(kFloats);
}

uint32_t byte_size(Type t) {
  return std::max(1u, bits(t) / 8);
}

uint32_t align_up(uint32_t x, uint32_t a) {
  return a ? (x + a - 1) / a * a : x;
}

uint64_t width_mask(unsigned width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// The magnitude of an integer literal: decimal, 0x hex, 0b binary or 0-led octal, with PTX's
// optional U suffix. Float literals (0f..., 0d..., 1.5) are not part of the subset.
uint64_t parse_magnitude(const Token& t) {
  std::string_view s = t.text;
  const bool float_bits =
      s.size() > 1 && s[0] == '0' && std::string_view("fFdD").find(s[1]) != std::string_view::npos;
  if (float_bits || s.find('.') != std::string_view::npos)
    fail(t.loc, "floating-point immediate " + quoted(s) + " is not supported");
  if (s.ends_with('U') || s.ends_with('u')) s.remove_suffix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' || s[1] == 'B')) {
    base = (s[1] == 'x' || s[1] == 'X') ? 16 : 2;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
  }
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec == std::errc::result_out_of_range)
    fail(t.loc, quoted(t.text) + " does not fit in 64 bits");
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty())
    fail(t.loc, quoted(t.text) + " is not a number");
  return v;
}

// An immediate as the bits of a `width`-bit operand; negative decimals in two's complement.
uint64_t immediate_bits(const Token& t, bool minus, unsigned width) {
  const uint64_t mag = parse_magnitude(t);
  if (width == 1) return mag != 0;  // nvcc writes true as -1: any non-zero value is true
  const std::string shown = (minus ? "-" : "") + std::string(t.text);
  if (minus && mag > (uint64_t{1} << (width - 1)))
    fail(t.loc, quoted(shown) + " is below the smallest " + std::to_string(width) + "-bit value");
  if (!minus && (mag & ~width_mask(width)))
    fail(t.loc, quoted(shown) + " does not fit in " + std::to_string(width) + " bits");
  return (minus ? ~mag + 1 : mag) & width_mask(width);
}

std::optional<Special> parse_special(std::string_view name) {
  static constexpr std::pair<std::string_view, Special> kSpecials[] = {
      {"%tid.x", Special::TidX},       {"%tid.y", Special::TidY},
      {"%tid.z", Special::TidZ},       {"%ntid.x", Special::NtidX},
      {"%ntid.y", Special::NtidY},     {"%ntid.z", Special::NtidZ},
      {"%ctaid.x", Special::CtaidX},   {"%ctaid.y", Special::CtaidY},
      {"%ctaid.z", Special::CtaidZ},   {"%nctaid.x", Special::NctaidX},
      {"%nctaid.y", Special::NctaidY}, {"%nctaid.z", Special::NctaidZ},
      {"%laneid", Special::LaneId},    {"%warpid", Special::WarpId},
      {"%nwarpid", Special::NwarpId}};
  for (auto [n, s] : kSpecials)
    if (n == name) return s;
  return std::nullopt;
}

// ---------------------------------------------------------------- names in scope

struct Symbol {
  enum class Kind : uint8_t { Reg, Shared, Param };
  Kind kind = Kind::Reg;
  uint32_t index = 0;
};

// PTX blocks nest (`{ .reg .pred %p1; ... }` in nvcc's own output shadows the kernel's %p1), so
// names live in a stack of scopes.
class Scopes {
 public:
  void push() { scopes_.emplace_back(); }
  void pop() { scopes_.pop_back(); }
  std::size_t depth() const { return scopes_.size(); }
  void declare(const Token& at, const std::string& name, Symbol s) {
    if (!scopes_.back().emplace(name, s).second)
      fail(at.loc, quoted(name) + " is declared twice in one block");
  }
  const Symbol* find(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(name); f != it->end()) return &f->second;
    return nullptr;
  }

 private:
  std::vector<std::map<std::string, Symbol, std::less<>>> scopes_;
};

// ---------------------------------------------------------------- operands as written

// One operand before it is typed: `name`, `!name`, `d|p`, `-12`, or `[base+offset]`.
struct RawOperand {
  enum class Kind : uint8_t { Name, Number, Address };
  Kind kind = Kind::Name;
  const Token* tok = nullptr;     // the name or number; for an address, its base
  const Token* second = nullptr;  // `d|p`: p
  bool negate = false;            // `!name`
  bool minus = false;             // `-12`
  int64_t offset = 0;             // `[base+offset]`
  SourceLoc loc;                  // where the operand starts
};

// `+8`, `+-4` or `-4` after an address's base.
int64_t read_offset(Cursor& c) {
  if (!c.eat('+') && !c.peek().is('-')) return 0;
  const bool minus = c.eat('-');
  const Token& n = c.expect(Tok::Number, "an address offset");
  const uint64_t mag = parse_magnitude(n);
  if (mag > (uint64_t{1} << 62)) fail(n.loc, "address offset " + quoted(n.text) + " is too large");
  return minus ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

RawOperand read_operand(Cursor& c) {
  RawOperand r;
  r.loc = c.peek().loc;
  if (c.peek().is('{')) fail(r.loc, "vector operands '{...}' are not supported");
  if (c.eat('[')) {
    r.kind = RawOperand::Kind::Address;
    r.tok = &c.peek();
    if (r.tok->kind == Tok::Number) fail(r.loc, "absolute addresses are not supported");
    c.expect(Tok::Word, "an address base (a register or a variable)");
    r.offset = read_offset(c);
    c.expect(']', "to close the address");
    return r;
  }
  r.negate = c.eat('!');
  r.minus = !r.negate && c.eat('-');
  if (c.peek().kind == Tok::Number) {
    if (r.negate) fail(r.loc, "'!' negates predicate registers, not numbers");
    r.kind = RawOperand::Kind::Number;
    r.tok = &c.next();
    return r;
  }
  if (r.minus) fail(c.peek().loc, "expected a number after '-', found " + describe(c.peek()));
  r.tok = &c.expect(Tok::Word, "an operand");
  if (c.eat('|')) r.second = &c.expect(Tok::Word, "a predicate after '|'");
  return r;
}

// Operands up to the ';'; the cursor ends after it.
std::vector<RawOperand> read_operands(Cursor& c) {
  std::vector<RawOperand> out;
  if (c.eat(';')) return out;
  while (true) {
    out.push_back(read_operand(c));
    if (c.eat(';')) return out;
    if (!c.eat(','))
      fail(c.peek().loc, "expected ',' or ';' after an operand, found " + describe(c.peek()));
  }
}

// ---------------------------------------------------------------- opcodes

// An opcode split at its dots: "mul.wide.u32" is head "mul" with qualifiers {"wide", "u32"}.
struct Opcode {
  const Token* tok = nullptr;
  std::string_view head;
  std::vector<std::string_view> quals;

  explicit Opcode(const Token& t) : tok(&t) {
    std::string_view s = t.text;
    std::size_t dot = s.find('.');
    head = s.substr(0, dot);
    while (dot != std::string_view::npos) {
      s.remove_prefix(dot + 1);
      dot = s.find('.');
      quals.push_back(s.substr(0, dot));
    }
  }
  [[noreturn]] void unsupported(std::string_view why = {}) const {
    fail(tok->loc, "unsupported instruction " + quoted(tok->text) + (why.empty() ? "" : ": ") +
                       std::string(why));
  }
  // The qualifier `q` as an integer type (or .pred when `pred_ok`); anything else is named.
  Type type(std::string_view q, bool pred_ok = false) const {
    auto t = parse_type(q);
    if (t && (pred_ok || *t != Type::Pred)) return *t;
    if (is_float_type(q)) unsupported("floating-point types are not supported");
    unsupported(quoted("." + std::string(q)) + " is not supported here");
  }
  // The opcode must have exactly `n` qualifiers; names the first one too many.
  void expect_quals(std::size_t n) const {
    if (quals.size() > n) unsupported(quoted("." + std::string(quals[n])) + " is not supported");
    if (quals.size() < n) unsupported("a qualifier is missing");
  }
};

// Heads of the catalog's forms (and `barrier`, the spelling nvcc uses for bar.sync's aligned
// variants): their text goes to spec::parse_instruction.
bool is_collective_head(std::string_view head) {
  if (head == "barrier") return true;
  return std::any_of(spec::kForms.begin(), spec::kForms.end(), [&](const spec::FormInfo& f) {
    return f.name.substr(0, f.name.find('.')) == head;
  });
}

// ---------------------------------------------------------------- negative immediates for spec

// spec::parse_instruction reads immediates as unsigned, but nvcc writes the full membermask as
// `-1` (`bar.warp.sync -1;`). Negative decimals become their 32-bit hex here; `column` maps a
// column of the rewritten text back to the written one.
struct Rewritten {
  std::string text;
  struct Edit {
    std::size_t from, from_len, to, to_len;
  };
  std::vector<Edit> edits;

  std::size_t column(std::size_t col) const {
    std::size_t pos = col - 1;
    long shift = 0;
    for (const auto& e : edits) {
      if (pos < e.to) break;
      if (pos < e.to + e.to_len) return e.from + 1;
      shift = static_cast<long>(e.from + e.from_len) - static_cast<long>(e.to + e.to_len);
    }
    return static_cast<std::size_t>(static_cast<long>(pos) + shift) + 1;
  }
};

Rewritten rewrite_negatives(std::string_view text, std::size_t base,
                            const std::vector<RawOperand>& ops) {
  Rewritten r;
  std::size_t done = 0;
  for (const auto& o : ops) {
    if (o.kind != RawOperand::Kind::Number || !o.minus) continue;
    const std::size_t from = o.tok->offset - 1 - base;  // the '-' right before the digits
    if (text[from] != '-') continue;                    // `- 1`: left for spec to reject
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x",
                  static_cast<unsigned>(immediate_bits(*o.tok, true, 32)));
    r.text.append(text.substr(done, from - done));
    r.edits.push_back({from, o.tok->text.size() + 1, r.text.size(), std::string_view(hex).size()});
    r.text += hex;
    done = from + o.tok->text.size() + 1;
  }
  r.text.append(text.substr(done));
  return r;
}

// ---------------------------------------------------------------- the entry's body

// How a register must fit a typed operand: the same width, or (loads, stores, cvt) at least it.
enum class Fit : uint8_t { Exact, AtLeast };

class EntryReader {
 public:
  EntryReader(std::string_view text, const LineTable& lines, Cursor& c, Program& prog)
      : text_(text), lines_(lines), c_(c), prog_(prog) {}

  // Reads `.entry NAME(params) {body}` from the cursor at NAME.
  void read(const std::vector<SharedVar>& module_shared);

 private:
  // declarations
  void read_params();
  void read_performance_directives();
  void read_body();
  void read_directive();
  void read_loc(const Token& at);
  void read_reg();
  void declare_register(const Token& at, std::string name, Type t);
  void read_shared(const Token& at);
  void read_label();
  // instructions
  void read_instruction();
  void read_by_opcode(Instruction& in, const Opcode& op, std::size_t text_begin);
  void read_end(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_arith(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_mov(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_memory(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_cvta(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_cvt(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_setp(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_selp(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_bra(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops);
  void read_collective(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops,
                       std::size_t semicolon);
  void resolve_labels();
  // operands
  static void expect_count(const Opcode& op, const std::vector<RawOperand>& ops, std::size_t n);
  const Symbol& symbol(const Token& name) const;
  uint32_t reg(const Token& name, Type want, Fit fit = Fit::Exact) const;
  Operand reg_operand(const RawOperand& r, Type want, Fit fit = Fit::Exact) const;
  Operand value(const RawOperand& r, Type want, Fit fit = Fit::Exact) const;
  void read_address(Instruction& in, const RawOperand& r) const;
  std::optional<uint32_t> collective_reg(const std::string& name, Type want,
                                         const std::vector<RawOperand>& ops, SourceLoc at) const;

  std::string_view text_;
  const LineTable& lines_;
  Cursor& c_;
  Program& prog_;
  SourceLine source_;  // the last `.loc`
  Scopes scopes_;
  std::map<std::string, uint32_t, std::less<>> labels_;
  std::vector<std::pair<uint32_t, const Token*>> branches_;  // bra instruction, its label
};

void EntryReader::read(const std::vector<SharedVar>& module_shared) {
  const Token& name = c_.expect(Tok::Word, "the kernel's name after .entry");
  prog_.name = std::string(name.text);
  scopes_.push();
  for (const auto& s : module_shared) {
    scopes_.declare(name, s.name,
                    {Symbol::Kind::Shared, static_cast<uint32_t>(prog_.shared.size())});
    prog_.shared.push_back(s);
    prog_.shared_bytes = std::max(prog_.shared_bytes, s.offset + s.size);
  }
  read_params();
  read_performance_directives();
  read_body();
  resolve_labels();
}

void EntryReader::read_params() {
  c_.expect('(', "after the kernel's name");
  uint32_t offset = 0;
  if (c_.eat(')')) return;
  do {
    const Token& param = c_.next();
    if (!param.is_word(".param"))
      fail(param.loc, "expected '.param' for a kernel parameter, found " + describe(param));
    std::optional<Type> type;
    while (c_.peek().kind == Tok::Word && c_.peek().text.starts_with('.')) {
      const Token& q = c_.next();
      if (q.text == ".align") {
        c_.expect(Tok::Number, "an alignment after .align");
      } else if (auto t = parse_type(q.text); t && !type && *t != Type::Pred) {
        type = t;
      } else if (q.text != ".ptr" && q.text != ".global" && q.text != ".shared" &&
                 q.text != ".const" && q.text != ".local") {
        fail(q.loc, "parameter type " + quoted(q.text) + " is not supported");
      }
    }
    if (!type) fail(c_.peek().loc, "expected the parameter's type, found " + describe(c_.peek()));
    const Token& pname = c_.expect(Tok::Word, "the parameter's name");
    if (c_.peek().is('['))
      fail(c_.peek().loc, "array parameters (structs passed by value) are not supported");
    offset = align_up(offset, byte_size(*type));
    scopes_.declare(pname, std::string(pname.text),
                    {Symbol::Kind::Param, static_cast<uint32_t>(prog_.params.size())});
    prog_.params.push_back({std::string(pname.text), *type, offset});
    offset += byte_size(*type);
  } while (c_.eat(','));
  c_.expect(')', "to close the parameter list");
}

// Launch-bound hints (`.maxntid 256, 1, 1`) do not change what the kernel computes.
void EntryReader::read_performance_directives() {
  static constexpr std::string_view kHints[] = {
      ".maxntid",        ".reqntid",           ".minnctapersm",   ".maxnreg",
      ".maxclusterrank", ".reqnctapercluster", ".explicitcluster"};
  while (c_.peek().kind == Tok::Word) {
    const Token& d = c_.next();
    if (std::find(std::begin(kHints), std::end(kHints), d.text) == std::end(kHints))
      fail(d.loc, "expected '{' to open the kernel's body, found " + describe(d));
    while (c_.peek().kind == Tok::Number || c_.peek().is(',')) c_.next();
  }
}

void EntryReader::read_body() {
  c_.expect('{', "to open the kernel's body");
  const std::size_t outer = scopes_.depth();
  scopes_.push();
  while (scopes_.depth() > outer) {
    const Token& t = c_.peek();
    if (t.kind == Tok::End) fail(t.loc, "the body of " + prog_.name + " has no closing '}'");
    if (c_.eat('{')) {
      scopes_.push();
    } else if (c_.eat('}')) {
      scopes_.pop();
    } else if (t.kind == Tok::Word && t.text.starts_with('.')) {
      read_directive();
    } else if (t.kind == Tok::Word && c_.peek(1).is(':')) {
      read_label();
    } else {
      read_instruction();
    }
  }
}

void EntryReader::read_directive() {
  const Token& d = c_.next();
  if (d.text == ".reg") return read_reg();
  if (d.text == ".shared") return read_shared(d);
  if (d.text == ".pragma") {  // "nounroll" and the like: advice to ptxas
    c_.expect(Tok::String, "a string after .pragma");
    c_.expect(';', "after .pragma");
    return;
  }
  if (d.text == ".loc") return read_loc(d);
  if (d.text == ".param")  // in a body, .param only passes a call's arguments
    fail(d.loc, "function calls are not supported (.param declares a call's argument)");
  if (d.text == ".local" || d.text == ".global" || d.text == ".const")
    fail(d.loc, std::string(d.text) + " declarations are not supported");
  fail(d.loc, "unsupported directive " + quoted(d.text));
}

// `.loc FILE LINE COL[, function_name NAME, inlined_at FILE LINE COL]`: the CUDA line of the
// instructions that follow. Where the line is inside an inlined function (an intrinsic's body in
// a CUDA header), the call site it was inlined at is the line a user wrote.
void EntryReader::read_loc(const Token& at) {
  std::vector<uint32_t> numbers;
  std::size_t inlined = 0;
  while (c_.peek().kind != Tok::End && c_.peek().loc.line == at.loc.line) {
    const Token& t = c_.next();
    if (t.is_word("inlined_at")) inlined = numbers.size();
    if (t.kind == Tok::Number) numbers.push_back(static_cast<uint32_t>(parse_magnitude(t)));
  }
  if (numbers.size() < 2) fail(at.loc, ".loc needs a file and a line number");
  const std::size_t from = inlined && numbers.size() >= inlined + 2 ? inlined : 0;
  source_ = {numbers[from], numbers[from + 1]};
}

// `.reg .b32 %r<89>;` declares %r0..%r88; `.reg .u32 %x, %y;` declares names one by one.
void EntryReader::read_reg() {
  const Token& tt = c_.expect(Tok::Word, "the register type after .reg");
  const auto type = parse_type(tt.text);
  if (tt.text.starts_with(".v")) fail(tt.loc, "vector registers are not supported");
  if (!type)
    fail(tt.loc,
         std::string(is_float_type(tt.text) ? "floating-point registers (" : "registers (") +
             spec::shown_text(tt.text) + ") are not supported");
  do {
    const Token& name = c_.expect(Tok::Word, "a register name");
    if (!c_.eat('<')) {
      declare_register(name, std::string(name.text), *type);
      continue;
    }
    const Token& n = c_.expect(Tok::Number, "the number of registers");
    const uint64_t count = parse_magnitude(n);
    if (count > kMaxRegisters || prog_.regs.size() + count > kMaxRegisters)
      fail(n.loc, "too many registers: the kernel would declare more than " +
                      std::to_string(kMaxRegisters) +
                      " (each thread of every state holds them all)");
    c_.expect('>', "after the number of registers");
    for (uint64_t i = 0; i < count; ++i)
      declare_register(name, std::string(name.text) + std::to_string(i), *type);
  } while (c_.eat(','));
  c_.expect(';', "after the register declaration");
}

void EntryReader::declare_register(const Token& at, std::string name, Type t) {
  if (prog_.regs.size() >= kMaxRegisters)
    fail(at.loc,
         "too many registers: the kernel declares more than " + std::to_string(kMaxRegisters));
  scopes_.declare(at, name, {Symbol::Kind::Reg, static_cast<uint32_t>(prog_.regs.size())});
  prog_.regs.push_back({std::move(name), t});
}

// Reads `.shared [.align N] .type NAME[N];` (or a scalar) and places it in a shared window.
SharedVar read_shared_var(Cursor& c, const Token& at, uint32_t window_end) {
  uint32_t align = 0, elem = 0;
  while (c.peek().kind == Tok::Word && c.peek().text.starts_with('.')) {
    const Token& q = c.next();
    if (q.text == ".align") {
      align = static_cast<uint32_t>(parse_magnitude(c.expect(Tok::Number, "an alignment")));
    } else if (auto t = parse_type(q.text); t && *t != Type::Pred) {
      elem = byte_size(*t);
    } else if (q.text == ".f16" || q.text == ".f32" || q.text == ".f64") {
      elem = q.text == ".f16" ? 2 : q.text == ".f32" ? 4 : 8;  // only the size matters here
    } else {
      fail(q.loc, quoted(q.text) + " is not supported in a .shared declaration");
    }
  }
  if (!elem) fail(c.peek().loc, "expected the variable's type, found " + describe(c.peek()));
  const Token& name = c.expect(Tok::Word, "the variable's name");
  uint64_t size = elem;
  while (c.eat('[')) {
    if (c.peek().is(']')) fail(at.loc, "dynamic shared memory (unsized arrays) is not supported");
    size *= parse_magnitude(c.expect(Tok::Number, "the array's length"));
    c.expect(']', "after the array's length");
  }
  if (c.peek().is('=')) fail(c.peek().loc, "initialized .shared variables are not supported");
  c.expect(';', "after the .shared declaration");
  if (!align) align = elem;
  if (uint64_t{align_up(window_end, align)} + size > kMaxSharedBytes)
    fail(name.loc, "the .shared variables take more than " + std::to_string(kMaxSharedBytes >> 10) +
                       " KiB, more than any GPU gives one block");
  return {std::string(name.text), static_cast<uint32_t>(size), align, align_up(window_end, align)};
}

void EntryReader::read_shared(const Token& at) {
  SharedVar v = read_shared_var(c_, at, prog_.shared_bytes);
  scopes_.declare(at, v.name, {Symbol::Kind::Shared, static_cast<uint32_t>(prog_.shared.size())});
  prog_.shared_bytes = v.offset + v.size;
  prog_.shared.push_back(std::move(v));
}

void EntryReader::read_label() {
  const Token& name = c_.next();
  c_.next();  // ':'
  if (!labels_.emplace(std::string(name.text), static_cast<uint32_t>(prog_.code.size())).second)
    fail(name.loc, "label " + quoted(name.text) + " is defined twice");
}

// Collapses runs of blanks (nvcc separates operands with tabs) for messages.
std::string collapse_blanks(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (!std::isspace(static_cast<unsigned char>(ch)))
      out += ch;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

void EntryReader::read_instruction() {
  Instruction in;
  const std::size_t begin = c_.peek().offset;
  if (c_.eat('@')) {
    const bool negate = c_.eat('!');
    const Token& p = c_.expect(Tok::Word, "a predicate register after '@'");
    in.guard = Operand{.kind = Operand::Kind::Reg, .reg = reg(p, Type::Pred), .negate = negate};
  }
  const Token& op = c_.expect(Tok::Word, "an instruction");
  in.loc = op.loc;
  in.source = source_;
  read_by_opcode(in, Opcode(op), begin);
  prog_.code.push_back(std::move(in));
}

void EntryReader::read_by_opcode(Instruction& in, const Opcode& op, std::size_t text_begin) {
  static constexpr std::string_view kArith[] = {"add", "sub", "mul", "mad", "div", "rem",
                                                "min", "max", "neg", "abs", "and", "or",
                                                "xor", "not", "shl", "shr", "bfe", "bfi"};
  const bool arith = std::find(std::begin(kArith), std::end(kArith), op.head) != std::end(kArith);
  const bool collective = is_collective_head(op.head);
  const bool known = arith || collective || op.head == "mov" || op.head == "ld" ||
                     op.head == "st" || op.head == "cvta" || op.head == "cvt" ||
                     op.head == "setp" || op.head == "selp" || op.head == "bra" ||
                     op.head == "ret" || op.head == "exit";
  if (op.head == "call") op.unsupported("function calls are not supported");
  if (!known) op.unsupported();
  // Checked before the operands, whose syntax (`{%r1, %r2}`) these forms change.
  if (!collective && std::any_of(op.quals.begin(), op.quals.end(), is_float_type))
    op.unsupported("floating-point types are not supported");
  if (std::any_of(op.quals.begin(), op.quals.end(),
                  [](auto q) { return q == "v2" || q == "v4" || q == "v8"; }))
    op.unsupported("vector operands (.v2, .v4) are not supported");
  const auto ops = read_operands(c_);
  const std::size_t semicolon = c_.previous().offset;
  in.text = collapse_blanks(text_.substr(text_begin, semicolon - text_begin));
  if (arith) return read_arith(in, op, ops);
  if (op.head == "mov") return read_mov(in, op, ops);
  if (op.head == "ld" || op.head == "st") return read_memory(in, op, ops);
  if (op.head == "cvta") return read_cvta(in, op, ops);
  if (op.head == "cvt") return read_cvt(in, op, ops);
  if (op.head == "setp") return read_setp(in, op, ops);
  if (op.head == "selp") return read_selp(in, op, ops);
  if (op.head == "bra") return read_bra(in, op, ops);
  if (op.head == "ret" || op.head == "exit") return read_end(in, op, ops);
  read_collective(in, op, ops, semicolon);
}

// True for `.uni`, the only qualifier of bra and ret; `exit` takes none.
bool read_uni(const Opcode& op) {
  if (op.quals.empty()) return false;
  if (op.quals.size() > 1 || op.quals[0] != "uni" || op.head == "exit") op.expect_quals(0);
  return true;
}

void EntryReader::read_end(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  in.op = op.head == "ret" ? Op::Ret : Op::Exit;
  in.uniform = read_uni(op);
  expect_count(op, ops, 0);
}

// ---------------------------------------------------------------- operands

void EntryReader::expect_count(const Opcode& op, const std::vector<RawOperand>& ops,
                               std::size_t n) {
  if (ops.size() != n)
    fail(ops.size() > n ? ops[n].loc : op.tok->loc,
         std::string(op.tok->text) + " takes " + std::to_string(n) + " operand" +
             (n == 1 ? "" : "s") + ", found " + std::to_string(ops.size()));
}

const Symbol& EntryReader::symbol(const Token& name) const {
  if (const Symbol* s = scopes_.find(name.text)) return *s;
  if (parse_special(name.text))
    fail(name.loc, "special register " + quoted(name.text) + " is only read by mov");
  if (name.text.starts_with('%') && name.text.find('.') != std::string_view::npos)
    fail(name.loc, "special register " + quoted(name.text) + " is not supported");
  if (name.text.starts_with('%')) fail(name.loc, "undeclared register " + quoted(name.text));
  fail(name.loc, "undeclared name " + quoted(name.text));
}

std::string width_text(Type want) {
  return want == Type::Pred ? "a .pred register"
                            : "a " + std::to_string(bits(want)) + "-bit register";
}

uint32_t EntryReader::reg(const Token& name, Type want, Fit fit) const {
  const Symbol& s = symbol(name);
  if (s.kind != Symbol::Kind::Reg)
    fail(name.loc, "expected " + width_text(want) + ", found the " +
                       (s.kind == Symbol::Kind::Shared ? ".shared variable " : "parameter ") +
                       quoted(name.text));
  const Register& r = prog_.regs[s.index];
  const bool pred_ok = (r.type == Type::Pred) == (want == Type::Pred);
  const bool width_ok = fit == Fit::Exact ? bits(r.type) == bits(want) : bits(r.type) >= bits(want);
  if (!pred_ok || !width_ok)
    fail(name.loc, "expected " + width_text(want) + (fit == Fit::AtLeast ? " or wider" : "") +
                       ", found " + quoted(name.text) + " of type " +
                       std::string(type_name(r.type)));
  return s.index;
}

Operand EntryReader::reg_operand(const RawOperand& r, Type want, Fit fit) const {
  if (r.kind != RawOperand::Kind::Name)
    fail(r.loc, "expected " + width_text(want) + ", found " + describe(*r.tok));
  if (r.negate) fail(r.loc, "'!' is only allowed in guards and collectives");
  if (r.second) fail(r.second->loc, "'|' is only allowed after setp's destination");
  return {.kind = Operand::Kind::Reg, .reg = reg(*r.tok, want, fit)};
}

Operand EntryReader::value(const RawOperand& r, Type want, Fit fit) const {
  if (r.kind == RawOperand::Kind::Number)
    return {.kind = Operand::Kind::Imm, .imm = immediate_bits(*r.tok, r.minus, bits(want))};
  return reg_operand(r, want, fit);
}

// `[%rd6]`, `[%r53+4]`, `[NAME+8]`: a register base fits the space's addresses; a parameter is
// only read by ld.param and a .shared variable only by .shared accesses.
void EntryReader::read_address(Instruction& in, const RawOperand& r) const {
  if (r.kind != RawOperand::Kind::Address)
    fail(r.loc, "expected an address '[...]', found " + describe(*r.tok));
  in.offset = r.offset;
  const Symbol& s = symbol(*r.tok);
  const std::string space = "." + std::string(in.space == Space::Param    ? "param"
                                              : in.space == Space::Shared ? "shared"
                                              : in.space == Space::Global ? "global"
                                                                          : "generic");
  if (s.kind == Symbol::Kind::Param) {
    if (in.space != Space::Param)
      fail(r.tok->loc, "parameter " + quoted(r.tok->text) + " is read with ld.param, not " + space);
    in.addr = {.kind = Operand::Kind::Param, .symbol = s.index};
  } else if (s.kind == Symbol::Kind::Shared) {
    if (in.space != Space::Shared)
      fail(r.tok->loc,
           ".shared variable " + quoted(r.tok->text) + " is addressed with .shared, not " + space);
    in.addr = {.kind = Operand::Kind::Shared, .symbol = s.index};
  } else {
    if (in.space == Space::Param) fail(r.tok->loc, "ld.param reads a parameter by its name");
    const Type t = prog_.regs[s.index].type;
    if (bits(t) != 64 && !(in.space == Space::Shared && bits(t) == 32))
      fail(r.tok->loc,
           "expected a 64-bit address register" +
               std::string(in.space == Space::Shared ? " (or 32-bit for .shared)" : "") +
               ", found " + quoted(r.tok->text) + " of type " + std::string(type_name(t)));
    in.addr = {.kind = Operand::Kind::Reg, .reg = s.index};
  }
}

// ---------------------------------------------------------------- instruction families

// add sub mul mad div rem min max neg abs and or xor not shl shr bfe bfi over integer types (and
// .pred for the logical ones). `.wide` doubles the destination (and mad's addend).
void EntryReader::read_arith(Instruction& in, const Opcode& op,
                             const std::vector<RawOperand>& ops) {
  static constexpr std::pair<std::string_view, Op> kOps[] = {
      {"add", Op::Add}, {"sub", Op::Sub}, {"mul", Op::Mul}, {"mad", Op::Mad}, {"div", Op::Div},
      {"rem", Op::Rem}, {"min", Op::Min}, {"max", Op::Max}, {"neg", Op::Neg}, {"abs", Op::Abs},
      {"and", Op::And}, {"or", Op::Or},   {"xor", Op::Xor}, {"not", Op::Not}, {"shl", Op::Shl},
      {"shr", Op::Shr}, {"bfe", Op::Bfe}, {"bfi", Op::Bfi}};
  for (auto [name, o] : kOps)
    if (name == op.head) in.op = o;
  const bool has_mode = in.op == Op::Mul || in.op == Op::Mad;
  if (has_mode) {
    if (op.quals.empty()) op.unsupported("a qualifier is missing");
    const auto m = op.quals[0];
    if (m != "lo" && m != "hi" && m != "wide")
      op.unsupported("expected .lo, .hi or .wide after " + std::string(op.head));
    in.mul = m == "lo" ? MulMode::Lo : m == "hi" ? MulMode::Hi : MulMode::Wide;
  }
  const std::size_t type_at = has_mode ? 1 : 0;
  if (op.quals.size() > type_at + 1)
    op.unsupported(quoted("." + std::string(op.quals[type_at])) + " is not supported");
  if (op.quals.size() <= type_at) op.unsupported("a type is missing");
  const bool logical = in.op == Op::And || in.op == Op::Or || in.op == Op::Xor || in.op == Op::Not;
  in.type = in.src_type = op.type(op.quals[type_at], logical);
  const bool wide = has_mode && in.mul == MulMode::Wide;
  if (wide && bits(in.type) != 16 && bits(in.type) != 32)
    op.unsupported(".wide needs a 16- or 32-bit type");
  const Type wide_type = wide ? (bits(in.type) == 16 ? Type::B32 : Type::B64) : in.type;
  const bool unary = in.op == Op::Neg || in.op == Op::Abs || in.op == Op::Not;
  const std::size_t sources = unary                                  ? 1
                              : in.op == Op::Mad || in.op == Op::Bfe ? 3
                              : in.op == Op::Bfi                     ? 4
                                                                     : 2;
  expect_count(op, ops, 1 + sources);
  in.dst.push_back(reg_operand(ops[0], wide_type));
  for (std::size_t i = 1; i <= sources; ++i) {
    // A shift amount, and bfe's and bfi's bit position and length, are 32-bit.
    const bool u32 = ((in.op == Op::Shl || in.op == Op::Shr) && i == 2) ||
                     (in.op == Op::Bfe && i >= 2) || (in.op == Op::Bfi && i >= 3);
    in.src.push_back(value(ops[i], u32 ? Type::U32 : i == 3 && has_mode ? wide_type : in.type));
  }
}

// mov.type d, a: a register, an immediate, a special register (32-bit) or a .shared variable's
// address (32- or 64-bit).
void EntryReader::read_mov(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  in.op = Op::Mov;
  op.expect_quals(1);
  in.type = op.type(op.quals[0], true);
  expect_count(op, ops, 2);
  in.dst.push_back(reg_operand(ops[0], in.type));
  const RawOperand& a = ops[1];
  if (a.kind == RawOperand::Kind::Name && !a.negate && !a.second) {
    if (const auto sp = parse_special(a.tok->text)) {
      if (bits(in.type) != 32) fail(a.loc, "special registers are read with a 32-bit mov");
      in.src.push_back({.kind = Operand::Kind::Special, .special = *sp});
      return;
    }
    const Symbol& s = symbol(*a.tok);
    if (s.kind == Symbol::Kind::Shared) {
      if (bits(in.type) != 32 && bits(in.type) != 64)
        fail(a.loc, "a .shared variable's address is moved with a 32- or 64-bit mov");
      in.src.push_back({.kind = Operand::Kind::Shared, .symbol = s.index});
      return;
    }
  }
  in.src.push_back(value(a, in.type));
}

std::optional<Space> space_of(std::string_view q) {
  if (q == "param") return Space::Param;
  if (q == "global") return Space::Global;
  if (q == "shared" || q == "shared::cta") return Space::Shared;
  return std::nullopt;
}

// ld/st[.space][.nc|.volatile].type: the space picks Instruction::space; other qualifiers
// (orderings, scopes, cache hints, vectors) are named and rejected.
void EntryReader::read_memory(Instruction& in, const Opcode& op,
                              const std::vector<RawOperand>& ops) {
  const bool load = op.head == "ld";
  in.op = load ? Op::Ld : Op::St;
  bool has_space = false;
  for (std::size_t i = 0; i + 1 < op.quals.size(); ++i) {
    const auto q = op.quals[i];
    if (q == "nc") continue;  // the model has no caches for it to bypass
    if (q == "volatile") {
      in.strong = true;  // the memory model counts it as a relaxed system-scope access
      continue;
    }
    if (q == "local" || q == "const")
      op.unsupported("the ." + std::string(q) + " state space is not supported");
    const auto s = space_of(q);
    if (!s || has_space) op.unsupported(quoted("." + std::string(q)) + " is not supported");
    in.space = *s;
    has_space = true;
  }
  if (op.quals.empty()) op.unsupported("a type is missing");
  in.type = op.type(op.quals.back());
  if (!load && in.space == Space::Param)
    op.unsupported("st.param belongs to function calls, which are not supported");
  expect_count(op, ops, 2);
  if (load) {
    in.dst.push_back(reg_operand(ops[0], in.type, Fit::AtLeast));
    read_address(in, ops[1]);
  } else {
    read_address(in, ops[0]);
    in.src.push_back(value(ops[1], in.type, Fit::AtLeast));
  }
}

// cvta.to.SPACE.type (generic to SPACE) and cvta.SPACE.type (SPACE to generic), SPACE global or
// shared.
void EntryReader::read_cvta(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  in.op = Op::Cvta;
  in.to_generic = op.quals.empty() || op.quals[0] != "to";
  const std::size_t i = in.to_generic ? 0 : 1;
  op.expect_quals(i + 2);
  const auto s = op.quals[i];
  if (s != "global" && s != "shared")
    op.unsupported("the ." + spec::shown_text(s) + " state space is not supported");
  in.space = s == "global" ? Space::Global : Space::Shared;
  in.type = op.type(op.quals[i + 1]);
  if (bits(in.type) != 32 && bits(in.type) != 64) op.unsupported("cvta takes .u32 or .u64");
  expect_count(op, ops, 2);
  in.dst.push_back(reg_operand(ops[0], in.type));
  const RawOperand& a = ops[1];
  if (in.to_generic && in.space == Space::Shared && a.kind == RawOperand::Kind::Name) {
    if (const Symbol* sym = scopes_.find(a.tok->text); sym && sym->kind == Symbol::Kind::Shared) {
      in.src.push_back({.kind = Operand::Kind::Shared, .symbol = sym->index});
      return;
    }
  }
  in.src.push_back(reg_operand(a, in.type));
}

// cvt.dtype.stype between integer types; rounding, saturation and float types are rejected.
void EntryReader::read_cvt(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  in.op = Op::Cvt;
  for (auto q : op.quals)
    if (!parse_type(q) && !is_float_type(q))
      op.unsupported("rounding and saturation (" + quoted("." + std::string(q)) +
                     ") are not supported");
  op.expect_quals(2);
  in.type = op.type(op.quals[0]);
  in.src_type = op.type(op.quals[1]);
  expect_count(op, ops, 2);
  in.dst.push_back(reg_operand(ops[0], in.type, Fit::AtLeast));
  in.src.push_back(value(ops[1], in.src_type, Fit::AtLeast));
}

// setp.cmp.type p[|q], a, b. The .b types compare for equality only, as in PTX.
void EntryReader::read_setp(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  static constexpr std::pair<std::string_view, Cmp> kCmps[] = {
      {"eq", Cmp::Eq}, {"ne", Cmp::Ne}, {"lt", Cmp::Lt}, {"le", Cmp::Le}, {"gt", Cmp::Gt},
      {"ge", Cmp::Ge}, {"lo", Cmp::Lo}, {"ls", Cmp::Ls}, {"hi", Cmp::Hi}, {"hs", Cmp::Hs}};
  in.op = Op::Setp;
  if (op.quals.size() == 3 && (op.quals[1] == "and" || op.quals[1] == "or" || op.quals[1] == "xor"))
    op.unsupported("combining with a third predicate (." + std::string(op.quals[1]) +
                   ") is not supported");
  op.expect_quals(2);
  const auto* cmp = std::find_if(std::begin(kCmps), std::end(kCmps),
                                 [&](const auto& c) { return c.first == op.quals[0]; });
  if (cmp == std::end(kCmps))
    op.unsupported("unknown comparison " + quoted("." + std::string(op.quals[0])));
  in.cmp = cmp->second;
  in.type = Type::Pred;
  in.src_type = op.type(op.quals[1]);
  const bool bit_type = in.src_type == Type::B16 || in.src_type == Type::B32 ||
                        in.src_type == Type::B64 || in.src_type == Type::B8;
  if (bit_type && in.cmp != Cmp::Eq && in.cmp != Cmp::Ne)
    op.unsupported("the ." + std::string(op.quals[1]) + " types compare with .eq and .ne only");
  expect_count(op, ops, 3);
  RawOperand p = ops[0];
  p.second = nullptr;
  in.dst.push_back(reg_operand(p, Type::Pred));
  if (ops[0].second)
    in.dst.push_back({.kind = Operand::Kind::Reg, .reg = reg(*ops[0].second, Type::Pred)});
  in.src.push_back(value(ops[1], in.src_type));
  in.src.push_back(value(ops[2], in.src_type));
}

// selp.type d, a, b, p: a when p, else b.
void EntryReader::read_selp(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  in.op = Op::Selp;
  op.expect_quals(1);
  in.type = in.src_type = op.type(op.quals[0]);
  expect_count(op, ops, 4);
  in.dst.push_back(reg_operand(ops[0], in.type));
  in.src.push_back(value(ops[1], in.type));
  in.src.push_back(value(ops[2], in.type));
  in.src.push_back(reg_operand(ops[3], Type::Pred));
}

void EntryReader::read_bra(Instruction& in, const Opcode& op, const std::vector<RawOperand>& ops) {
  in.op = Op::Bra;
  in.uniform = read_uni(op);
  expect_count(op, ops, 1);
  if (ops[0].kind != RawOperand::Kind::Name || ops[0].negate || ops[0].second)
    fail(ops[0].loc, "expected a label after bra");
  branches_.emplace_back(static_cast<uint32_t>(prog_.code.size()), ops[0].tok);
}

void EntryReader::resolve_labels() {
  for (auto [at, label] : branches_) {
    const auto it = labels_.find(label->text);
    if (it == labels_.end()) fail(label->loc, "unknown label " + quoted(label->text));
    prog_.code[at].target = it->second;
  }
}

// What a collective's operand register must be, from the catalog's operand and result types.
Type want_of(spec::OperandType t) {
  return t == spec::OperandType::Pred  ? Type::Pred
         : t == spec::OperandType::B64 ? Type::B64
                                       : Type::B32;
}
Type want_of(spec::ResultType t) {
  return t == spec::ResultType::Pred ? Type::Pred : Type::B32;
}

// The catalog's parser reads the instruction (from its opcode to its ';'); its register names
// become register indices here.
void EntryReader::read_collective(Instruction& in, const Opcode& op,
                                  const std::vector<RawOperand>& ops, std::size_t semicolon) {
  in.op = Op::Collective;
  const std::size_t begin = op.tok->offset;
  const Rewritten text = rewrite_negatives(text_.substr(begin, semicolon + 1 - begin), begin, ops);
  auto parsed = spec::parse_instruction(text.text);
  if (const auto* e = std::get_if<spec::ParseError>(&parsed))
    fail(lines_.at(begin + text.column(e->column) - 1), e->message);
  Collective c;
  c.parsed = std::get<spec::ParsedInstr>(std::move(parsed));
  const spec::FormInfo& f = spec::form_info(c.parsed.instr.form);
  c.d = collective_reg(c.parsed.d_register, want_of(f.d_type), ops, in.loc);
  c.p = collective_reg(c.parsed.p_register, Type::Pred, ops, in.loc);
  c.a = collective_reg(c.parsed.a_register, want_of(f.a_type), ops, in.loc);
  c.mask = collective_reg(c.parsed.mask_register, Type::B32, ops, in.loc);
  c.b = collective_reg(c.parsed.b_register, Type::B32, ops, in.loc);
  c.c = collective_reg(c.parsed.c_register, Type::B32, ops, in.loc);
  c.bar = collective_reg(c.parsed.bar_register, Type::B32, ops, in.loc);
  c.count = collective_reg(c.parsed.count_register, Type::B32, ops, in.loc);
  in.collective = std::move(c);
}

std::optional<uint32_t> EntryReader::collective_reg(const std::string& name, Type want,
                                                    const std::vector<RawOperand>& ops,
                                                    SourceLoc at) const {
  if (name.empty() || name == "_") return std::nullopt;
  for (const auto& o : ops) {
    if (o.kind != RawOperand::Kind::Name) continue;
    if (o.tok->text == name) return reg(*o.tok, want);
    if (o.second && o.second->text == name) return reg(*o.second, want);
  }
  fail(at, "operand " + quoted(name) + " is not among the instruction's operands");
}

// ---------------------------------------------------------------- the module

struct EntrySite {
  std::string_view name;
  SourceLoc loc;      // of `.entry`
  std::size_t token;  // the name's token
};

// Module-level statements: directives, `.shared` variables, and where each `.entry` is. Bodies
// are skipped here; only the chosen entry's is read.
class ModuleReader {
 public:
  ModuleReader(std::string_view text, const LineTable& lines, const std::vector<Token>& toks)
      : text_(text), lines_(lines), c_(toks) {}

  void scan();
  const EntrySite& choose(std::string_view entry) const;
  Program read(const EntrySite& site);

 private:
  void read_linkage(const Token& first);
  void skip_definition(const Token& start);

  std::string_view text_;
  const LineTable& lines_;
  Cursor c_;
  std::string version_, target_;
  std::vector<SharedVar> shared_;
  std::vector<EntrySite> entries_;
  std::map<uint32_t, std::string> files_;
};

void ModuleReader::scan() {
  while (c_.peek().kind != Tok::End) {
    const Token& d = c_.next();
    if (d.is_word(".version")) {
      version_ = std::string(c_.expect(Tok::Number, "a version after .version").text);
    } else if (d.is_word(".target")) {
      target_ = std::string(c_.expect(Tok::Word, "a target after .target").text);
      while (c_.eat(',')) c_.expect(Tok::Word, "a target option");
    } else if (d.is_word(".address_size")) {
      const Token& n = c_.expect(Tok::Number, "64 after .address_size");
      if (n.text != "64") fail(n.loc, "only .address_size 64 is supported");
    } else if (d.is_word(".pragma")) {
      c_.expect(Tok::String, "a string after .pragma");
      c_.expect(';', "after .pragma");
    } else if (d.is_word(".file")) {  // `.file N "path"[, time, size]`: the files `.loc` names
      const Token& n = c_.expect(Tok::Number, "a file number after .file");
      const Token& path = c_.expect(Tok::String, "a file name after the .file number");
      files_[static_cast<uint32_t>(parse_magnitude(n))] =
          std::string(path.text.substr(1, path.text.size() - 2));
      c_.skip_line();
    } else if (d.is_word(".section")) {
      skip_definition(d);
    } else {
      read_linkage(d);
    }
  }
}

// `[.visible|.weak|.extern|.common] (.entry|.func|.shared|...)`.
void ModuleReader::read_linkage(const Token& first) {
  const Token* d = &first;
  bool is_extern = false;
  while (d->is_word(".visible") || d->is_word(".weak") || d->is_word(".extern") ||
         d->is_word(".common")) {
    is_extern = is_extern || d->is_word(".extern");
    d = &c_.next();
  }
  if (d->is_word(".entry")) {
    const Token& name = c_.peek();
    for (const auto& e : entries_)
      if (e.name == name.text)  // ptxas refuses a second definition too
        fail(name.loc, "a second .entry named " + quoted(name.text) + " (the first is at line " +
                           std::to_string(e.loc.line) + ")");
    entries_.push_back({name.text, d->loc, c_.pos()});
    skip_definition(*d);
  } else if (d->is_word(".func")) {
    skip_definition(*d);  // reachable only through `call`, which the entry may not use
  } else if (d->is_word(".shared")) {
    if (is_extern) fail(d->loc, "dynamic shared memory (.extern .shared) is not supported");
    const uint32_t end = shared_.empty() ? 0 : shared_.back().offset + shared_.back().size;
    shared_.push_back(read_shared_var(c_, *d, end));
  } else if (d->is_word(".global") || d->is_word(".const") || d->is_word(".local") ||
             d->is_word(".tex") || d->is_word(".surfref") || d->is_word(".texref")) {
    fail(d->loc, "module variables (" + std::string(d->text) + ") are not supported");
  } else {
    fail(d->loc, "unexpected " + describe(*d) + " at module level");
  }
}

// Skips a header up to its ';' or over its balanced `{...}` body.
void ModuleReader::skip_definition(const Token& start) {
  int depth = 0;
  while (true) {
    const Token& t = c_.next();
    if (t.kind == Tok::End) fail(start.loc, "the " + std::string(start.text) + " is not closed");
    if (t.is(';') && depth == 0) return;
    if (t.is('{')) ++depth;
    if (t.is('}') && --depth == 0) return;
  }
}

const EntrySite& ModuleReader::choose(std::string_view entry) const {
  std::string names;
  for (const auto& e : entries_) names += (names.empty() ? "" : ", ") + spec::shown_text(e.name);
  if (entry.empty()) {
    if (entries_.empty()) throw Failure{{1, 1}, "the module has no .entry", true};
    if (entries_.size() > 1)
      fail(entries_[1].loc, "the module has " + std::to_string(entries_.size()) + " entries (" +
                                names + "); name the one to read");
    return entries_.front();
  }
  for (const auto& e : entries_)
    if (e.name == entry) return e;
  throw Failure{{1, 1},
                "no .entry named " + quoted(entry) +
                    (names.empty() ? "; the module has none" : "; the module has " + names),
                true};
}

Program ModuleReader::read(const EntrySite& site) {
  Program p;
  p.version = version_;
  p.target = target_;
  p.loc = site.loc;
  p.files = files_;
  c_.seek(site.token);
  EntryReader(text_, lines_, c_, p).read(shared_);
  return p;
}

}  // namespace

std::variant<Program, ReadError> read_ptx(std::string_view text, std::string_view entry) {
  try {
    const LineTable lines(text);
    const std::string blanked = blank_comments(text, lines);
    const std::vector<Token> tokens = lex(blanked, lines);
    ModuleReader module(blanked, lines, tokens);
    module.scan();
    return module.read(module.choose(entry));
  } catch (const Failure& f) {
    return ReadError{f.loc, f.message, f.no_entry};
  }
}

}  // namespace warpspec::programs
