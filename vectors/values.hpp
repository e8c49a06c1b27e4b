#pragma once
// How the vector and results files write values (docs/vectors.md), read with the JSON layer:
// lane values, per-lane lists, lane sets. Shared by the two readers in format_*.cpp; not a
// public header (it brings in simdjson).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

#include "json/read.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::vectors::values {

inline bool fits(uint64_t x, int width) {
  return width >= 64 || (x >> width) == 0;
}

[[noreturn]] inline void not_a_value(const json::Value& v, int width) {
  v.expected(width == 1 ? std::string("0, 1, true or false")
                        : "a " + std::to_string(width) + "-bit value (\"0x...\" or an integer)");
}

/// The value of a string of "0x" and 1 to 16 hex digits, or of decimal digits.
inline std::optional<uint64_t> word_of(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') return json::hex_digits(s.substr(2));
  uint64_t d = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
  return d;
}

/// lane_value() for anything but the layouts warpspec writes.
[[gnu::noinline]] inline uint64_t lane_value_slow(json::Value& v, int width) {
  switch (v.kind()) {
    case json::Kind::Number:
      if (const auto x = v.as_uint()) {
        if (fits(*x, width)) return *x;
      } else if (const auto y = v.as_int(); y && (width == 64 || *y >= INT32_MIN)) {
        return width == 64 ? static_cast<uint64_t>(*y) : static_cast<uint32_t>(*y);
      }
      break;
    case json::Kind::String:
      if (const auto x = word_of(v.string()); x && fits(*x, width)) return *x;
      break;
    case json::Kind::Bool:
      return v.boolean();
    default:
      break;
  }
  not_a_value(v, width);
}

/// Decodes, where it lies, one lane value of `width` bits spelled as warpspec writes it: "0x" and
/// eight hex digits in quotes (sixteen above 32 bits), a decimal integer without a leading zero
/// (a negative one down to INT32_MIN below 64 bits, as its two's complement), true or false.
/// Returns the byte after it, or nullptr for any other text, which the general reading then words
/// (or refuses) with the same answer.
[[gnu::always_inline]] inline const char* laid_out_value(const char* q, const char* end, int width,
                                                         uint64_t& out) {
  if (*q == '"') {
    const int digits = width > 32 && end - q >= 20 && q[19] == '"' ? 16 : 8;
    uint64_t x = 0, lo = 0;
    if (end - q < digits + 4 || q[1] != '0' || (q[2] | 0x20) != 'x' || q[3 + digits] != '"' ||
        !json::hex8(q + 3, x))
      return nullptr;
    if (digits == 16) {
      if (!json::hex8(q + 11, lo)) return nullptr;
      x = x << 32 | lo;
    }
    if (!fits(x, width)) return nullptr;
    out = x;
    return q + digits + 4;
  }
  if (end - q >= 4 && std::memcmp(q, "true", 4) == 0) return out = 1, q + 4;
  if (end - q >= 5 && std::memcmp(q, "false", 5) == 0) return out = 0, q + 5;
  // A decimal integer without a leading zero, of at most 19 digits (no overflow).
  const bool negative = *q == '-';
  const char* p = q + negative;
  const char* const digits_end = std::min(end, p + 19);
  if (p == end || *p < '0' || *p > '9') return nullptr;
  uint64_t x = 0;
  const char* r = p;
  for (; r < digits_end && *r >= '0' && *r <= '9'; ++r)
    x = x * 10 + static_cast<unsigned>(*r - '0');
  if ((r < end && *r >= '0' && *r <= '9') || (*p == '0' && r - p > 1)) return nullptr;
  if (!negative) {
    if (!fits(x, width)) return nullptr;
    out = x;
  } else {
    if (width == 64 ? x > uint64_t{1} << 63 : x > uint64_t{1} << 31) return nullptr;
    const uint64_t y = uint64_t{0} - x;  // the two's complement of the width
    out = width == 64 ? y : static_cast<uint32_t>(y);
  }
  return r;
}

/// A lane value of `width` bits: a number (a negative one as the two's complement of the width,
/// down to INT32_MIN below 64 bits), a string of "0x" and hex digits or of decimal digits, or
/// true/false (1/0).
[[gnu::always_inline]] inline uint64_t lane_value(json::Value& v, int width) {
  // The layouts warpspec writes are decoded where they lie; any other spelling below.
  const auto& line = v.doc().line().text;
  const char* const end = line.data() + line.size();
  uint64_t x = 0;
  if (const char* p = v.string_start()) {
    // The string is read: the decoder sees it from its opening quote to its closing one.
    if (laid_out_value(p - 1, end, width, x)) return x;
    return lane_value_slow(v, width);
  }
  const std::string_view t = v.token();
  if (laid_out_value(t.data(), end, width, x) == t.data() + t.size()) return x;
  return lane_value_slow(v, width);
}

/// Reads in place a list laid out as warpspec writes it: `[`, elements separated by single
/// commas, `]`, no white space; each element a value laid_out_value() decodes or, when `present`
/// is given, null (no result: present[i] = 0). Exactly `n` elements, or at most `n` with
/// `present`. Returns false, having read nothing, for any other text: the general path reads it
/// then, so both paths give one answer for the lists this one takes.
template <class T>
[[gnu::always_inline]] inline bool laid_out_list(json::Value& v, std::size_t n, int width, T* out,
                                                 uint8_t* present) {
  const char* const first = v.at();
  const auto& text = v.doc().line().text;
  const char* const end = text.data() + text.size();
  const char* q = first + 1;
  std::size_t i = 0;
  if (*first != '[') return false;
  if (present && q < end && *q == ']') {
    ++q;
  } else {
    for (;; ++i) {
      if (i == n || q >= end) return false;
      uint64_t x = 0;
      if (const char* next = laid_out_value(q, end, width, x)) {
        out[i] = static_cast<T>(x);
        if (present) present[i] = 1;
        q = next;
      } else if (present && end - q >= 5 && std::memcmp(q, "null", 4) == 0) {
        q += 4;
      } else {
        return false;
      }
      if (*q == ']') break;
      if (*q != ',') return false;
      ++q;
    }
    ++i, ++q;
    if (!present && i != n) return false;
  }
  v.pass_checked_array(static_cast<std::size_t>(q - first));
  return true;
}

/// A per-lane list: one value for all `n` lanes, or an array of exactly `n`, read into `out`.
template <class T>
void lane_list(json::Value& v, std::size_t n, int width, T* out) {
  if (laid_out_list(v, n, width, out, static_cast<uint8_t*>(nullptr))) return;
  if (v.kind() != json::Kind::Array) {
    std::fill_n(out, n, static_cast<T>(lane_value(v, width)));
    return;
  }
  const std::size_t count = v.array().each([&](std::size_t i, json::Value& x) {
    if (i < n) out[i] = static_cast<T>(lane_value(x, width));
  });
  if (count != n) v.fail(std::to_string(count) + " values for " + std::to_string(n) + " lanes");
}

/// A per-lane list of results: one value for every lane, or an array of at most `n` (the lanes
/// after its end have no result); null on a lane is no result. Marks in `present` the lanes that
/// have one.
template <class T>
void result_list(json::Value& v, std::size_t n, int width, T* out, uint8_t* present) {
  if (v.null()) return;
  if (laid_out_list(v, n, width, out, present)) return;
  if (v.kind() != json::Kind::Array) {
    const auto x = static_cast<T>(lane_value(v, width));
    std::fill_n(out, n, x);
    std::fill_n(present, n, uint8_t{1});
    return;
  }
  const std::size_t count = v.array().each([&](std::size_t i, json::Value& x) {
    if (i >= n || (!x.string_start() && x.null())) return;
    out[i] = static_cast<T>(lane_value(x, width));
    present[i] = 1;
  });
  if (count > n) v.fail(std::to_string(count) + " values for " + std::to_string(n) + " lanes");
}

/// A lane set of `n` lanes: "0x" and a hex word (at most n bits), "none", or ranges such as
/// "0-3,7"; calls f(lo, hi) for each range of lanes it holds, in order.
template <class F>
void lane_set(json::Value& v, std::size_t n, F&& f) {
  if (v.kind() != json::Kind::String) v.expected("a lane set (\"0x...\", \"none\" or ranges)");
  const std::string_view t = v.string();
  if (t.size() > 2 && t[0] == '0' && (t[1] | 0x20) == 'x') {
    const auto x = json::hex_digits(t.substr(2));
    if (!x || !fits(*x, static_cast<int>(std::min<std::size_t>(n, 32))))
      v.fail("expected a " + std::to_string(n) + "-lane mask, found " +
             json::found(v.doc().line().text, v.at()));
    for (uint64_t w = *x; w; w &= w - 1) {
      const auto i = static_cast<unsigned>(__builtin_ctzll(w));
      f(i, i);
    }
    return;
  }
  if (t == "none" || t.empty()) return;
  // Ranges "lo-hi" or single lanes, separated by commas.
  const char* p = t.data();
  const char* end = p + t.size();
  auto number = [&](unsigned& x) {
    const char* b = p;
    x = 0;
    while (p < end && *p >= '0' && *p <= '9' && p - b < 5)
      x = x * 10 + static_cast<unsigned>(*p++ - '0');
    return p > b && (p == end || *p < '0' || *p > '9');
  };
  while (true) {
    const char* part = p;
    unsigned lo = 0, hi = 0;
    bool ok = number(lo);
    hi = lo;
    if (ok && p < end && *p == '-') ++p, ok = number(hi);
    if (!ok || (p < end && *p != ',') || hi < lo || hi >= n) {
      const char* stop = std::find(part, end, ',');
      v.fail("'" + spec::shown_text(std::string_view(part, stop - part)) +
             "' is not a range of lanes within 0-" +
             std::to_string(n - 1));
    }
    f(lo, hi);
    if (p == end) return;
    ++p;  // the comma
  }
}

/// A warp's lane set as a word.
inline uint32_t lane_word(json::Value& v) {
  uint64_t x = 0;
  if (const char* p = v.string_start();
      p && p[0] == '0' && (p[1] | 0x20) == 'x' && p[10] == '"' && json::hex8(p + 2, x))
    return static_cast<uint32_t>(x);  // as warpspec writes it
  uint32_t w = 0;
  lane_set(v, 32, [&](unsigned lo, unsigned hi) {
    w |= static_cast<uint32_t>((uint64_t{2} << hi) - (uint64_t{1} << lo));
  });
  return w;
}

/// An id: a non-negative integer, as a number or as a string of "0x" and hex digits or of
/// decimal digits.
inline uint64_t id(json::Value& v) {
  const auto k = v.kind();
  if (k == json::Kind::Number) {
    if (const auto x = v.as_uint()) return *x;
  } else if (k == json::Kind::String) {
    if (const auto x = word_of(v.string())) return *x;
  }
  v.expected("a non-negative integer");
}

}  // namespace warpspec::vectors::values
