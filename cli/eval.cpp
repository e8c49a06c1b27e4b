// warpspec eval: evaluate one instruction on a warp (or block) state with the reference model.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common.hpp"
#include "model/input.hpp"
#include "model/render.hpp"

namespace warpspec::cli {
namespace {

struct EvalOptions {
  std::string instruction, state_file, target, ptx;
  model::StateFlags flags;
  bool json = false, all_lanes = false;
};

int run_eval(const EvalOptions& o) {
  std::optional<model::JsonState> js;
  try {
    if (!o.state_file.empty()) js = model::read_state_file_header(o.state_file);
  } catch (const model::MissingInput& e) {
    throw Failure{kExitNoInput, e.what()};
  } catch (const model::InputError& e) {
    throw Failure{kExitDataError, e.what()};
  }
  std::string text = o.instruction;
  if (js && js->instruction) {
    if (!text.empty() && text != *js->instruction)
      throw Failure{kExitUsage, "the instruction is given twice (argument and " + o.state_file +
                                    "); give it once"};
    text = *js->instruction;
  }
  if (text.empty())
    throw Failure{kExitUsage,
                  "give the instruction, e.g. warpspec eval 'match.any.sync.b32 d, a, 0xffffffff;' "
                  "--a '5*2,6*'"};
  const auto p = js && js->instruction ? parse_or_fail(*js) : parse_or_fail(text, "instruction");
  const bool flags_given = !o.flags.a.empty() || !o.flags.mask.empty() || !o.flags.masks.empty() ||
                           !o.flags.exited.empty() || !o.flags.inactive.empty() ||
                           !o.flags.sites.empty() || !o.flags.b.empty() || !o.flags.c.empty() ||
                           o.flags.threads;
  if (js && flags_given)
    throw Failure{kExitUsage, "give the state either as --state FILE or as flags, not both"};
  auto target = target_or_fail(o.target, js && js->target ? *js->target : spec::kDefaultTarget);
  auto ptx = ptx_or_fail(o.ptx, js && js->ptx ? *js->ptx : spec::kLatestPtx);
  try {
    if (spec::is_warp_form(p.instr.form)) {
      auto w = js ? model::warp_from_json(*js, p) : model::warp_from_flags(p, o.flags);
      auto r = model::evaluate(p.instr, w, target, ptx);
      if (o.json) {
        std::cout << model::result_json(p, w, r, target, ptx).dump(2) << "\n";
      } else {
        std::cout << p.text << "    (" << spec::to_string(target) << ", PTX ISA "
                  << spec::to_string(ptx) << ")\n"
                  << model::lane_table(p.instr, spec::value_syntax(p), w, &r, !o.all_lanes)
                  << model::findings_text(r);
      }
      if (!r.availability.available) return kExitUnavailable;
      return r.ub.empty() ? kExitOk : kExitUb;
    }
    auto c = js ? model::cta_from_json(*js, p) : model::cta_from_flags(p, o.flags);
    auto r = model::evaluate_cta(p.instr, c, target, ptx);
    if (o.json) {
      std::cout << model::result_json(p, c, r, target, ptx).dump(2) << "\n";
    } else {
      std::cout << p.text << "    (" << spec::to_string(target) << ", PTX ISA "
                << spec::to_string(ptx) << ", " << c.arrive.size() << " threads)\n"
                << model::cta_table(p.instr, c, &r, !o.all_lanes) << model::findings_text(r);
    }
    if (!r.availability.available) return kExitUnavailable;
    return r.ub.empty() ? kExitOk : kExitUb;
  } catch (const model::InputError& e) {
    throw as_failure(e);
  }
}

const bool eval_registered = add_command(
    {"eval", "Evaluate one instruction on a warp state with the reference model", 20,
     [](CLI::App& sub) {
       auto o = std::make_shared<EvalOptions>();
       sub.add_option("instruction", o->instruction,
                      "PTX text ('match.all.sync.b64 d|p, a, 0xffffffff;') or an intrinsic call "
                      "('__match_any_sync(0xffffffff, (float)x)')");
       sub.add_option(
           "--a", o->flags.a,
           "Per-lane source operands: '5*2,6*' = lanes 0-1 hold 5, the rest 6; one value "
           "applies to all lanes; 0x.. is raw bits; floats for float operands");
       sub.add_option("--mask", o->flags.mask,
                      "One membermask for every lane (when the mask is a register)");
       sub.add_option("--masks", o->flags.masks, "Per-lane membermasks, list syntax as --a");
       sub.add_option("--exited", o->flags.exited,
                      "Lanes that have exited: 0xf0000000, '28-31' or none");
       sub.add_option("--inactive", o->flags.inactive,
                      "Lanes alive but not executing this instruction (same syntax as --exited)");
       sub.add_option(
           "--sites", o->flags.sites,
           "Per-lane call-site ids (lanes reaching the instruction from different branches)");
       sub.add_option("--b", o->flags.b,
                      "Shuffles: per-lane b (source lane or offset) when b is a register, list "
                      "syntax as --a");
       sub.add_option("--c", o->flags.c,
                      "Shuffles: per-lane c (segment mask in bits 12:8, clamp in 4:0) when c is a "
                      "register; 0x1f is the whole warp for .down/.bfly/.idx, 0 for .up");
       sub.add_option("--threads", o->flags.threads,
                      "Block size for the block barriers (default 32)")
           ->check(CLI::Range(1, 1024));
       sub.add_option("--bar", o->flags.bar,
                      "Block barriers: per-thread barrier number a when a is a register, list "
                      "syntax as --a ('1*64,2*')");
       sub.add_option("--count", o->flags.count,
                      "Block barriers: per-thread thread count b when b is a register");
       sub.add_option("--partner", o->flags.partner,
                      "Block barriers: threads that reach the barrier through the partner form "
                      "(bar.arrive beside bar.sync, bar.sync beside bar.arrive or bar.red), same "
                      "syntax as --exited");
       sub.add_option("--state", o->state_file,
                      "Read the state from a JSON file (docs/json-schema.md)")
           ->check(kPath);
       sub.add_option("--target", o->target, "Target architecture (default sm_90)");
       sub.add_option("--ptx", o->ptx, "PTX ISA version (default 8.8)");
       sub.add_flag("--json", o->json, "Print the result as JSON (schema warpspec-eval/1)");
       sub.add_flag("--all-lanes", o->all_lanes,
                    "Print one row per lane instead of merging equal rows");
       sub.footer(
           "Examples:\n"
           "  warpspec eval 'match.any.sync.b32 d, a, 0xffffffff;' --a '5*2,6*'\n"
           "  warpspec eval '__match_all_sync(0xffffffff, (float)x, &p)' --a '-0.0*16,0.0*'\n"
           "  warpspec eval 'vote.sync.ballot.b32 d, !p, m;' --a '1,0*' --mask 0x0000ffff --exited "
           "16-31\n"
           "  warpspec eval '__syncthreads_count(p)' --threads 64 --a '1*10,0*' --exited 60-63\n"
           "  warpspec eval 'bar.sync 1, 128;' --threads 256 --inactive 128-255 --partner 0-63   "
           "(warps 0-1 arrive with bar.arrive 1, 128)\n"
           "  warpspec eval 'activemask.b32 d;' --inactive 8-11 --sites '0*16,1*'   (no mask: "
           "--sites says who runs it together)\n"
           "  warpspec eval 'shfl.sync.idx.b32 d|p, a, 5, 0x181f, 0xffffffff;' --a "
           "'0x100*8,0x200*' "
           "  (segments of 8 lanes: each reads lane 5 of its own)\n"
           "  warpspec eval 'shfl.sync.down.b32 d|p, a, b, 0x1f, 0x7fffffff;' --a 7 --b '1*16,2*' "
           "--inactive 31\n"
           "Exit: 0 no UB, 3 UB found, 4 form not available on the target, 64 usage, 65 bad file, "
           "66 missing file.");
       return [o] { return run_eval(*o); };
     }});

}  // namespace
}  // namespace warpspec::cli
