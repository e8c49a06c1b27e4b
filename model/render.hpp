#pragma once
// Showing states and results: lane tables for people, JSON for programs (docs/json-schema.md).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/eval.hpp"
#include "spec/instr_parse.hpp"

namespace warpspec::model {

/// "0-1,5,7-31" for a set of lanes; "none" when empty.
std::string format_lanes(uint32_t lanes);
/// Same for a list of thread indices (sorted, unique).
std::string format_threads(const std::vector<unsigned>& threads);
/// A source operand as written for its syntax (hex bits; floats also as a number).
std::string format_operand(uint64_t bits, const spec::ValueSyntax& syn);
/// A destination value for a form's result type.
std::string format_result(uint32_t bits, spec::ResultType t);
/// `v` as 0x-prefixed hex with `bits / 4` digits ("0x0000000f" for 32 bits).
std::string format_hex(uint64_t v, unsigned bits);
/// The one table renderer: a header row, then `rows` under it, each prefixed by its number (its
/// index, or `numbers[i]` when given) in a first column named `first_name`; with `compact`,
/// rows with consecutive numbers that are equal but for them are merged ("2-31").
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, const std::string& first_name,
                  bool compact = true, const std::vector<unsigned>& numbers = {});
/// The value syntax a bare form implies (no intrinsic).
spec::ValueSyntax form_syntax(spec::FormId form);

/// True when the lanes reach the instruction from more than one call site: a lane table then
/// shows each lane's site, since it decides which lanes run together.
bool sites_differ(const Warp& w);

/// A lane table (lane, status, mask, a, site when used, d, p, defined). With `compact`, runs of
/// lanes whose rows are equal but for the lane number are merged ("2-31").
std::string lane_table(const spec::Instr& in, const spec::ValueSyntax& syn, const Warp& w,
                       const WarpResult* r, bool compact = true);
/// Same, deriving the value syntax from the form.
std::string lane_table(const spec::Instr& in, const Warp& w, const WarpResult* r = nullptr,
                       bool compact = true);
/// The operand columns of a block state's thread table, as every thread table shows them: the
/// barrier number (`bar`) and thread count (`count`) where an instruction reads them from
/// registers, and the partner instruction (`via`) where a thread executes one.
struct CtaOperandColumns {
  bool bar = false, count = false, via = false;
  spec::FormId form{};  ///< the instruction whose partner `via` names
  /// The columns a table of `c` under the instructions `ins` (at least one) needs.
  CtaOperandColumns(const Cta& c, const std::vector<spec::Instr>& ins);
  /// Appends the column names to `head`, and thread t's cells to `row`.
  void add_head(std::vector<std::string>& head) const;
  void add_cells(const Cta& c, std::size_t t, std::vector<std::string>& row) const;
};
/// A thread table for a block barrier.
std::string cta_table(const spec::Instr& in, const Cta& c, const CtaResult* r, bool compact = true);
/// The UB findings and the availability verdict, one line each.
std::string findings_text(const WarpResult& r);
/// Same for a block barrier.
std::string findings_text(const CtaResult& r);

/// The JSON document of an evaluation ("warpspec-eval/1").
nlohmann::json result_json(const spec::ParsedInstr& p, const Warp& w, const WarpResult& r,
                           spec::Target target, spec::PtxVersion ptx);
/// Same for a block barrier.
nlohmann::json result_json(const spec::ParsedInstr& p, const Cta& c, const CtaResult& r,
                           spec::Target target, spec::PtxVersion ptx);

}  // namespace warpspec::model
