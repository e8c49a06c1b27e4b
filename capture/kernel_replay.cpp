// Recorded kernel launches against their explorations (kernel_replay.hpp).
#include "capture/kernel_replay.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <thread>

#include "capture/format.hpp"
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

LaunchRecord parse_launch_record(std::string_view text, const std::string& file, std::size_t line) {
  auto fail = [&](const std::string& what) -> LaunchRecord {
    throw model::FormatError(file, line, what);
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return fail(std::string("not a JSON object: ") + e.what());
  }
  if (!j.is_object()) return fail("expected a launch record (a JSON object)");
  LaunchRecord r;
  try {
    r.kernel = j.at("kernel").get<std::string>();
    r.run = j.value("run", 0u);
    r.status = j.at("status").get<std::string>();
    if (r.status != "completed" && r.status != "hang" && r.status != "error")
      return fail("status \"" + r.status + "\": expected completed, hang or error");
    r.error = j.value("error", "");
    r.device = j.value("device", "");
    // The runner records the driver API version as a number (13000 is 13.0).
    if (const auto d = j.find("driver"); d != j.end() && d->is_number_unsigned())
      r.driver = std::to_string(d->get<unsigned>() / 1000) + "." +
                 std::to_string(d->get<unsigned>() % 1000 / 10);
    else
      r.driver = j.value("driver", "");
    if (r.status == "completed")
      for (const auto& b : j.at("buffers")) {
        if (b.is_null())
          r.buffers.emplace_back();
        else
          r.buffers.emplace_back(b.get<std::vector<uint32_t>>());
      }
  } catch (const nlohmann::json::exception& e) {
    return fail(std::string("launch record: ") + e.what());
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
  const std::string text = read_text(index);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw model::FormatError(index.string(), 1, std::string("not JSON: ") + e.what());
  }
  const fs::path dir = index.parent_path();
  std::vector<KernelSet> sets;
  try {
    for (const auto& s : j.at("sets")) {
      KernelSet k;
      k.name = s.at("name").get<std::string>();
      for (const auto& m : s.at("manifests")) k.manifests.push_back(dir / m.get<std::string>());
      for (const auto& r : s.at("records")) k.records.push_back(dir / r.get<std::string>());
      k.sample = std::max(1u, s.value("sample", 1u));
      sets.push_back(std::move(k));
    }
  } catch (const nlohmann::json::exception& e) {
    throw model::FormatError(index.string(), 1, std::string("kernel sets: ") + e.what());
  }
  return sets;
}

namespace {

// A kernel of a manifest: its launch and where its PTX lies.
struct Kernel {
  nlohmann::json entry;
  fs::path ptx;
  std::string manifest;
};

std::map<std::string, Kernel> read_manifests(const std::vector<fs::path>& manifests) {
  std::map<std::string, Kernel> kernels;
  for (const auto& m : manifests) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(read_text(m));
      for (const auto& k : j.at("kernels")) {
        fs::path ptx = m.parent_path() / k.at("ptx").get<std::string>();
        if (!fs::exists(ptx) && fs::exists(ptx.string() + ".gz")) ptx += ".gz";
        kernels[k.at("name").get<std::string>()] = {k, ptx, m.string()};
      }
    } catch (const nlohmann::json::exception& e) {
      throw model::FormatError(m.string(), 1, std::string("kernel manifest: ") + e.what());
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
  for (const auto& file : set.records) {
    std::istringstream lines(read_text(file));
    std::size_t line_no = 0;
    for (std::string line; std::getline(lines, line);) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (seen++ % std::max(1u, every) != 0) continue;
      auto r = parse_launch_record(line, file.string(), line_no);
      const auto k = kernels.find(r.kernel);
      if (k == kernels.end())
        throw model::FormatError(file.string(), line_no,
                                 "kernel \"" + r.kernel + "\" is in none of the set's manifests");
      // A completed launch has one entry per parameter: a buffer's words, null for a scalar.
      if (r.status == "completed") {
        const auto& params = k->second.entry.at("params");
        if (r.buffers.size() != params.size())
          throw model::FormatError(file.string(), line_no,
                                   "buffers: " + std::to_string(r.buffers.size()) +
                                       " entries, but " + r.kernel + " takes " +
                                       std::to_string(params.size()) + " parameters");
        for (std::size_t i = 0; i < params.size(); ++i)
          if (r.buffers[i].has_value() == params[i].contains("value"))
            throw model::FormatError(
                file.string(), line_no,
                "buffers[" + std::to_string(i) + "]: expected " +
                    (params[i].contains("value") ? "null for a scalar" : "the buffer's words"));
      }
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
          const auto read =
              programs::read_ptx(ptx_text.at(k.ptx), k.entry.at("entry").get<std::string>());
          if (const auto* p = std::get_if<programs::Program>(&read)) {
            const auto launch = programs::launch_from_json(k.entry, k.manifest);
            results[todo[i]] = programs::explore(*p, launch.launch, options_for(todo[i]));
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
