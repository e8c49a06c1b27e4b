#include "programs/launch.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "model/json_file.hpp"
#include "model/state_io.hpp"
#include "spec/instr_parse.hpp"
#include "spec/target.hpp"

namespace warpspec::programs {
namespace {

constexpr std::size_t kMaxWords = 1u << 20;

std::optional<uint64_t> number(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return negative ? 0 - v : v;
}

// A command-line parameter refused (a usage error).
[[noreturn]] void fail(const std::string& where, const std::string& msg) {
  throw model::InputError(where + ": " + msg, false);
}

uint64_t json_number(const nlohmann::json& j, const model::JsonFile& f, const std::string& at) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer()) return static_cast<uint64_t>(j.get<int64_t>());
  f.fail(at, std::string("expected an integer, found ") + j.type_name());
}

// A scalar or a buffer word: an integer, or a string in any spelling `-p` takes ("0x40", "-1").
uint64_t json_value(const nlohmann::json& j, const model::JsonFile& f, const std::string& at) {
  if (!j.is_string()) return json_number(j, f, at);
  const auto n = number(j.get_ref<const std::string&>());
  if (!n)
    f.fail(at, "\"" + spec::shown_text(j.get<std::string>()) +
                   "\" is not a number (decimal, 0x hex, a leading - for two's complement)");
  return *n;
}

ParamValue param_from_json(const nlohmann::json& j, const model::JsonFile& f,
                           const std::string& at) {
  if (!j.is_object() || j.size() != 1)
    f.fail(at, "expected one of {\"value\": N}, {\"words\": [...]}, {\"zeros\": N}");
  ParamValue v;
  const std::string key = j.begin().key();
  const auto& val = j.begin().value();
  if (key == "value") {
    v.value = json_value(val, f, at + ".value");
  } else if (key == "words") {
    if (!val.is_array()) f.fail(at + ".words", "expected an array of 32-bit words");
    if (val.size() > kMaxWords) f.fail(at + ".words", "at most 1048576 words");
    v.is_buffer = true;
    for (std::size_t i = 0; i < val.size(); ++i) {
      const std::string word = at + ".words[" + std::to_string(i) + "]";
      const auto w = json_value(val[i], f, word);
      if (w > 0xffffffffu) f.fail(word, "does not fit in 32 bits");
      v.words.push_back(static_cast<uint32_t>(w));
    }
  } else if (key == "zeros") {
    const auto n = json_number(val, f, at + ".zeros");
    if (!val.is_number_unsigned()) f.fail(at + ".zeros", "expected a count of words, 0 or more");
    if (n > kMaxWords) f.fail(at + ".zeros", "at most 1048576 words");
    v.is_buffer = true;
    v.words.assign(n, 0);
  } else {
    f.fail(at, "unknown parameter kind \"" + spec::shown_text(key) +
                   "\" (expected value, words or zeros)");
  }
  return v;
}

}  // namespace

ParamValue param_from_text(std::string_view text, const std::string& what) {
  ParamValue v;
  auto words = [&](std::string_view list) {
    while (true) {
      const auto comma = list.find(',');
      const auto item = list.substr(0, comma);
      const auto w = number(item);
      if (!w || *w > 0xffffffffu)
        fail(what, "'" + std::string(item) + "' is not a 32-bit word (decimal or 0x hex)");
      v.words.push_back(static_cast<uint32_t>(*w));
      if (v.words.size() > kMaxWords) fail(what, "at most 1048576 words");
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  };
  if (text.starts_with("zeros:")) {
    const auto n = number(text.substr(6));
    if (!n || *n > kMaxWords)
      fail(what, "'" + std::string(text.substr(6)) + "' is not a number of words up to 1048576");
    v.is_buffer = true;
    v.words.assign(*n, 0);
  } else if (text.starts_with("words:")) {
    v.is_buffer = true;
    words(text.substr(6));
  } else {
    const auto n = number(text);
    if (!n) fail(what, "'" + std::string(text) + "' is not a number, words:W,W,... or zeros:N");
    v.value = *n;
  }
  return v;
}

LaunchSpec launch_from_json(const model::JsonFile& f, const nlohmann::json& j,
                            const std::string& at, const std::vector<std::string_view>& also) {
  const auto in = [&at](const std::string& name) { return model::json_member_path(at, name); };
  if (!j.is_object()) f.fail(at, "expected an object with \"threads\" and \"params\"");
  std::vector<std::string_view> names{"threads", "params", "target", "unknown", "entry"};
  names.insert(names.end(), also.begin(), also.end());
  f.only_members(j, at, names);
  LaunchSpec s;
  if (!j.contains("threads")) f.fail(at, "\"threads\" is missing");
  const auto n = json_number(j["threads"], f, in("threads"));
  if (n < 1 || n > 1024) f.fail(in("threads"), "a block has 1 to 1024 threads");
  s.launch.threads = static_cast<unsigned>(n);
  if (j.contains("params")) {
    if (!j["params"].is_array()) f.fail(in("params"), "expected an array");
    for (std::size_t k = 0; k < j["params"].size(); ++k)
      s.launch.params.push_back(
          param_from_json(j["params"][k], f, in("params[" + std::to_string(k) + "]")));
  }
  if (j.contains("target")) {
    const auto t =
        j["target"].is_string() ? spec::parse_target(j["target"].get<std::string>()) : std::nullopt;
    if (!t) f.fail(in("target"), "expected a target such as \"sm_90\"");
    s.launch.target = *t;
  }
  if (j.contains("unknown")) {
    if (!j["unknown"].is_array()) f.fail(in("unknown"), "expected an array of parameters");
    for (std::size_t k = 0; k < j["unknown"].size(); ++k) {
      const auto& u = j["unknown"][k];
      if (u.is_string())
        s.unknown.push_back(u.get<std::string>());
      else if (u.is_number_unsigned() && u.get<uint64_t>() >= 1)
        s.unknown.push_back(std::to_string(u.get<uint64_t>()));
      else
        f.fail(in("unknown[" + std::to_string(k) + "]"),
               "expected a parameter's name or its position from 1");
    }
  }
  if (j.contains("entry")) {
    if (!j["entry"].is_string()) f.fail(in("entry"), "expected the entry's name");
    s.entry = j["entry"].get<std::string>();
  }
  return s;
}

}  // namespace warpspec::programs
