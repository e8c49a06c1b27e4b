// Recorded kernel launches against their explorations (kernel_replay.hpp).
#include "capture/kernel_replay.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

#include "capture/format.hpp"
#include "model/json_file.hpp"
#include "model/state_io.hpp"
#include "programs/launch.hpp"
#include "programs/ptx_reader.hpp"

namespace warpspec::capture {

namespace fs = std::filesystem;
using programs::PathEnd;

std::string_view verdict_text(LaunchVerdict v) {
  switch (v) {
    case LaunchVerdict::Predicted:
      return "completed with predicted memory";
    case LaunchVerdict::PredictedBounded:
      return "completed with memory a bounded walk predicts";
    case LaunchVerdict::NotAmongBounded:
      return "memory not among a bounded walk's outcomes";
    case LaunchVerdict::NotPredicted:
      return "MEMORY NO SCHEDULE GIVES";
    case LaunchVerdict::HangPredicted:
      return "hung, deadlock or UB predicted";
    case LaunchVerdict::HangUnfinished:
      return "hung, walk stopped at a limit";
    case LaunchVerdict::HangNotPredicted:
      return "HUNG THOUGH EVERY SCHEDULE COMPLETES";
    case LaunchVerdict::TrapPredicted:
      return "failed, UB predicted";
    case LaunchVerdict::TrapUnfinished:
      return "failed, walk stopped at a limit";
    case LaunchVerdict::MemoryUnpredicted:
      return "completed, race or UB (memory not predicted)";
    case LaunchVerdict::Outside:
      return "outside the PTX subset";
    case LaunchVerdict::Error:
      return "FAILED THOUGH NO SCHEDULE REACHES UB";
  }
  return "?";
}

bool contradicts(LaunchVerdict v) {
  return v == LaunchVerdict::NotPredicted || v == LaunchVerdict::HangNotPredicted ||
         v == LaunchVerdict::Error;
}

bool undecided(LaunchVerdict v) {
  return v == LaunchVerdict::NotAmongBounded || v == LaunchVerdict::HangUnfinished ||
         v == LaunchVerdict::TrapUnfinished;
}

namespace {

using Json = nlohmann::json;

// A member the value at path `at` of a record, manifest or index must hold (or may, when
// `required` is false: nullptr when absent), checked to be of the kind `is` tells;
// `refuse(path, what)` throws about the value at `path`.
template <class Refuse>
const Json* member(const Json& j, const std::string& at, const char* name,
                   bool (Json::*is)() const noexcept, const char* kind, bool required,
                   Refuse&& refuse) {
  const auto it = j.find(name);
  if (it == j.end()) {
    if (required) refuse(at, std::string("missing field \"") + name + "\"");
    return nullptr;
  }
  if (!((*it).*is)()) refuse(model::json_member_path(at, name), std::string("expected ") + kind);
  return &*it;
}

// A launch record's error: its file and line, the column of the value at `at` (or of its
// member `name`'s own name, when given), and its path.
model::FormatError record_error(std::string_view text, const std::string& file, std::size_t line,
                                const std::string& at, const std::string& what,
                                std::optional<std::string_view> name = std::nullopt) {
  const std::size_t value = model::json_offset(text, at);
  const std::size_t byte =
      name ? model::json_name_offset(text, value, *name).value_or(value) : value;
  return model::FormatError(file, line, model::line_column(text, byte).second,
                            (at.empty() ? "" : at + ": ") + what);
}

// A whole-file reader's refusal: file:line:column and the JSON path.
auto refuse_in(const model::JsonFile& f) {
  return [&f](const std::string& at, const std::string& what) { f.fail(at, what); };
}

// An unsigned JSON integer of at most 32 bits.
bool is_u32(const Json& j) {
  return j.is_number_unsigned() && j.get<uint64_t>() <= 0xffffffffu;
}

}  // namespace

LaunchRecord parse_launch_record(std::string_view text, const std::string& file, std::size_t line) {
  auto fail = [&](const std::string& at, const std::string& what) {
    throw record_error(text, file, line, at, what);
  };
  const Json j = model::parse_json_line(std::string(text), file, line);
  if (!j.is_object()) fail("", "expected a launch record (a JSON object)");
  static const std::vector<std::string_view> kRecordMembers{"kernel", "run",    "status", "error",
                                                            "device", "driver", "buffers"};
  if (const auto* name = model::unknown_member(j, kRecordMembers))
    throw record_error(text, file, line, "", model::unknown_member_text(*name, kRecordMembers),
                       *name);
  LaunchRecord r;
  r.kernel = member(j, "", "kernel", &Json::is_string, "a string", true, fail)->get<std::string>();
  // Required: a launch is known by its kernel and run, and a record without a run could not
  // be told from another launch of the kernel (two such would count as one launch twice).
  const auto& run = *member(j, "", "run", &Json::is_number_unsigned, "a run number", true, fail);
  if (run.get<uint64_t>() > 0xffffffffu) fail("run", "expected a run number below 2^32");
  r.run = run.get<unsigned>();
  r.status = member(j, "", "status", &Json::is_string, "a string", true, fail)->get<std::string>();
  if (r.status != "completed" && r.status != "hang" && r.status != "error")
    fail("status", "\"" + spec::shown_text(r.status) + "\": expected completed, hang or error");
  for (auto [name, to] : {std::pair{"error", &r.error}, std::pair{"device", &r.device}})
    if (const auto* v = member(j, "", name, &Json::is_string, "a string", false, fail))
      *to = v->get<std::string>();
  // The runner records the driver API version as a number (13000 is 13.0).
  if (const auto d = j.find("driver"); d != j.end() && is_u32(*d))
    r.driver = std::to_string(d->get<unsigned>() / 1000) + "." +
               std::to_string(d->get<unsigned>() % 1000 / 10);
  else if (const auto* v = member(j, "", "driver", &Json::is_string, "a version", false, fail))
    r.driver = v->get<std::string>();
  // A completed launch has its buffers; another may, and they are checked alike.
  if (const auto* all =
          member(j, "", "buffers", &Json::is_array, "an array", r.status == "completed", fail)) {
    const auto& buffers = *all;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      const auto& b = buffers[i];
      if (b.is_null()) {
        r.buffers.emplace_back();
        continue;
      }
      const std::string at = "buffers[" + std::to_string(i) + "]";
      if (!b.is_array()) fail(at, "expected null (a scalar) or an array of words");
      std::vector<uint32_t> words;
      for (std::size_t w = 0; w < b.size(); ++w) {
        if (!is_u32(b[w])) fail(at + "[" + std::to_string(w) + "]", "expected a 32-bit word");
        words.push_back(b[w].get<uint32_t>());
      }
      r.buffers.emplace_back(std::move(words));
    }
  }
  return r;
}

namespace {

// The completed outcome whose every defined word the record's buffers match, if any.
bool memory_predicted(const LaunchRecord& r, const programs::Exploration& x) {
  for (const auto& o : x.outcomes) {
    if (o.kind != PathEnd::Kind::Completed) continue;
    bool same = r.buffers.size() == o.words.size();
    for (std::size_t i = 0; i < o.words.size() && same; ++i) {
      if (!r.buffers[i]) continue;
      const auto& got = *r.buffers[i];
      same = got.size() == o.words[i].size();
      for (std::size_t w = 0; w < got.size() && same; ++w)
        same = o.undefined[i][w] || got[w] == o.words[i][w];
    }
    if (same) return true;
  }
  return false;
}

}  // namespace

LaunchVerdict judge(const LaunchRecord& r, const programs::Exploration& x) {
  const bool undefined = x.any_undefined();
  // A launch that failed (the GPU trapped) is what undefined behaviour may do.
  if (r.status == "error")
    return undefined    ? LaunchVerdict::TrapPredicted
           : x.complete ? LaunchVerdict::Error
                        : LaunchVerdict::TrapUnfinished;
  if (r.status == "hang") {
    if (x.any(PathEnd::Kind::Deadlock) || undefined) return LaunchVerdict::HangPredicted;
    return x.complete ? LaunchVerdict::HangNotPredicted : LaunchVerdict::HangUnfinished;
  }
  // A race or undefined behaviour (a deadlock may be undefined too) predicts no memory.
  if (x.any(PathEnd::Kind::Race) || undefined || x.any(PathEnd::Kind::GaveUp))
    return LaunchVerdict::MemoryUnpredicted;
  if (memory_predicted(r, x))
    return x.complete ? LaunchVerdict::Predicted : LaunchVerdict::PredictedBounded;
  return x.complete ? LaunchVerdict::NotPredicted : LaunchVerdict::NotAmongBounded;
}

std::vector<KernelSet> read_kernel_sets(const fs::path& index) {
  const model::JsonFile f(read_text(index), index.string());
  const auto refuse = refuse_in(f);
  const auto& j = f.root();
  const fs::path dir = index.parent_path();
  if (!j.is_object()) f.fail("", "expected an object with \"sets\"");
  f.only_members(j, "", {"sets"});
  const auto& all = *member(j, "", "sets", &Json::is_array, "an array", true, refuse);
  std::vector<KernelSet> sets;
  // A set or a records file given twice would have its launches counted twice: each is
  // refused where it is given again, naming where it was given first.
  std::map<std::string, std::string> set_at;   // set name: the set that first has it
  std::map<fs::path, std::string> records_at;  // records file: the path that first lists it
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string at = "sets[" + std::to_string(i) + "]";
    if (!all[i].is_object()) f.fail(at, "expected an object");
    const auto& s = all[i];
    f.only_members(s, at, {"name", "manifests", "records", "sample"});
    KernelSet k;
    k.name = member(s, at, "name", &Json::is_string, "a string", true, refuse)->get<std::string>();
    if (const auto [it, fresh] = set_at.emplace(k.name, at); !fresh)
      f.fail(model::json_member_path(at, "name"),
             "\"" + spec::shown_text(k.name) + "\" is already the name of " + it->second);
    for (auto [name, to] :
         {std::pair{"manifests", &k.manifests}, std::pair{"records", &k.records}}) {
      const auto& files = *member(s, at, name, &Json::is_array, "an array of paths", true, refuse);
      for (std::size_t n = 0; n < files.size(); ++n) {
        const std::string file_at =
            model::json_member_path(at, name) + "[" + std::to_string(n) + "]";
        if (!files[n].is_string() || files[n].get_ref<const std::string&>().empty())
          f.fail(file_at, "expected a path");
        to->push_back(dir / files[n].get<std::string>());
        if (to != &k.records) continue;
        // Two spellings of one file ("a.jsonl", "./a.jsonl") are one file.
        std::error_code ec;
        auto same = fs::weakly_canonical(to->back(), ec);
        if (ec) same = to->back().lexically_normal();
        if (const auto [it, fresh] = records_at.emplace(same, file_at); !fresh)
          f.fail(file_at, "\"" + spec::shown_text(files[n].get<std::string>()) +
                              "\" is already listed as " + it->second);
      }
    }
    if (const auto* n =
            member(s, at, "sample", &Json::is_number_unsigned, "a positive count", false, refuse)) {
      if (n->get<uint64_t>() == 0 || n->get<uint64_t>() > 0xffffffffu)
        f.fail(model::json_member_path(at, "sample"),
               "expected a positive count (at most 2^32 - 1)");
      k.sample = n->get<unsigned>();
    }
    sets.push_back(std::move(k));
  }
  return sets;
}

namespace {

// A kernel of a manifest: its launch and where its PTX lies.
struct Kernel {
  std::string entry;
  programs::LaunchSpec launch;
  fs::path ptx;
  std::shared_ptr<const model::JsonFile> manifest;  // for messages
  std::string at;                                   // its path there, "kernels[i]"
};

std::map<std::string, Kernel> read_manifests(const std::vector<fs::path>& manifests) {
  std::map<std::string, Kernel> kernels;
  for (const auto& m : manifests) {
    const auto file = std::make_shared<const model::JsonFile>(read_text(m), m.string());
    const auto& f = *file;
    const auto refuse = refuse_in(f);
    const auto& j = f.root();
    if (!j.is_object()) f.fail("", "expected an object with \"kernels\"");
    f.only_members(j, "", {"kernels", "generator"});
    const auto& all = *member(j, "", "kernels", &Json::is_array, "an array", true, refuse);
    for (std::size_t i = 0; i < all.size(); ++i) {
      const std::string at = "kernels[" + std::to_string(i) + "]";
      const auto& k = all[i];
      if (!k.is_object()) f.fail(at, "expected an object");
      // Everything a replay reads of the kernel, checked before any is explored.
      const auto name =
          member(k, at, "name", &Json::is_string, "a string", true, refuse)->get<std::string>();
      const auto& ptx_name = member(k, at, "ptx", &Json::is_string, "a path", true, refuse)
                                 ->get_ref<const std::string&>();
      if (ptx_name.empty()) f.fail(model::json_member_path(at, "ptx"), "expected a path");
      fs::path ptx = m.parent_path() / ptx_name;
      const auto entry = member(k, at, "entry", &Json::is_string, "the .entry's name", true, refuse)
                             ->get<std::string>();
      (void)member(k, at, "params", &Json::is_array, "an array", true, refuse);
      // What the tests and the generators keep with a kernel, of the kinds they read.
      (void)member(k, at, "expect", &Json::is_object, "an object", false, refuse);
      (void)member(k, at, "why", &Json::is_string, "a string", false, refuse);
      (void)member(k, at, "buggy", &Json::is_boolean, "true or false", false, refuse);
      if (const auto bug = k.find("bug"); bug != k.end() && !bug->is_null() && !bug->is_string())
        f.fail(model::json_member_path(at, "bug"), "expected a string or null");
      auto launch = programs::launch_from_json(f, k, at, programs::kManifestKernelMembers);
      // A name given twice would let the later kernel stand for records of the earlier one.
      if (const auto it = kernels.find(name); it != kernels.end())
        f.fail(model::json_member_path(at, "name"),
               "\"" + spec::shown_text(name) + "\" is already the name of " +
                   it->second.manifest->file() + "'s " + it->second.at);
      std::error_code ec;
      if (!fs::exists(ptx, ec) && fs::exists(ptx.string() + ".gz", ec)) ptx += ".gz";
      kernels[name] = {entry, std::move(launch), ptx, file, at};
    }
  }
  return kernels;
}

}  // namespace

KernelSetReplay replay_kernel_set(const KernelSet& set, unsigned every,
                                  const programs::ExploreOptions& options,
                                  const std::function<void(std::size_t)>& progress,
                                  unsigned workers) {
  const auto t0 = std::chrono::steady_clock::now();
  KernelSetReplay out;
  out.name = set.name;
  const auto kernels = read_manifests(set.manifests);
  // The launches to replay, and each kernel they name once, in the order first named.
  std::vector<LaunchRecord> records;
  std::vector<std::string> order;
  std::map<std::string, std::size_t> index_of;  // kernel name: its place in `order`
  std::size_t seen = 0;
  // Where each launch (kernel, run) is first recorded: a launch recorded twice would be counted
  // twice.
  // The file and line are kept as they are, and written out only for a repeat.
  std::map<std::pair<std::string, unsigned>, std::pair<const fs::path*, std::size_t>> recorded_at;
  for (const auto& file : set.records) {
    std::istringstream lines(read_text(file));
    std::size_t line_no = 0;
    for (std::string line; std::getline(lines, line);) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      // Every record is read and checked; only the sample is replayed.
      const bool sampled = seen++ % std::max(1u, every) == 0;
      auto r = parse_launch_record(line, file.string(), line_no);
      const auto k = kernels.find(r.kernel);
      auto refuse = [&](const std::string& at, const std::string& what) {
        return record_error(line, file.string(), line_no, at, what);
      };
      if (k == kernels.end())
        throw refuse("kernel",
                     "\"" + spec::shown_text(r.kernel) + "\" is in none of the set's manifests");
      if (const auto [it, fresh] =
              recorded_at.emplace(std::pair{r.kernel, r.run}, std::pair{&file, line_no});
          !fresh)
        throw refuse("run", spec::shown_text(r.kernel) + " run " + std::to_string(r.run) +
                                " is already recorded at " + it->second.first->string() + ":" +
                                std::to_string(it->second.second));
      // A completed launch has one entry per parameter: a buffer's words, null for a scalar.
      if (r.status == "completed" || !r.buffers.empty()) {
        const auto& params = k->second.launch.launch.params;
        if (r.buffers.size() != params.size())
          throw refuse("buffers", std::to_string(r.buffers.size()) + " entries, but " + r.kernel +
                                      " takes " + std::to_string(params.size()) + " parameters");
        for (std::size_t i = 0; i < params.size(); ++i) {
          const std::string at = "buffers[" + std::to_string(i) + "]";
          if (r.buffers[i].has_value() != params[i].is_buffer)
            throw refuse(at,
                         std::string("expected ") +
                             (params[i].is_buffer ? "the buffer's words" : "null for a scalar"));
          // A buffer of another size is a record of another launch, not a contradiction.
          if (r.buffers[i] && r.buffers[i]->size() != params[i].words.size())
            throw refuse(at, std::to_string(r.buffers[i]->size()) +
                                 (r.buffers[i]->size() == 1 ? " word" : " words") + ", but " +
                                 r.kernel + "'s buffer has " +
                                 std::to_string(params[i].words.size()));
        }
      }
      if (!sampled) continue;
      if (index_of.emplace(r.kernel, order.size()).second) order.push_back(r.kernel);
      records.push_back(std::move(r));
    }
  }
  // The PTX files, read once each.
  std::map<fs::path, std::string> ptx_text;
  for (const auto& name : order) {
    auto& text = ptx_text[kernels.at(name).ptx];
    if (text.empty()) text = read_text(kernels.at(name).ptx);
  }
  // Explores `todo` (indices into `order`) on `workers` threads; each exploration is
  // independent (explore() keeps no state between calls). nullopt: PTX outside the subset.
  std::vector<std::optional<programs::Exploration>> results(order.size());
  auto explore_all = [&](const std::vector<std::size_t>& todo,
                         const std::function<programs::ExploreOptions(std::size_t)>& options_for) {
    std::atomic<std::size_t> next{0}, done{0};
    std::exception_ptr failure;
    std::mutex failure_lock;
    auto work = [&](bool report) {
      for (std::size_t i; (i = next++) < todo.size();) {
        try {
          const auto& k = kernels.at(order[todo[i]]);
          const auto read = programs::read_ptx(ptx_text.at(k.ptx), k.entry);
          if (const auto* e = std::get_if<programs::ReadError>(&read); e && e->no_entry)
            // Not PTX outside the subset: the manifest names a kernel its file does not hold.
            k.manifest->fail(model::json_member_path(k.at, "entry"),
                             order[todo[i]] + ": " + k.ptx.string() + ": " + e->message);
          if (const auto* p = std::get_if<programs::Program>(&read)) try {
              results[todo[i]] = programs::explore(*p, k.launch.launch, options_for(todo[i]));
            } catch (const std::invalid_argument& e) {
              // A launch the kernel cannot take (a parameter too many, a scalar too wide): the
              // manifest's fault, not an internal error.
              k.manifest->fail(model::json_member_path(k.at, "params"),
                               order[todo[i]] + ": " + k.ptx.string() + ": " + e.what());
            }
        } catch (...) {
          std::lock_guard<std::mutex> hold(failure_lock);
          if (!failure) failure = std::current_exception();
          next = todo.size();  // the others stop at their next kernel
        }
        ++done;
        if (report && progress) progress(done);
      }
    };
    std::vector<std::thread> pool;
    // A worker the system will not start leaves its share to the others.
    for (unsigned w = 1; w < std::max(1u, workers); ++w) try {
        pool.emplace_back(work, false);
      } catch (const std::system_error&) {
        break;
      }
    work(true);
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
  };
  std::vector<std::size_t> every_kernel(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) every_kernel[i] = i;
  explore_all(every_kernel, [&](std::size_t) { return options; });
  auto verdict_of = [&](const LaunchRecord& r) {
    const auto& x = results[index_of.at(r.kernel)];
    return x ? judge(r, *x) : LaunchVerdict::Outside;
  };
  // A kernel with a launch left undecided is explored again with larger limits, and only
  // until every such launch of it is decided: the question is then whether some schedule
  // gives that memory, or some schedule deadlocks or reaches undefined behaviour.
  std::map<std::size_t, std::vector<const LaunchRecord*>> pending;
  for (const auto& r : records)
    if (undecided(verdict_of(r))) pending[index_of.at(r.kernel)].push_back(&r);
  std::vector<std::size_t> again;
  for (const auto& [i, rs] : pending) again.push_back(i);
  explore_all(again, [&](std::size_t i) {
    programs::ExploreOptions wider = options;
    wider.max_states = std::max<uint64_t>(options.max_states * 10, 200000);
    wider.activemask_limit = std::max(options.activemask_limit, 7u);
    wider.progress = nullptr;
    // Each call sees a new outcome; the launches it decides are dropped from the list.
    auto left = std::make_shared<std::vector<const LaunchRecord*>>(pending.at(i));
    wider.enough = [left](const PathEnd& e) {
      programs::Exploration one;
      one.outcomes.push_back(e);
      one.complete = false;
      std::erase_if(*left, [&](const LaunchRecord* r) { return !undecided(judge(*r, one)); });
      return left->empty();
    };
    return wider;
  });
  out.explored_again = again.size();
  for (const auto& r : records) {
    const auto v = verdict_of(r);
    ++out.counts[v];
    ++out.launches;
    if (!r.device.empty())
      out.devices.insert(r.device + (r.driver.empty() ? "" : " (driver " + r.driver + ")"));
    if (contradicts(v)) out.contradictions.push_back({r.kernel, r.run, v, r.error});
    if (undecided(v)) {
      std::string why;
      for (const auto& l : results[index_of.at(r.kernel)]->limits)
        why += (why.empty() ? "" : "; ") + l;
      out.undecided.push_back({r.kernel, r.run, v, why});
    }
  }
  out.kernels = order.size();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace warpspec::capture
