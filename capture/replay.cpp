#include "capture/replay.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "model/render.hpp"
#include "spec/shfl.hpp"

namespace warpspec::capture {

namespace {
constexpr unsigned kW = spec::kWarpSize;

std::vector<spec::ClauseId> semantic_clauses(spec::FormId f) {
  std::vector<spec::ClauseId> out;
  for (auto c : spec::form_info(f).clauses)
    if (spec::clause_info(c).kind == spec::ClauseKind::Semantic) out.push_back(c);
  return out;
}

// elect.sync leaves the leader open: its defined lanes are held to what the text allows through
// the comparison the conformance vectors use (vectors::compare): a lane of the membermask, the
// same on every lane of one election, p on it alone, and for a membermask the leader it elected
// in every earlier state (`memo`). Returns the lanes that depart from that.
uint32_t election_mismatches(const spec::Instr& in, const model::Warp& w,
                             const model::WarpResult& res, const WarpRecord& r,
                             vectors::LeaderMemo& memo) {
  const std::vector<vectors::Expected> e{vectors::expected_round(in, w, res)};
  std::vector<vectors::Observed> o(1);
  o[0].d.assign(r.d.begin(), r.d.end());
  o[0].p.assign(r.p.begin(), r.p.end());
  for (auto s : r.status) o[0].present.push_back(s == model::LaneStatus::Executes);
  uint32_t bad = 0;
  for (unsigned i : vectors::compare(in, e, o, &memo).lanes) bad |= 1u << i;
  return bad;
}

std::pair<spec::Target, spec::PtxVersion> target_of(const Header& h) {
  auto t = spec::parse_target(h.sm).value_or(spec::kDefaultTarget);
  auto v = h.ptx.empty() ? spec::kLatestPtx : spec::parse_ptx(h.ptx).value_or(spec::kLatestPtx);
  return {t, v};
}
}  // namespace

Tally& Tally::operator+=(const Tally& o) {
  states += o.states;
  lanes += o.lanes;
  agreed += o.agreed;
  mismatched += o.mismatched;
  undefined += o.undefined;
  unavailable += o.unavailable;
  beside_ub += o.beside_ub;
  d_open += o.d_open;
  return *this;
}

std::string_view reading_name(Reading r) {
  switch (r) {
    case Reading::AsWritten:
      return "as-written";
    case Reading::SelfAdded:
      return "self-added";
    case Reading::SelfOnly:
      return "self-only";
    case Reading::JoinsGroup:
      return "joins-group";
    case Reading::AbsentLeftOut:
      return "absent-left-out";
    case Reading::Zero:
      return "zero";
    case Reading::Count_:
      break;
  }
  return "?";
}

std::string_view reading_text(Reading r) {
  switch (r) {
    case Reading::AsWritten:
      return "the defined formula applied to the membermask as given";
    case Reading::SelfAdded:
      return "the defined formula as if the lane's own bit were in its membermask";
    case Reading::SelfOnly:
      return "the defined formula as if the membermask named only the lane itself";
    case Reading::JoinsGroup:
      return "the lane joins the one group of other executing lanes: every executing lane gets the "
             "defined formula as if all had passed that group's mask plus the lane's own bit";
    case Reading::AbsentLeftOut:
      return "the defined formula with every lane that does not execute the instruction taken out "
             "of every membermask";
    case Reading::Zero:
      return "d = 0 (and p false)";
    case Reading::Count_:
      break;
  }
  return "?";
}

std::string_view open_source_name(OpenSource s) {
  switch (s) {
    case OpenSource::Inactive:
      return "inactive";
    case OpenSource::Exited:
      return "exited";
    case OpenSource::OutsideMask:
      return "outside-mask";
    case OpenSource::Count_:
      break;
  }
  return "?";
}

std::string_view open_value_name(OpenValue v) {
  switch (v) {
    case OpenValue::Own:
      return "own";
    case OpenValue::Source:
      return "source";
    case OpenValue::OtherLane:
      return "other-lane";
    case OpenValue::Zero:
      return "zero";
    case OpenValue::Count_:
      break;
  }
  return "?";
}

Replayer::Replayer(WarpEvaluator warp, CtaEvaluator cta, Options opt)
    : warp_(std::move(warp)), cta_(std::move(cta)), opt_(opt) {}

Replayer::Replayer(Options opt)
    : Replayer([](const spec::Instr& in, const model::Warp& w, spec::Target t,
                  spec::PtxVersion v) { return model::evaluate(in, w, t, v); },
               [](const spec::Instr& in, const model::Cta& c, spec::Target t, spec::PtxVersion v) {
                 return model::evaluate_cta(in, c, t, v);
               },
               opt) {}

Replayer::Replayer() : Replayer(Options{}) {}

Tally Replayer::total() const {
  Tally t;
  for (const auto& [_, x] : per_form_) t += x;
  return t;
}

void Replayer::add_file(const std::filesystem::path& path) {
  Reader reader(path);
  const Header& h = reader.header();
  const std::string dev = h.device + " (" + h.sm + ")";
  if (std::find(devices_.begin(), devices_.end(), dev) == devices_.end()) devices_.push_back(dev);
  Record r;
  while (reader.next(r)) add_record(r, h, reader.path(), reader.line());
}

void Replayer::add_record(const Record& r, const Header& h, const std::string& file,
                          std::size_t line) {
  auto [t, v] = target_of(h);
  if (auto* w = std::get_if<WarpRecord>(&r))
    add_warp(*w, t, v, h.device + " (" + h.sm + ")", file, line);
  else
    add_cta(std::get<CtaRecord>(r), t, v, file, line);
}

void Replayer::add_warp(const WarpRecord& r, spec::Target t, spec::PtxVersion v,
                        const std::string& device, const std::string& file, std::size_t line) {
  const auto in = instr_of(r);
  const auto warp = warp_of(r);
  const auto res = warp_(in, warp, t, v);
  const std::string form(spec::form_info(r.form).name);
  Tally tally;
  tally.states = 1;
  if (!res.availability.available) tally.unavailable = 1;

  StateReport rep{file,  line, form, invocation(r),           r.tag, r.fault,
                  false, {},   0,    semantic_clauses(r.form)};
  std::vector<spec::ClauseId> ub_seen;
  std::vector<unsigned> undefined_lanes, open_lanes;
  const bool bc = spec::has_operands_bc(r.form);
  // A trapped launch returned nothing. That is within the spec only when some lane of the state
  // has UB: then every executing lane is an observation; otherwise each is a mismatch.
  const bool faulted = !r.fault.empty();
  const bool any_ub = !res.ub.empty();
  // Where the text leaves a choice, its relation decides; elsewhere the model's values.
  const bool chosen = spec::has_chosen_leader(r.form) && !faulted && !any_ub;
  const uint32_t chosen_bad = chosen ? election_mismatches(in, warp, res, r, elected_[device]) : 0;
  std::size_t lost = 0;
  for (unsigned i = 0; i < kW; ++i) {
    LaneRow row;
    row.lane = i;
    row.status = r.status[i];
    row.mask = r.mask[i];
    row.a = r.a[i];
    row.site = r.site[i];
    if (bc) row.b = r.b[i], row.c = r.c[i];
    for (const auto& f : res.ub)
      if ((f.lanes >> i) & 1u) {
        row.ub.push_back(f.clause);
        if (std::find(ub_seen.begin(), ub_seen.end(), f.clause) == ub_seen.end())
          ub_seen.push_back(f.clause);
      }
    if (r.status[i] == model::LaneStatus::Executes && faulted) {
      if (r.has_d) row.model_d = res.outcome.d[i];
      if (r.has_p) row.model_p = res.outcome.p[i];
      row.defined = res.defined(i);
      if (!any_ub) {
        row.mismatch = true;
        ++tally.lanes;
        ++tally.mismatched;
      } else {
        ++tally.undefined;
        if (row.defined)
          ++lost;
        else
          undefined_lanes.push_back(i);
      }
    } else if (r.status[i] == model::LaneStatus::Executes) {
      if (r.has_d) row.obs_d = r.d[i], row.model_d = res.outcome.d[i];
      if (r.has_p) row.obs_p = r.p[i], row.model_p = res.outcome.p[i];
      row.defined = res.defined(i);
      row.d_open = row.defined && !res.d_defined(i);
      if (row.d_open) {
        // The spec pins p alone: d is an observation.
        ++tally.d_open;
        open_lanes.push_back(i);
        if (r.has_p) {
          row.mismatch = row.obs_p != row.model_p;
          ++tally.lanes;
          ++(row.mismatch ? tally.mismatched : tally.agreed);
        }
      } else if (row.defined) {
        row.mismatch = chosen ? ((chosen_bad >> i) & 1u) != 0
                              : row.obs_d != row.model_d || row.obs_p != row.model_p;
        ++tally.lanes;
        ++(row.mismatch ? tally.mismatched : tally.agreed);
        if (row.mismatch && any_ub) ++tally.beside_ub;
      } else {
        ++tally.undefined;
        undefined_lanes.push_back(i);
      }
    }
    rep.mismatches += row.mismatch;
    rep.lanes.push_back(std::move(row));
  }
  per_form_[form] += tally;
  per_tag_[r.tag.empty() ? "-" : r.tag] += tally;
  if ((rep.mismatches || tally.unavailable) && mismatch_reports_.size() < opt_.max_mismatch_reports)
    mismatch_reports_.push_back(rep);
  if (!open_lanes.empty()) add_open(r, rep, open_lanes);
  if (chosen) add_leaders(r);
  if (undefined_lanes.empty() && lost == 0) return;

  // Undefined lanes: record which readings of the spec reproduce what the hardware returned.
  Observation& ob = observe(form, r.tag, ub_seen);
  if (faulted) {
    ++ob.faulted_states;
    ob.lost_lanes += lost;
    ob.lanes += undefined_lanes.size();
    if (std::find(ob.faults.begin(), ob.faults.end(), r.fault) == ob.faults.end())
      ob.faults.push_back(r.fault);
    undefined_lanes.clear();  // nothing came back to compare with any reading
  }
  ob.beside_lanes += tally.beside_ub;
  // Joins-group reading: when the other executing lanes form one group (one mask), evaluate as
  // if the undefined lanes had joined it.
  // UB leaves every lane of the instruction undefined; the readings below are about the lanes on
  // which a UB clause fires (the others' values follow from them).
  uint32_t ubits = 0;
  for (const auto& f : res.ub) ubits |= f.lanes;
  std::erase_if(undefined_lanes, [&](unsigned i) { return !((ubits >> i) & 1u); });
  std::optional<model::WarpResult> joined;
  if (!undefined_lanes.empty()) {
    std::vector<uint32_t> masks;
    for (unsigned i = 0; i < kW; ++i)
      if (r.status[i] == model::LaneStatus::Executes && !((ubits >> i) & 1u) &&
          std::find(masks.begin(), masks.end(), r.mask[i]) == masks.end())
        masks.push_back(r.mask[i]);
    if (masks.size() == 1) {
      model::Warp w2 = warp;
      for (unsigned i = 0; i < kW; ++i)
        if (r.status[i] == model::LaneStatus::Executes) w2.mask[i] = masks[0] | ubits;
      joined = warp_(in, w2, t, v);
      bool whole = true;
      for (unsigned i = 0; i < kW; ++i)
        if (r.status[i] == model::LaneStatus::Executes)
          whole = whole && (!r.has_d || joined->outcome.d[i] == r.d[i]) &&
                  (!r.has_p || joined->outcome.p[i] == r.p[i]);
      ++ob.group_states;
      ob.group_states_whole += whole;
    }
  }
  std::optional<model::WarpResult> present_only;
  if (!undefined_lanes.empty()) {
    uint32_t execs = 0;
    for (unsigned i = 0; i < kW; ++i)
      if (r.status[i] == model::LaneStatus::Executes) execs |= 1u << i;
    model::Warp w2 = warp;
    for (auto& m : w2.mask) m &= execs;
    present_only = warp_(in, w2, t, v);
  }
  for (unsigned i : undefined_lanes) {
    ++ob.lanes;
    auto same = [&](const model::WarpResult& m) {
      return (!r.has_d || m.outcome.d[i] == r.d[i]) && (!r.has_p || m.outcome.p[i] == r.p[i]);
    };
    auto with_mask = [&](uint32_t m) {
      model::Warp w2 = warp;
      w2.mask[i] = m;
      return warp_(in, w2, t, v);
    };
    auto& n = ob.reproduced;
    if (same(res)) ++n[int(Reading::AsWritten)];
    if (same(with_mask(r.mask[i] | (1u << i)))) ++n[int(Reading::SelfAdded)];
    if (same(with_mask(1u << i))) ++n[int(Reading::SelfOnly)];
    if (joined && same(*joined)) ++n[int(Reading::JoinsGroup)];
    if (same(*present_only)) ++n[int(Reading::AbsentLeftOut)];
    if ((!r.has_d || r.d[i] == 0) && (!r.has_p || !r.p[i])) ++n[int(Reading::Zero)];
  }
  if (ob.examples.size() < opt_.max_examples) {
    rep.clauses.insert(rep.clauses.end(), ub_seen.begin(), ub_seen.end());
    ob.examples.push_back(std::move(rep));
  }
}

Observation& Replayer::observe(const std::string& form, const std::string& tag,
                               const std::vector<spec::ClauseId>& ub_seen) {
  Observation& ob = observations_[form + "|" + tag];
  if (ob.form.empty()) ob.form = form, ob.tag = tag;
  for (auto c : ub_seen)
    if (std::find(ob.clauses.begin(), ob.clauses.end(), c) == ob.clauses.end())
      ob.clauses.push_back(c);
  ++ob.states;
  return ob;
}

void Replayer::add_leaders(const WarpRecord& r) {
  const std::string form(spec::form_info(r.form).name);
  LeaderObservation& ob = leaders_[form];
  if (ob.form.empty()) ob.form = form;
  ++ob.states;
  std::map<uint32_t, std::vector<unsigned>> elections;  // membermask -> its executing lanes
  for (unsigned i = 0; i < kW; ++i)
    if (r.status[i] == model::LaneStatus::Executes) elections[r.mask[i]].push_back(i);
  for (const auto& [mask, lanes] : elections) {
    if (std::popcount(mask) == 1) {
      ++ob.single;
      continue;
    }
    ++ob.elections;
    // The leader: the lanes' common d, or without d the one lane that reports p.
    std::optional<unsigned> leader;
    bool agree = true;
    if (r.has_d) {
      leader = r.d[lanes[0]];
      for (unsigned i : lanes) agree = agree && r.d[i] == *leader;
    } else {
      for (unsigned j : lanes)
        if (r.p[j]) agree = agree && !leader, leader = j;
      agree = agree && leader.has_value();
    }
    const unsigned lowest = static_cast<unsigned>(std::countr_zero(mask));
    const unsigned highest = 31u - static_cast<unsigned>(std::countl_zero(mask));
    if (agree && *leader == lowest)
      ++ob.lowest;
    else if (agree && *leader == highest)
      ++ob.highest;
    else
      ++ob.other;
  }
}

void Replayer::add_open(const WarpRecord& r, const StateReport& rep,
                        const std::vector<unsigned>& lanes) {
  const auto& f = spec::form_info(r.form);
  constexpr int kSources = static_cast<int>(OpenSource::Count_);
  std::array<bool, kSources> counted{}, kept{}, kept_none{};
  for (unsigned i : lanes) {
    const unsigned j = spec::shfl_source(model::Concrete{}, f.mode, i, r.b[i], r.c[i]).lane;
    const OpenSource why = r.status[j] == model::LaneStatus::Exited     ? OpenSource::Exited
                           : r.status[j] == model::LaneStatus::Inactive ? OpenSource::Inactive
                                                                        : OpenSource::OutsideMask;
    const int w = static_cast<int>(why);
    OpenObservation& ob = open_d_[std::string(f.name) + "|" + std::string(open_source_name(why))];
    if (ob.form.empty()) ob.form = f.name, ob.source = why;
    if (!counted[w]) ++ob.states, counted[w] = true;
    ++ob.lanes;
    if (!r.has_d) continue;
    const uint32_t d = r.d[i];
    auto a = [&](unsigned k) { return static_cast<uint32_t>(r.a[k]); };
    bool third = false;
    for (unsigned k = 0; k < kW; ++k) third = third || (k != i && k != j && a(k) == d);
    const std::array<bool, static_cast<int>(OpenValue::Count_)> is{d == a(i), d == a(j), third,
                                                                   d == 0};
    const auto n = std::count(is.begin(), is.end(), true);
    for (std::size_t k = 0; k < is.size(); ++k) {
      ob.matched[k] += is[k];
      ob.only[k] += is[k] && n == 1;
    }
    ob.none += n == 0;
    // Lane tables: the first states, and the first others whose d is none of the values above.
    auto keep = [&](std::vector<StateReport>& into, bool& done) {
      if (done || into.size() >= opt_.max_examples) return false;
      into.push_back(rep);
      into.back().clauses.push_back(spec::ClauseId::ShflSourceUndefined);
      return done = true;
    };
    if (!keep(ob.examples, kept[w]) && n == 0 && !kept[w]) keep(ob.none_examples, kept_none[w]);
  }
}

void Replayer::add_cta(const CtaRecord& r, spec::Target t, spec::PtxVersion v,
                       const std::string& file, std::size_t line) {
  const auto res = cta_(instr_of(r), cta_of(r), t, v);
  const std::string form(spec::form_info(r.form).name);
  Tally tally;
  tally.states = 1;
  if (!res.availability.available) tally.unavailable = 1;
  StateReport rep{file, line, form, invocation(r),           r.tag, r.fault,
                  true, {},   0,    semantic_clauses(r.form)};
  // UB anywhere leaves every thread undefined: then what came back is an observation. Without
  // UB every arriving thread must come back (a hang or a trap fails it), and every thread of the
  // instruction itself with the model's d.
  const bool defined = !res.outcome.any_ub;
  std::vector<std::vector<spec::ClauseId>> ub(r.exited.size());
  std::vector<spec::ClauseId> ub_seen;
  for (const auto& f : res.ub) {
    ub_seen.push_back(f.clause);
    for (unsigned th : f.threads) ub[th].push_back(f.clause);
  }
  std::size_t came_back = 0, stuck = 0, as_written = 0, zero = 0;
  for (std::size_t th = 0; th < r.exited.size(); ++th) {
    LaneRow row;
    row.lane = static_cast<unsigned>(th);
    row.status = r.exited[th]    ? model::LaneStatus::Exited
                 : r.arrives(th) ? model::LaneStatus::Executes
                                 : model::LaneStatus::Inactive;
    row.partner = r.partner.size() > th && r.partner[th];
    row.a = r.pred[th];
    if (!r.bar.empty()) row.bar = r.bar[th];
    if (!r.count.empty()) row.count = r.count[th];
    row.ub = ub[th];
    if (r.arrives(th)) {
      const bool back = r.came_back(th);
      row.obs_ran = back;
      if (r.executes(th)) {
        if (back) row.obs_d = r.d[th];
        row.model_d = res.outcome.d[th];
      }
      row.defined = defined;
      if (defined) {
        row.mismatch = !back || row.obs_d != row.model_d;
        ++tally.lanes;
        ++(row.mismatch ? tally.mismatched : tally.agreed);
      } else {
        ++tally.undefined;
        ++(back ? came_back : stuck);
        if (r.executes(th) && back) {
          as_written += r.d[th] == res.outcome.d[th];
          zero += r.d[th] == 0;
        }
      }
    }
    rep.mismatches += row.mismatch;
    // A block can hold 1024 threads: keep the mismatching ones, those a clause fires on or that
    // stayed behind, and a few for context.
    const bool telling = row.mismatch || !row.ub.empty() || row.obs_ran == false;
    if ((telling && rep.lanes.size() < 48) || rep.lanes.size() < 8)
      rep.lanes.push_back(std::move(row));
  }
  per_form_[form] += tally;
  per_tag_[r.tag.empty() ? "-" : r.tag] += tally;
  if ((rep.mismatches || tally.unavailable) && mismatch_reports_.size() < opt_.max_mismatch_reports)
    mismatch_reports_.push_back(rep);
  if (defined) return;

  Observation& ob = observe(form, r.tag, ub_seen);
  ob.lanes += tally.undefined;
  ob.came_back += came_back;
  ob.stuck += stuck;
  ob.reproduced[int(Reading::AsWritten)] += as_written;
  ob.reproduced[int(Reading::Zero)] += zero;
  if (!r.fault.empty()) {
    ++ob.faulted_states;
    if (std::find(ob.faults.begin(), ob.faults.end(), r.fault) == ob.faults.end())
      ob.faults.push_back(r.fault);
  }
  if (ob.examples.size() < opt_.max_examples) {
    rep.clauses.insert(rep.clauses.end(), ub_seen.begin(), ub_seen.end());
    ob.examples.push_back(std::move(rep));
  }
}

std::vector<spec::FormId> unconfirmed_forms(const Replayer& r) {
  std::vector<spec::FormId> out;
  for (const auto& f : spec::kForms) {
    auto it = r.per_form().find(std::string(f.name));
    if (it == r.per_form().end() || it->second.states == 0) out.push_back(f.id);
  }
  return out;
}

std::string summary_table(const Replayer& r, const std::string& indent) {
  std::ostringstream os;
  os << indent << std::left << std::setw(28) << "form" << std::right << std::setw(8) << "states"
     << std::setw(16) << "lanes compared" << std::setw(10) << "agreed" << std::setw(12)
     << "mismatched" << std::setw(20) << "undefined-observed"
     << "\n";
  auto row = [&](const std::string& name, const Tally& t) {
    os << indent << std::left << std::setw(28) << name << std::right << std::setw(8) << t.states
       << std::setw(16) << t.lanes << std::setw(10) << t.agreed << std::setw(12) << t.mismatched
       << std::setw(20) << t.undefined
       << (t.beside_ub ? "  (" + std::to_string(t.beside_ub) + " mismatched beside UB)" : "")
       << (t.unavailable ? "  (" + std::to_string(t.unavailable) + " unavailable per model)" : "")
       << (t.d_open ? "  (" + std::to_string(t.d_open) + " with d open)" : "") << "\n";
  };
  for (const auto& f : spec::kForms)
    if (auto it = r.per_form().find(std::string(f.name)); it != r.per_form().end())
      row(std::string(f.name), it->second);
  row("total", r.total());
  return os.str();
}

namespace {
nlohmann::json tally_json(const Tally& t, spec::FormId form) {
  nlohmann::json o{{"states", t.states},
                   {"lanes_compared", t.lanes},
                   {"agreed", t.agreed},
                   {"mismatched", t.mismatched},
                   {"mismatched_beside_ub", t.beside_ub},
                   {"undefined_observed", t.undefined},
                   {"unavailable", t.unavailable}};
  if (spec::has_loose_d(form)) o["d_open_observed"] = t.d_open;
  return o;
}

nlohmann::json lane_json(const LaneRow& l) {
  char buf[24];
  auto hex = [&](uint64_t v) {
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return std::string(buf);
  };
  nlohmann::json o{{"lane", l.lane},
                   {"status", model::status_name(l.status)},
                   {"mask", hex(l.mask)},
                   {"a", hex(l.a)},
                   {"site", l.site}};
  if (l.b) o["b"] = hex(*l.b);
  if (l.c) o["c"] = hex(*l.c);
  if (l.obs_d) o["d"] = hex(*l.obs_d);
  if (l.model_d) o["model_d"] = hex(*l.model_d);
  if (l.obs_p) o["p"] = *l.obs_p;
  if (l.model_p) o["model_p"] = *l.model_p;
  if (l.partner) o["partner"] = true;
  if (l.bar) o["bar"] = hex(*l.bar);
  if (l.count) o["count"] = hex(*l.count);
  if (l.obs_ran) o["ran"] = *l.obs_ran;
  if (l.status == model::LaneStatus::Executes) o["defined"] = l.defined;
  if (l.d_open) o["d_defined"] = false;
  if (!l.ub.empty()) {
    auto& ub = o["ub"] = nlohmann::json::array();
    for (auto c : l.ub) ub.push_back(spec::clause_info(c).key);
  }
  return o;
}
nlohmann::json examples_json(const std::vector<StateReport>& reports) {
  auto ex = nlohmann::json::array();
  for (const auto& rep : reports) {
    nlohmann::json e{{"file", std::filesystem::path(rep.file).parent_path().filename().string() +
                                  "/" + std::filesystem::path(rep.file).filename().string()},
                     {"line", rep.line},
                     {"invocation", rep.invocation}};
    auto& lanes = e["lanes"] = nlohmann::json::array();
    for (const auto& l : rep.lanes)
      if (l.status == model::LaneStatus::Executes) lanes.push_back(lane_json(l));
    ex.push_back(e);
  }
  return ex;
}
}  // namespace

std::string observations_json(const Replayer& r) {
  nlohmann::json doc{{"schema", "warpspec-observed/1"}, {"devices", r.devices()}};
  auto& forms = doc["forms"] = nlohmann::json::object();
  for (const auto& f : spec::kForms)
    if (auto it = r.per_form().find(std::string(f.name)); it != r.per_form().end())
      forms[std::string(f.name)] = tally_json(it->second, f.id);
  auto& obs = doc["undefined_observed"] = nlohmann::json::array();
  for (const auto& [_, ob] : r.observations()) {
    nlohmann::json o{{"form", ob.form},
                     {"tag", ob.tag},
                     {"states", ob.states},
                     {"lanes", ob.lanes},
                     {"trapped_states", ob.faulted_states},
                     {"defined_lanes_lost_to_trap", ob.lost_lanes},
                     {"faults", ob.faults},
                     {"defined_lanes_disagreeing", ob.beside_lanes},
                     {"joins_group_states", ob.group_states},
                     {"joins_group_states_reproduced_whole", ob.group_states_whole}};
    if (ob.came_back || ob.stuck) {
      o["threads_came_back"] = ob.came_back;
      o["threads_stuck"] = ob.stuck;
    }
    auto& cl = o["clauses"] = nlohmann::json::array();
    for (auto c : ob.clauses) cl.push_back(spec::clause_info(c).key);
    auto& rd = o["readings"] = nlohmann::json::object();
    auto& all = o["reproduced_by_all"] = nlohmann::json::array();
    const std::size_t returned = ob.states - ob.faulted_states;
    for (int k = 0; k < static_cast<int>(Reading::Count_); ++k) {
      rd[std::string(reading_name(Reading(k)))] = ob.reproduced[k];
      if (returned && ob.faulted_states == 0 && ob.reproduced[k] == ob.lanes)
        all.push_back(reading_name(Reading(k)));
    }
    o["examples"] = examples_json(ob.examples);
    obs.push_back(o);
  }
  auto& open = doc["d_open_observed"] = nlohmann::json::array();
  for (const auto& [_, ob] : r.open_d()) {
    nlohmann::json o{{"form", ob.form},
                     {"source", open_source_name(ob.source)},
                     {"states", ob.states},
                     {"lanes", ob.lanes},
                     {"none", ob.none}};
    auto& matched = o["matched"] = nlohmann::json::object();
    auto& only = o["only"] = nlohmann::json::object();
    for (int k = 0; k < static_cast<int>(OpenValue::Count_); ++k) {
      matched[std::string(open_value_name(OpenValue(k)))] = ob.matched[k];
      only[std::string(open_value_name(OpenValue(k)))] = ob.only[k];
    }
    o["examples"] = examples_json(ob.examples);
    o["none_examples"] = examples_json(ob.none_examples);
    open.push_back(o);
  }
  auto& elected = doc["leaders_observed"] = nlohmann::json::array();
  for (const auto& [_, ob] : r.leaders())
    elected.push_back({{"form", ob.form},
                       {"states", ob.states},
                       {"elections", ob.elections},
                       {"lowest_lane", ob.lowest},
                       {"highest_lane", ob.highest},
                       {"other", ob.other},
                       {"single_lane_elections", ob.single}});
  auto& nc = doc["not_confirmed"] = nlohmann::json::array();
  for (auto f : unconfirmed_forms(r)) nc.push_back(spec::form_info(f).name);
  return doc.dump(2);
}

std::string lane_table(const StateReport& s, bool executing_only) {
  std::ostringstream os;
  os << s.form << " via " << s.invocation << "  (" << s.file << ":" << s.line
     << (s.tag.empty() ? "" : ", tag " + s.tag) << ")\n";
  if (!s.fault.empty())
    os << "  observed: the launch failed with " << s.fault << "; no lane returned\n";
  for (auto c : s.clauses) {
    const auto& info = spec::clause_info(c);
    os << "  clause " << info.key << ": " << info.text << " [" << info.source << "]\n";
  }
  // Values as eval writes them, through the model's formatters and its one table renderer.
  const auto form = spec::find_form(s.form);
  const auto d_type = form ? spec::form_info(*form).d_type : spec::ResultType::B32;
  // p shows where the form has one and the record or the model gives it (not for an intrinsic
  // that returns d alone).
  bool has_p = !form || spec::form_info(*form).optional_p;
  if (form && spec::has_operands_bc(*form))
    has_p = std::any_of(s.lanes.begin(), s.lanes.end(), [](const LaneRow& l) {
      return l.obs_p.has_value() || l.model_p.has_value();
    });
  const auto syn = form ? model::form_syntax(*form) : spec::ValueSyntax{};
  const bool has_a = s.cta || !syn.none;
  bool sites = false;
  for (const auto& l : s.lanes) sites = sites || (!s.cta && l.site != s.lanes.front().site);
  std::vector<std::string> head{"status"};
  if (!s.cta) head.push_back("mask");
  if (has_a) head.push_back(s.cta ? "pred" : "a");
  if (sites) head.push_back("site");
  const bool bc = form && spec::has_operands_bc(*form);
  if (bc) head.insert(head.end(), {"b", "c"});
  // Block barriers: a and b where they are registers, and who came back.
  const auto any_of = [&](auto has) { return std::any_of(s.lanes.begin(), s.lanes.end(), has); };
  const bool bars = any_of([](const LaneRow& l) { return l.bar.has_value(); });
  const bool counts = any_of([](const LaneRow& l) { return l.count.has_value(); });
  const bool ran = any_of([](const LaneRow& l) { return l.obs_ran.has_value(); });
  if (bars) head.push_back("a");
  if (counts) head.push_back("b");
  if (d_type != spec::ResultType::None) head.insert(head.end(), {"observed d", "model d"});
  if (has_p) head.insert(head.end(), {"observed p", "model p"});
  if (ran) head.push_back("came back");
  head.insert(head.end(), {"defined", ""});
  std::vector<std::vector<std::string>> rows;
  std::vector<unsigned> ids;
  for (const auto& l : s.lanes) {
    const bool exec = l.status == model::LaneStatus::Executes;
    if (executing_only && !exec) continue;
    auto w = [&](const std::optional<uint32_t>& o) {
      return o ? model::format_result(*o, d_type) : std::string("-");
    };
    auto b = [&](const std::optional<bool>& o) { return o ? std::string(*o ? "1" : "0") : "-"; };
    // A block's thread elsewhere is alive at no barrier; a partner arrives through the other form.
    const std::string status = l.partner ? "partner"
                               : s.cta && l.status == model::LaneStatus::Inactive
                                   ? "elsewhere"
                                   : std::string(model::status_name(l.status));
    std::vector<std::string> row{status};
    if (!s.cta) row.push_back(model::format_hex(l.mask, 32));
    if (has_a)
      row.push_back(s.cta ? std::to_string(static_cast<int32_t>(l.a))
                          : model::format_operand(l.a, syn));
    if (sites) row.push_back(std::to_string(l.site));
    if (bc)
      row.insert(row.end(),
                 {std::to_string(l.b.value_or(0)), model::format_hex(l.c.value_or(0), 32)});
    // A d the spec leaves open shows as '?' in the model's column, as eval shows it.
    if (bars) row.push_back(l.bar ? std::to_string(*l.bar) : "-");
    if (counts) row.push_back(l.count ? std::to_string(*l.count) : "-");
    if (d_type != spec::ResultType::None)
      row.insert(row.end(), {w(l.obs_d), l.d_open ? std::string("?") : w(l.model_d)});
    if (has_p) row.insert(row.end(), {b(l.obs_p), b(l.model_p)});
    if (ran) row.push_back(b(l.obs_ran));
    row.push_back(!exec ? "-" : l.d_open ? "p only" : l.defined ? "yes" : "no");
    std::string note = l.mismatch ? "<-- MISMATCH" : "";
    for (auto c : l.ub) note += (note.empty() ? "" : " ") + std::string(spec::clause_info(c).key);
    row.push_back(note);
    rows.push_back(std::move(row));
    ids.push_back(l.lane);
  }
  std::istringstream in(model::table(head, rows, s.cta ? "thread" : "lane", true, ids));
  for (std::string line; std::getline(in, line);) os << "  " << line << "\n";
  return os.str();
}

std::vector<std::filesystem::path> capture_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return {dir};
  namespace fs = std::filesystem;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw MissingFile(dir.string() + ": cannot read the folder (" + ec.message() + ")");
  // An entry whose kind cannot be told (a link to itself, a dangling link) is read like a file
  // when its name is a capture's, so that the reader names what is wrong with it.
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) throw MissingFile(dir.string() + ": cannot read the folder (" + ec.message() + ")");
    const std::string name = it->path().filename().string();
    if (!name.ends_with(".jsonl") && !name.ends_with(".jsonl.gz")) continue;
    std::error_code kind;
    if (!it->is_directory(kind)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace warpspec::capture
