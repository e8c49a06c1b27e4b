#pragma once
// Replays captured hardware behaviour against an evaluator (the model, or an implementation with
// the same signature): every lane whose result the spec defines must agree exactly; lanes the
// spec leaves undefined are not failures but observations of what the hardware did.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "capture/format.hpp"
#include "vectors/vector.hpp"

namespace warpspec::capture {

/// Evaluates a warp form; model::evaluate has this shape.
using WarpEvaluator = std::function<model::WarpResult(const spec::Instr&, const model::Warp&,
                                                      spec::Target, spec::PtxVersion)>;
/// Evaluates a block-wide barrier; model::evaluate_cta has this shape.
using CtaEvaluator = std::function<model::CtaResult(const spec::Instr&, const model::Cta&,
                                                    spec::Target, spec::PtxVersion)>;

/// Counts for one group of states (a form, or a generator tag).
struct Tally {
  std::size_t states = 0;       ///< records replayed
  std::size_t lanes = 0;        ///< executing lanes (threads) with a defined result: compared
  std::size_t agreed = 0;       ///< compared and equal
  std::size_t mismatched = 0;   ///< compared and different
  std::size_t undefined = 0;    ///< executing lanes the spec leaves undefined: observed only
                                ///< (with, in a state that trapped because some lane has UB,
                                ///< the other lanes the trap took with it)
  std::size_t unavailable = 0;  ///< records of a form the model says the target does not have
  std::size_t beside_ub = 0;    ///< of `mismatched`: lanes of a state where UB fires on another
                                ///< lane (the model calls them defined; the hardware disagrees)
  std::size_t d_open = 0;  ///< executing lanes without UB whose d the spec leaves open (a shuffle
                           ///< reading a lane that does not take part): d observed only, p still
                           ///< compared (and counted in `lanes`) where the record has it
  /// Adds another tally to this one.
  Tally& operator+=(const Tally& o);
};

/// One lane (or thread) of a replayed state.
struct LaneRow {
  unsigned lane = 0;
  model::LaneStatus status = model::LaneStatus::Executes;
  uint32_t mask = 0;
  uint64_t a = 0;
  uint32_t site = 0;
  std::optional<uint32_t> b, c;  ///< shuffles' operands
  std::optional<uint32_t> obs_d, model_d;
  std::optional<bool> obs_p, model_p;
  bool defined = false;
  bool d_open = false;  ///< defined, but the spec leaves d open: only p is compared
  bool mismatch = false;
  std::vector<spec::ClauseId> ub;  ///< UB clauses that fire on this lane
  // Block barriers
  bool partner = false;                ///< arrives through the partner form
  std::optional<uint32_t> bar, count;  ///< the thread's a and b, where they are registers
  std::optional<bool> obs_ran;         ///< came back from its barrier (arriving threads)
};

/// A replayed state worth showing (a mismatch, or an undefined lane), with its lane table.
struct StateReport {
  std::string file;
  std::size_t line = 0;
  std::string form;
  std::string invocation;
  std::string tag;
  std::string fault;  ///< the launch failed with this error instead of returning results
  bool cta = false;
  std::vector<LaneRow> lanes;  ///< all 32 lanes; for a block, the threads worth showing
  std::size_t mismatches = 0;
  std::vector<spec::ClauseId> clauses;  ///< the clauses the comparison rests on
};

/// A way of reading an undefined lane's result, checked against what the hardware returned.
enum class Reading : uint8_t {
  AsWritten,      ///< the spec's formula over the membermask as given
  SelfAdded,      ///< the formula as if the lane's own bit were in its membermask
  SelfOnly,       ///< the formula as if the membermask held only the lane itself
  JoinsGroup,     ///< the lane joins the one group of other executing lanes: all of them evaluate
                  ///< as if every one had passed that group's mask plus the lane's own bit
  AbsentLeftOut,  ///< the formula with every lane that does not execute the instruction taken
                  ///< out of every membermask (elect.sync names exited lanes only under UB)
  Zero,           ///< d = 0 (and p false)
  Count_
};
/// Short name of a reading ("as-written", "self-added", "self-only", "joins-group",
/// "absent-left-out", "zero").
std::string_view reading_name(Reading r);
/// One-line description of a reading.
std::string_view reading_text(Reading r);

/// What the hardware did on undefined lanes of one form under one generator tag.
struct Observation {
  std::string form;
  std::string tag;
  std::vector<spec::ClauseId> clauses;  ///< UB clauses that made the lanes undefined
  std::size_t states = 0;
  std::size_t lanes = 0;  ///< lanes on which a UB clause fires
  std::array<std::size_t, static_cast<int>(Reading::Count_)> reproduced{};  ///< lanes per reading
  std::size_t faulted_states = 0;   ///< states whose launch failed (a trap) instead of returning
  std::size_t lost_lanes = 0;       ///< lanes the spec defines, taken down by such a trap
  std::vector<std::string> faults;  ///< the errors seen, e.g. "cudaErrorIllegalInstruction"
  std::size_t beside_lanes = 0;  ///< defined lanes of returned states that disagree with the model
  std::size_t group_states = 0;  ///< returned states where the joins-group reading applies
  std::size_t group_states_whole = 0;  ///< of those, states where it reproduces every lane
  std::size_t came_back = 0;  ///< block barriers: arriving threads that came back from their
                              ///< barrier (the others were still waiting when the launch hung)
  std::size_t stuck = 0;      ///< block barriers: arriving threads that did not come back
  std::vector<StateReport> examples;  ///< the first few states, as lane tables
};

/// Why a shuffle lane's d is left open: what the lane it reads was doing.
enum class OpenSource : uint8_t {
  Inactive,     ///< alive, elsewhere in the program
  Exited,       ///< exited before the instruction
  OutsideMask,  ///< executing it, but not named in the reader's membermask
  Count_
};
/// Short name: "inactive", "exited", "outside-mask".
std::string_view open_source_name(OpenSource s);

/// A value such a lane might have received, checked against what the hardware returned.
enum class OpenValue : uint8_t {
  Own,        ///< the reader's own a
  Source,     ///< the a the state gives the lane read (for a lane that does not execute it, the
              ///< value its register was loaded with)
  OtherLane,  ///< the a of some third lane of the state
  Zero,       ///< 0
  Count_
};
/// Short name: "own", "source", "other-lane", "zero".
std::string_view open_value_name(OpenValue v);

/// What the hardware returned in d on shuffle lanes whose d the spec leaves open, for one form
/// and one reason.
struct OpenObservation {
  std::string form;
  OpenSource source = OpenSource::Inactive;
  std::size_t states = 0;  ///< states with such a lane
  std::size_t lanes = 0;
  std::array<std::size_t, static_cast<int>(OpenValue::Count_)> matched{};  ///< lanes whose d is
                                                                           ///< that value (a lane
                                                                           ///< counts for each)
  std::array<std::size_t, static_cast<int>(OpenValue::Count_)> only{};  ///< lanes whose d is that
                                                                        ///< value and no other
  std::size_t none = 0;                    ///< lanes whose d is none of them
  std::vector<StateReport> examples;       ///< the first states, as lane tables
  std::vector<StateReport> none_examples;  ///< the first states with a lane of `none`
};

/// Which lane the hardware elected, over the elections of defined elect.sync states: the text
/// leaves the choice open, the model takes the lowest lane of the membermask.
struct LeaderObservation {
  std::string form;
  std::size_t states = 0;     ///< defined states that returned
  std::size_t elections = 0;  ///< groups of executing lanes with one membermask, two or more lanes
  std::size_t lowest = 0;     ///< of those, elections whose leader is the mask's lowest lane
  std::size_t highest = 0;    ///< ... its highest lane
  std::size_t other = 0;      ///< ... another lane of the mask, or lanes that did not agree
  std::size_t single = 0;     ///< elections of one lane (its own lane is the only choice)
};

/// Replays capture files; collect per-form tallies, the first mismatches and the observations.
class Replayer {
 public:
  /// How much detail to keep.
  struct Options {
    std::size_t max_mismatch_reports = 5;
    std::size_t max_examples = 2;  ///< example states per observation
  };
  /// Replays against `warp` and `cta`.
  Replayer(WarpEvaluator warp, CtaEvaluator cta, Options opt);
  /// Replays against the model, keeping the given detail.
  explicit Replayer(Options opt);
  /// Replays against the model.
  Replayer();
  /// Replays one file; throws MissingFile or FormatError.
  void add_file(const std::filesystem::path& path);
  /// Replays one record taken on the target the header names.
  void add_record(const Record& r, const Header& h, const std::string& file, std::size_t line);

  /// Tallies per form name, in catalog order when printed.
  const std::map<std::string, Tally>& per_form() const { return per_form_; }
  /// Tallies per generator tag.
  const std::map<std::string, Tally>& per_tag() const { return per_tag_; }
  /// The first mismatching states.
  const std::vector<StateReport>& mismatches() const { return mismatch_reports_; }
  /// Undefined-lane observations keyed by "form|tag".
  const std::map<std::string, Observation>& observations() const { return observations_; }
  /// What shuffles returned where the spec leaves d open, keyed by "form|source name".
  const std::map<std::string, OpenObservation>& open_d() const { return open_d_; }
  /// Which lanes elect.sync elected in defined states, keyed by form name.
  const std::map<std::string, LeaderObservation>& leaders() const { return leaders_; }
  /// Sum of all per-form tallies.
  Tally total() const;
  /// Devices and targets seen in the headers, e.g. "NVIDIA H100 80GB HBM3 (sm_90)".
  const std::vector<std::string>& devices() const { return devices_; }

 private:
  void add_warp(const WarpRecord& r, spec::Target t, spec::PtxVersion v, const std::string& device,
                const std::string& file, std::size_t line);
  void add_leaders(const WarpRecord& r);
  void add_cta(const CtaRecord& r, spec::Target t, spec::PtxVersion v, const std::string& file,
               std::size_t line);
  void add_open(const WarpRecord& r, const StateReport& rep, const std::vector<unsigned>& lanes);
  /// The observation of a form's tag, one state more, with the UB clauses seen in it.
  Observation& observe(const std::string& form, const std::string& tag,
                       const std::vector<spec::ClauseId>& ub_seen);
  WarpEvaluator warp_;
  CtaEvaluator cta_;
  Options opt_;
  std::map<std::string, Tally> per_form_, per_tag_;
  std::vector<StateReport> mismatch_reports_;
  std::map<std::string, Observation> observations_;
  std::map<std::string, OpenObservation> open_d_;
  std::map<std::string, LeaderObservation> leaders_;
  std::map<std::string, vectors::LeaderMemo>
      elected_;  ///< per device: the text asks one leader per
                 ///< membermask every time, on one implementation
  std::vector<std::string> devices_;
};

/// Catalog forms with no replayed state: not confirmed on the hardware these captures came from.
std::vector<spec::FormId> unconfirmed_forms(const Replayer& r);

/// The per-form tallies and their total as a text table (form, states, lanes compared, agreed,
/// mismatched, undefined-observed), each line after `indent`. capture-check and report both print
/// this one, so a column has one name wherever the corpus is summed up.
std::string summary_table(const Replayer& r, const std::string& indent = "");

/// The replay's findings as JSON ("warpspec-observed/1"): per-form tallies, what the hardware did
/// on undefined lanes (with the readings that reproduce it and example lane tables), where a
/// shuffle's d is left open, which lanes elect.sync elected, and the forms not confirmed on
/// hardware. Meant for tools that
/// explain a form's corners.
std::string observations_json(const Replayer& r);

/// A state as a text table: lane, status, mask, a, site, observed d/p, model d/p, defined, the
/// clauses involved and a marker on mismatching lanes. `executing_only` drops the other lanes.
std::string lane_table(const StateReport& s, bool executing_only);

/// Every capture file under `dir` (*.jsonl and *.jsonl.gz), sorted; `dir` itself if it is a file.
std::vector<std::filesystem::path> capture_files(const std::filesystem::path& dir);

}  // namespace warpspec::capture
