// Runs kernels from their PTX on the GPU, as `warpspec run` explores them, and records what the
// hardware did: the final buffers of each launch, or that it trapped or hung.
//
//   run-kernels MANIFEST.json OUT.jsonl [--repeat N] [--deadline-ms MS] [--only NAME]
//
// MANIFEST is the corpus manifest (tests/data/programs/corpus/expect.json): per kernel its PTX
// file (beside the manifest), entry, threads and params, in the launch form `warpspec run
// --launch` reads. Every launch runs in a child process of its own: the parent waits for it until
// the deadline (2000 ms by default) and then kills it, which ends its context and the kernel
// with it, so a hang is recorded and nothing is left running on the GPU. Each launch writes one
// JSON line: {"kernel", "run", "status": "completed" | "error" | "hang", "error", "buffers": [per
// parameter its words, or null for a scalar], "device", "driver"}.
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

// One launch in this (child) process: the JSON line, without kernel and run.
json launch(const std::string& ptx, const json& k) {
  json out{{"status", "error"}};
  auto check = [&](CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return true;
    out["error"] = std::string(what) + ": " + error_text(r);
    return false;
  };
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  if (!check(cuInit(0), "cuInit") || !check(cuDeviceGet(&dev, 0), "cuDeviceGet")) return out;
  char name[256] = {};
  cuDeviceGetName(name, sizeof name, dev);
  int driver = 0;
  cuDriverGetVersion(&driver);
  out["device"] = name;
  out["driver"] = driver;
  if (!check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
      !check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return out;
  if (!check(cuModuleLoadData(&mod, ptx.c_str()), "cuModuleLoadData")) return out;
  if (!check(cuModuleGetFunction(&fn, mod, k["entry"].get<std::string>().c_str()),
             "cuModuleGetFunction"))
    return out;
  // Parameters: scalars as 32-bit words (the corpus' kernels take unsigned), buffers as device
  // pointers to their words.
  std::vector<CUdeviceptr> ptrs;
  std::vector<unsigned> scalars;
  std::vector<std::vector<uint32_t>> host;
  const auto& params = k["params"];
  ptrs.reserve(params.size());
  scalars.reserve(params.size());
  std::vector<void*> args;
  for (const auto& p : params) {
    std::vector<uint32_t> words;
    if (p.contains("words")) words = p["words"].get<std::vector<uint32_t>>();
    if (p.contains("zeros")) words.assign(p["zeros"].get<std::size_t>(), 0);
    host.push_back(words);
    if (p.contains("value")) {
      scalars.push_back(p["value"].get<unsigned>());
      args.push_back(&scalars.back());
      ptrs.push_back(0);
      continue;
    }
    CUdeviceptr d = 0;
    const std::size_t bytes = std::max<std::size_t>(4, 4 * words.size());
    if (!check(cuMemAlloc(&d, bytes), "cuMemAlloc")) return out;
    if (!words.empty() && !check(cuMemcpyHtoD(d, words.data(), 4 * words.size()), "cuMemcpyHtoD"))
      return out;
    ptrs.push_back(d);
    args.push_back(&ptrs.back());
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
  }
  out["status"] = "completed";
  out["buffers"] = buffers;
  return out;
}

// Runs one launch in a child process under a deadline; the child writes its JSON to a pipe.
json run_child(const std::string& ptx, const json& k, int deadline_ms) {
  int fd[2];
  if (pipe(fd) != 0) return {{"status", "error"}, {"error", "pipe failed"}};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    json j;
    try {
      j = launch(ptx, k);
    } catch (const std::exception& e) {
      j = {{"status", "error"}, {"error", e.what()}};
    }
    const std::string s = j.dump();
    if (write(fd[1], s.data(), s.size()) < 0) _exit(2);
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  const auto start = std::chrono::steady_clock::now();
  bool hung = false;
  for (;;) {
    const auto left = deadline_ms - std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::steady_clock::now() - start)
                                        .count();
    if (left <= 0) {
      hung = true;
      break;
    }
    pollfd p{fd[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    char buf[65536];
    const ssize_t n = read(fd[0], buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(fd[0]);
  if (hung) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (hung) return {{"status", "hang"}};
  try {
    return json::parse(text);
  } catch (const std::exception&) {
    return {{"status", "error"}, {"error", "the child process ended without an answer"}};
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
    if (flag == "--repeat") repeat = std::stoi(argv[i + 1]);
    else if (flag == "--deadline-ms") deadline_ms = std::stoi(argv[i + 1]);
    else if (flag == "--only") only = argv[i + 1];
    else {
      std::cerr << "run-kernels: unknown flag " << flag << "\n";
      return 64;
    }
  }
  const std::string dir = manifest.substr(0, manifest.find_last_of('/') + 1);
  const json m = json::parse(slurp(manifest));
  std::ofstream out(out_path);
  for (const auto& k : m["kernels"]) {
    const std::string name = k["name"];
    if (!only.empty() && name != only) continue;
    const std::string ptx = slurp(dir + k["ptx"].get<std::string>());
    for (int r = 0; r < repeat; ++r) {
      json j = run_child(ptx, k, deadline_ms);
      j["kernel"] = name;
      j["run"] = r;
      out << j.dump() << "\n";
      std::cerr << name << " run " << r << ": " << j["status"].get<std::string>() << "\n";
    }
  }
  return out ? 0 : 73;
}
