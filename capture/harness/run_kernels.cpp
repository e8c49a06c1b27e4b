// Runs kernels from their PTX on the GPU, as `warpspec run` explores them, and records what the
// hardware did: the final buffers of each launch, or that it trapped or hung.
//
//   run-kernels MANIFEST.json OUT.jsonl [--repeat N] [--deadline-ms MS] [--only NAME]
//
// MANIFEST is the corpus manifest (tests/data/programs/corpus/expect.json): per kernel its PTX
// file (beside the manifest), entry, threads and params, in the launch form `warpspec run
// --launch` reads. The launches run in a child process, one after another: the parent gives each
// until the deadline (2000 ms by default) to answer and then kills the process, which ends its
// context and the kernel with it, so a hang is recorded, nothing is left running on the GPU,
// and a new child goes on with the next launch (as it does after a launch that failed). A
// module's .cubin beside its .ptx is loaded instead of the PTX when it is there. Each launch writes
// one JSON line: {"kernel", "run", "status": "completed" | "error" | "hang", "error", "buffers":
// [per parameter its words, or null for a scalar], "device", "driver"}.
//
// Needs the CUDA driver API (cuda.h, libcuda); built by capture/run_kernels.sh.
#include <cuda.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_text(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA_ERROR") + ": " + (text ? text : "");
}

// The GPU side of a child process: one context, each module loaded once (its .cubin beside the
// .ptx when there is one, so that the driver need not compile the PTX in every child).
struct Gpu {
  CUcontext ctx = nullptr;
  json info = json::object();
  std::string error;
  std::map<std::string, CUmodule> modules;
};

bool open_gpu(Gpu& g) {
  CUdevice dev;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) r = cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS) r = cuDevicePrimaryCtxRetain(&g.ctx, dev);
  if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(g.ctx);
  if (r != CUDA_SUCCESS) {
    g.error = "opening the GPU: " + error_text(r);
    return false;
  }
  char name[256] = {};
  cuDeviceGetName(name, sizeof name, dev);
  int driver = 0;
  cuDriverGetVersion(&driver);
  g.info = {{"device", name}, {"driver", driver}};
  return true;
}

// One launch of kernel `k` (whose PTX is the file `ptx_path`): the JSON line, without kernel
// and run.
json launch(Gpu& g, const std::string& ptx_path, const json& k) {
  json out = g.info;
  out["status"] = "error";
  auto check = [&](CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return true;
    out["error"] = std::string(what) + ": " + error_text(r);
    return false;
  };
  if (!g.modules.count(ptx_path)) {
    CUmodule mod;
    const std::string cubin = ptx_path.substr(0, ptx_path.size() - 4) + ".cubin";
    std::ifstream probe(cubin);
    const std::string image = probe ? slurp(cubin) : slurp(ptx_path);
    if (!check(cuModuleLoadData(&mod, image.data()), "cuModuleLoadData")) return out;
    g.modules[ptx_path] = mod;
  }
  CUfunction fn;
  if (!check(cuModuleGetFunction(&fn, g.modules[ptx_path], k["entry"].get<std::string>().c_str()),
             "cuModuleGetFunction"))
    return out;
  // Parameters: scalars as 32-bit words (the kernels take unsigned), buffers as device pointers
  // to their words.
  const auto& params = k["params"];
  std::vector<CUdeviceptr> ptrs(params.size(), 0);
  std::vector<unsigned> scalars(params.size(), 0);
  std::vector<std::vector<uint32_t>> host(params.size());
  std::vector<void*> args;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (p.contains("words")) host[i] = p["words"].get<std::vector<uint32_t>>();
    if (p.contains("zeros")) host[i].assign(p["zeros"].get<std::size_t>(), 0);
    if (p.contains("value")) {
      scalars[i] = static_cast<unsigned>(p["value"].get<int64_t>());
      args.push_back(&scalars[i]);
      continue;
    }
    const std::size_t bytes = std::max<std::size_t>(4, 4 * host[i].size());
    if (!check(cuMemAlloc(&ptrs[i], bytes), "cuMemAlloc")) return out;
    if (!host[i].empty() &&
        !check(cuMemcpyHtoD(ptrs[i], host[i].data(), 4 * host[i].size()), "cuMemcpyHtoD"))
      return out;
    args.push_back(&ptrs[i]);
  }
  const unsigned threads = k["threads"].get<unsigned>();
  if (!check(cuLaunchKernel(fn, 1, 1, 1, threads, 1, 1, 0, nullptr, args.data(), nullptr),
             "cuLaunchKernel") ||
      !check(cuCtxSynchronize(), "the kernel"))
    return out;
  json buffers = json::array();
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].contains("value")) {
      buffers.push_back(nullptr);
      continue;
    }
    if (!host[i].empty() &&
        !check(cuMemcpyDtoH(host[i].data(), ptrs[i], 4 * host[i].size()), "cuMemcpyDtoH"))
      return out;
    buffers.push_back(host[i]);
    cuMemFree(ptrs[i]);
  }
  out["status"] = "completed";
  out["buffers"] = buffers;
  return out;
}

// One launch to make: a kernel of the manifest, its PTX file and the run number.
struct Job {
  const json* kernel;
  std::string ptx;
  int run;
};

// The child: runs jobs[from..] one after another, one JSON line each, flushed at once, so that
// the parent sees how far it got when it has to stop it.
[[noreturn]] void child(const std::vector<Job>& jobs, std::size_t from, int fd) {
  Gpu g;
  const bool ok = open_gpu(g);
  // "ready": the deadline of the first launch starts after the GPU is set up.
  if (write(fd, "ready\n", 6) < 0) _exit(2);
  for (std::size_t j = from; j < jobs.size(); ++j) {
    json r;
    try {
      r = ok ? launch(g, jobs[j].ptx, *jobs[j].kernel)
             : json{{"status", "error"}, {"error", g.error}};
    } catch (const std::exception& e) {
      r = {{"status", "error"}, {"error", e.what()}};
    }
    const std::string line = r.dump() + "\n";
    if (write(fd, line.data(), line.size()) < 0) _exit(2);
    // A failed launch leaves the context unusable: the next job gets a fresh process.
    if (r["status"] != "completed") _exit(0);
  }
  _exit(0);
}

// Runs every job, a child process at a time; a job that does not answer within the deadline is
// a hang, its process is killed (which ends the kernel) and a new one goes on after it.
void run_jobs(const std::vector<Job>& jobs, int deadline_ms, std::ostream& out) {
  std::size_t next = 0;
  // The answer to job `next`, named and written; the next job is then waited for.
  auto record = [&](json r) {
    r["kernel"] = (*jobs[next].kernel)["name"];
    r["run"] = jobs[next].run;
    out << r.dump() << "\n";
    std::cerr << r["kernel"].get<std::string>() << " run " << jobs[next].run << ": "
              << r["status"].get<std::string>() << "\n";
    ++next;
  };
  while (next < jobs.size()) {
    int fd[2];
    if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      child(jobs, next, fd[1]);
    }
    close(fd[1]);
    std::string pending;
    auto last = std::chrono::steady_clock::now();
    bool hung = false, ended = false;
    while (!hung && !ended) {
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - last)
                              .count();
      if (waited >= deadline_ms) {
        hung = true;
        break;
      }
      pollfd p{fd[0], POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(deadline_ms - waited)) <= 0) continue;
      char buf[65536];
      const ssize_t n = read(fd[0], buf, sizeof buf);
      if (n <= 0) {
        ended = true;
        break;
      }
      pending.append(buf, static_cast<std::size_t>(n));
      for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
        const std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        last = std::chrono::steady_clock::now();
        if (line == "ready") continue;
        record(json::parse(line));
      }
    }
    close(fd[0]);
    if (hung) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (next < jobs.size() && (hung || status != 0)) {
      json r{{"status", hung ? "hang" : "error"}};
      if (!hung) r["error"] = "the process ended during the launch";
      record(std::move(r));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: run-kernels MANIFEST.json OUT.jsonl [--repeat N] [--deadline-ms MS] "
                 "[--only NAME]\n";
    return 64;
  }
  const std::string manifest = argv[1], out_path = argv[2];
  int repeat = 1, deadline_ms = 2000;
  std::string only;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--repeat")
      repeat = std::stoi(argv[i + 1]);
    else if (flag == "--deadline-ms")
      deadline_ms = std::stoi(argv[i + 1]);
    else if (flag == "--only")
      only = argv[i + 1];
    else {
      std::cerr << "run-kernels: unknown flag " << flag << "\n";
      return 64;
    }
  }
  const std::string dir = manifest.substr(0, manifest.find_last_of('/') + 1);
  const json m = json::parse(slurp(manifest));
  std::vector<Job> jobs;
  for (const auto& k : m["kernels"]) {
    if (!only.empty() && k["name"] != only) continue;
    for (int r = 0; r < repeat; ++r) jobs.push_back({&k, dir + k["ptx"].get<std::string>(), r});
  }
  std::ofstream out(out_path);
  run_jobs(jobs, deadline_ms, out);
  return out ? 0 : 73;
}
