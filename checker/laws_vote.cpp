// Laws of vote.sync: the modes against the ballot, negation, and what a vote ignores.
#include "checker/laws.hpp"

namespace warpspec::checker::laws {

void add_vote_laws(std::vector<Property>& out, const Subject& subject) {
  auto add = [&](const char* name, const char* doc, unsigned uses, auto body) {
    out.push_back(make_property(name, doc, uses, body, subject));
  };

  add("vote.any_is_ballot_nonzero",
      "On every lane in its own mask, vote.any(p) is true exactly when ballot(p) is non-zero (p "
      "and !p).",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (bool neg : {false, true}) {
          auto any = e.eval(instr(FormId::VoteAny, neg), e.w0);
          auto bal = e.eval(instr(FormId::VoteBallot, neg), e.w0);
          e.claim_lanes(neg ? "!a" : "a", [&](unsigned i) {
            return implies(d, takes_part(d, e.w0, i), truthy(d, any.d[i]) == truthy(d, bal.d[i]));
          });
        }
      });

  add("vote.all_is_ballot_of_live_mask",
      "On every lane in its own mask, vote.all(p) holds exactly when ballot(p) equals the live "
      "mask.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto all = e.eval(instr(FormId::VoteAll), e.w0);
        auto bal = e.eval(instr(FormId::VoteBallot), e.w0);
        e.claim_lanes("all", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i),
                         truthy(d, all.d[i]) == (bal.d[i] == live(d, e.w0, i)));
        });
      });

  add("vote.all_of_negation_is_none",
      "vote.all(!p) holds exactly when ballot(p) is zero: .all of !a computes 'none'.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        auto none = e.eval(instr(FormId::VoteAll, true), e.w0);
        auto bal = e.eval(instr(FormId::VoteBallot), e.w0);
        e.claim_lanes("none", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i),
                         truthy(d, none.d[i]) == spec::is_zero(d, bal.d[i]));
        });
      });

  add("vote.any_of_negation_is_not_all",
      "vote.any(!p) is the negation of vote.all(p) on every lane: .any of !a computes 'not all'.",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto not_all = e.eval(instr(FormId::VoteAny, true), e.w0);
        auto all = e.eval(instr(FormId::VoteAll), e.w0);
        e.claim_lanes("not_all",
                      [&](unsigned i) { return truthy(d, not_all.d[i]) == !truthy(d, all.d[i]); });
      });

  add("vote.uni_is_all_or_none",
      "vote.uni(p) holds exactly when vote.all(p) or vote.all(!p) holds.", kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        auto uni = e.eval(instr(FormId::VoteUni), e.w0);
        auto all = e.eval(instr(FormId::VoteAll), e.w0);
        auto none = e.eval(instr(FormId::VoteAll, true), e.w0);
        e.claim_lanes("uni", [&](unsigned i) {
          return truthy(d, uni.d[i]) == (truthy(d, all.d[i]) || truthy(d, none.d[i]));
        });
      });

  add("vote.uni_ignores_negation", "vote.uni(!p) equals vote.uni(p) on every lane.", kUsesWarp,
      [](auto& e) {
        auto uni = e.eval(instr(FormId::VoteUni), e.w0);
        auto inv = e.eval(instr(FormId::VoteUni, true), e.w0);
        e.claim_lanes("uni", [&](unsigned i) { return uni.d[i] == inv.d[i]; });
      });

  add("vote.ballot_within_live_mask",
      "ballot(p) never sets a bit outside the lane's live mask (exited and unnamed lanes give 0).",
      kUsesWarp, [](auto& e) {
        const auto& d = e.d;
        for (bool neg : {false, true}) {
          auto bal = e.eval(instr(FormId::VoteBallot, neg), e.w0);
          e.claim_lanes(neg ? "!a" : "a",
                        [&](unsigned i) { return spec::is_zero(d, bal.d[i] & ~live(d, e.w0, i)); });
        }
      });

  add("vote.ballot_negation_splits_live_mask",
      "ballot(p) and ballot(!p) are disjoint and together make the live mask.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        auto pos = e.eval(instr(FormId::VoteBallot), e.w0);
        auto neg = e.eval(instr(FormId::VoteBallot, true), e.w0);
        e.claim_lanes("split", [&](unsigned i) {
          return spec::is_zero(d, pos.d[i] & neg.d[i]) && (pos.d[i] | neg.d[i]) == live(d, e.w0, i);
        });
      });

  add("vote.ballot_own_bit_is_own_predicate",
      "On a lane in its own mask, the lane's own ballot bit is its own predicate.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        auto bal = e.eval(instr(FormId::VoteBallot), e.w0);
        e.claim_lanes("own", [&](unsigned i) {
          return implies(d, takes_part(d, e.w0, i), d.bit(bal.d[i], i) == pred(d, e.w0, i));
        });
      });

  add("vote.modes_return_predicates",
      "vote.all, vote.any and vote.uni write 0 or 1 on every lane, with and without !a.", kUsesWarp,
      [](auto& e) {
        const auto& d = e.d;
        for (auto f : {FormId::VoteAll, FormId::VoteAny, FormId::VoteUni})
          for (bool neg : {false, true}) {
            auto o = e.eval(instr(f, neg), e.w0);
            e.claim_lanes(std::string(spec::form_info(f).name) + (neg ? " !a" : ""),
                          [&](unsigned i) { return d.ult(o.d[i], d.w32(2)); });
          }
      });

  add("vote.uniform_across_a_mask",
      "Every vote mode gives the same result on all defined lanes that pass one membermask.",
      kUsesWarp, [](auto& e) {
        for (auto f : forms_of(spec::Family::Vote))
          for (bool neg : {false, true}) {
            auto o = e.eval(instr(f, neg), e.w0);
            claim_uniform(e, std::string(spec::form_info(f).name) + (neg ? " !a" : ""), o, e.w0);
          }
      });

  add("vote.ignores_exited_lanes",
      "Changing the predicates of exited lanes changes no vote result and no UB verdict.",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        auto t = with_values(
            e.w0, [&](unsigned j) { return d.ite(e.w0.exited[j], e.w1.a[j], e.w0.a[j]); });
        for (auto f : forms_of(spec::Family::Vote)) {
          auto a = e.eval(instr(f), e.w0);
          auto b = e.eval(instr(f), t);
          e.claim_lanes(std::string(spec::form_info(f).name), [&](unsigned i) {
            return a.d[i] == b.d[i] && a.defined(d, i) == b.defined(d, i);
          });
        }
      });

  add("vote.ignores_unnamed_lanes",
      "Changing the predicates of lanes that no executing lane names changes no vote result.",
      kUsesWarp | kUsesTwoWarps, [](auto& e) {
        const auto& d = e.d;
        auto named = d.w32(0);
        for (unsigned j = 0; j < spec::kWarpSize; ++j)
          named = named | d.ite(e.w0.exec[j] && !e.w0.exited[j], e.w0.mask[j], d.w32(0));
        auto t = with_values(
            e.w0, [&](unsigned j) { return d.ite(d.bit(named, j), e.w0.a[j], e.w1.a[j]); });
        for (auto f : forms_of(spec::Family::Vote)) {
          auto a = e.eval(instr(f), e.w0);
          auto b = e.eval(instr(f), t);
          e.claim_lanes(std::string(spec::form_info(f).name),
                        [&](unsigned i) { return implies(d, a.executes[i], a.d[i] == b.d[i]); });
        }
      });
}

}  // namespace warpspec::checker::laws
