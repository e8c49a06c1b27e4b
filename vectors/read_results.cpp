// Reading the results file (docs/vectors.md): one line per vector, read once in any key order.
// Members the format does not have are checked as JSON and otherwise ignored: a misspelled "d"
// is no result, never a value.
#include "vectors/format.hpp"
#include "vectors/values.hpp"

namespace warpspec::vectors {

namespace {

constexpr uint32_t bit(int k) {
  return uint32_t{1} << k;
}

enum ResultMember { kId, kSkipped, kRounds, kD, kP, kUb, kHang };
constexpr json::Names<7> kResultNames{"id", "skipped", "rounds", "d", "p", "ub", "hang"};
// The members of a round object are those of a flat line from kD on.
constexpr json::Names<4> kRoundNames{"d", "p", "ub", "hang"};

// A round with no result on any lane; with high words of d when the shape's d has 64 bits.
void blank(Observed& o, std::size_t n, const ResultShape& s) {
  o.d.assign(n, 0);
  o.p.assign(n, 0);
  o.present.assign(n, 0);
  o.ub_reported = false;
  o.hang = false;
  if (s.d_bits == 64)
    o.d_hi.assign(n, 0);
  else
    o.d_hi.clear();
}

// Rounds the line does not give: after a round that hung they did not run (they hang too);
// otherwise they have no result on any lane.
void fill_missing_rounds(ResultLine& out, std::size_t given, const ResultShape& s) {
  out.rounds.resize(std::max(given, s.widths.size()));
  bool hung = false;
  for (std::size_t k = 0; k < s.widths.size(); ++k) {
    if (k >= given) {
      blank(out.rounds[k], s.widths[k], s);
      out.rounds[k].hang = hung;
    }
    hung = hung || out.rounds[k].hang;
  }
}

}  // namespace

struct ResultReader::Impl {
  explicit Impl(std::string file) : doc(std::move(file)) {}

  // What one round said: whether d and p were given, and p's lanes.
  struct Got {
    bool d = false, p = false;
  };
  Observed& start(std::size_t k, const ResultShape& s);
  void member(int k, json::Value& m, Observed& o, const ResultShape& s, Got& got);
  void settle(Observed& o, const ResultShape& s, const Got& got);
  std::size_t rounds(json::Value& v, const ResultShape& s);

  json::Document doc;
  json::PaddedLine copy;
  ResultLine cur;
  std::vector<uint32_t> p_values;
  std::vector<uint64_t> d_wide;  // a 64-bit d as read, before it is cut into its two words
  std::vector<uint8_t> p_present;
  bool id_read = false;  // the line's id has been read (for messages)
};

ResultReader::ResultReader(std::string file) : impl_(std::make_unique<Impl>(std::move(file))) {}
ResultReader::~ResultReader() = default;

Observed& ResultReader::Impl::start(std::size_t k, const ResultShape& s) {
  if (cur.rounds.size() <= k) cur.rounds.resize(k + 1);
  blank(cur.rounds[k], s.widths[k], s);
  p_present.assign(s.widths[k], 0);
  return cur.rounds[k];
}

void ResultReader::Impl::member(int k, json::Value& m, Observed& o, const ResultShape& s,
                                Got& got) {
  const std::size_t n = o.d.size();
  switch (k) {
    case kD:
      if (s.d_bits == 64) {  // a 64-bit shuffle overload: the high word goes to d_hi
        d_wide.assign(n, 0);
        values::result_list(m, n, 64, d_wide.data(), o.present.data());
        for (std::size_t i = 0; i < n; ++i) {
          o.d[i] = static_cast<uint32_t>(d_wide[i]);
          o.d_hi[i] = static_cast<uint32_t>(d_wide[i] >> 32);
        }
      } else {
        values::result_list(m, n, 32, o.d.data(), o.present.data());
      }
      got.d = true;
      break;
    case kP:
      if (!s.p) m.refuse("this instruction writes no predicate p; give only d (docs/vectors.md)");
      p_values.assign(n, 0);
      values::result_list(m, n, 1, p_values.data(), p_present.data());
      for (std::size_t i = 0; i < n; ++i) o.p[i] = p_values[i] != 0;
      got.p = true;
      break;
    case kUb:
      o.ub_reported = m.boolean();
      break;
    case kHang:
      o.hang = m.boolean();
      break;
    default:
      m.skip();
  }
}

// Turns what a round said into per-lane presence: a lane has its result when every field the
// shape asks for has a value there.
void ResultReader::Impl::settle(Observed& o, const ResultShape& s, const Got& got) {
  const std::size_t n = o.present.size();
  if (!s.d)
    o.present.assign(n, 1);
  else if (!got.d)
    o.present.assign(n, 0);
  if (s.p)
    for (std::size_t i = 0; i < n; ++i) o.present[i] = o.present[i] && got.p && p_present[i];
}

std::size_t ResultReader::Impl::rounds(json::Value& v, const ResultShape& s) {
  const std::size_t n = v.array().each([&](std::size_t k, json::Value& r) {
    if (k >= s.widths.size()) return;  // counted, and refused below
    auto o = r.object();
    Observed& obs = start(k, s);
    Got got;
    o.members(kRoundNames,
              [&](int f, json::Value& m) { member(f < 0 ? f : f + kD, m, obs, s, got); });
    settle(obs, s, got);
  });
  if (n > s.widths.size())
    v.fail(std::to_string(n) + " rounds, but " +
           (id_read ? "vector " + std::to_string(cur.id) : std::string("the vector")) + " has " +
           std::to_string(s.widths.size()));
  return n;
}

const ResultLine& ResultReader::parse(const json::Line& line, const ResultShape& shape) {
  Impl& r = *impl_;
  auto root = r.doc.open(line);
  ResultLine& out = r.cur;
  out.skipped = false;
  r.id_read = false;
  std::size_t given = 0;
  bool nested = false;
  const char* flat_at = nullptr;  // the first of d, p, ub and hang outside "rounds"
  int flat = -1;
  Impl::Got got;
  auto beside = [](std::string_view key) {
    return "given beside \"rounds\" (\"" + std::string(key) +
           "\" belongs inside the round it is for)";
  };
  const uint32_t seen = root.members(kResultNames, [&](int k, json::Value& m) {
    switch (k) {
      case kId:
        out.id = values::id(m);
        r.id_read = true;
        break;
      case kSkipped:
        out.skipped = m.boolean();
        break;
      case kRounds:
        if (flat_at)
          r.doc.fail(flat_at, json::Path(root.path(), kResultNames[flat]),
                     beside(kResultNames[flat]));
        nested = true;
        given = r.rounds(m, shape);
        break;
      case kD:
      case kP:
      case kUb:
      case kHang:
        if (nested) m.refuse(beside(kResultNames[k]));
        if (!flat_at) {
          flat_at = m.name_at();
          flat = k;
          r.start(0, shape);
          given = 1;
        }
        r.member(k, m, out.rounds[0], shape, got);
        break;
      default:
        m.skip();
    }
  });
  root.require(kResultNames, seen, bit(kId));
  r.doc.finish();
  if (out.skipped) {
    out.rounds.clear();
    return out;
  }
  if (flat_at) r.settle(out.rounds[0], shape, got);
  if (!flat_at && !nested) {  // neither d, p nor rounds: a first round with no result at all
    r.settle(r.start(0, shape), shape, {});
    given = 1;
  }
  fill_missing_rounds(out, given, shape);
  return out;
}

const ResultLine& ResultReader::parse(std::string_view line, std::size_t line_no,
                                      const ResultShape& shape) {
  return parse(impl_->copy.set(line, line_no), shape);
}

bool ResultReader::header(const json::Line& line) {
  auto& doc = impl_->doc;
  auto root = doc.open(line);
  const json::Path at(root.path(), "schema");
  auto schema = root.find("schema", at);
  if (!schema) return false;
  if (const auto s = schema->string(); s != kResultsSchema)
    schema->fail("\"" + spec::shown_text(s) + "\" is not supported; expected \"" +
                 std::string(kResultsSchema) + "\"");
  root.reset();
  root.members(json::Names<1>{"schema"}, [](int k, json::Value& m) {
    if (k < 0) m.skip();
  });
  doc.finish();
  return true;
}

std::optional<uint64_t> ResultReader::id(const json::Line& line) {
  // Only from a line that is well-formed JSON: a syntax error is reported as itself.
  std::optional<uint64_t> id;
  try {
    auto root = impl_->doc.open(line);
    root.members(json::Names<1>{"id"}, [&](int k, json::Value& m) {
      if (k == 0)
        id = values::id(m);
      else
        m.skip();
    });
    impl_->doc.finish();
  } catch (const FormatError&) {
    return std::nullopt;
  }
  return id;
}

}  // namespace warpspec::vectors
