// hip_cpu_adapter.cpp: runs warpspec conformance vectors (warpspec-vectors/1) on HIP-CPU
// (github:ROCm/HIP-CPU, a header-only CPU implementation of the HIP runtime and device functions)
// through warpspec's C interface, and prints the report `warpspec check` would print.
//
// Usage: hip_cpu_adapter [--timeout-ms N] [--results FILE] [--verbose] VECTORS.jsonl
//
// For every round of every vector, a HIP-CPU kernel is launched (one block: 32 threads for a
// warp vector, the block's thread count for bar.sync) in which each thread reads its lane's
// status: an exited lane returns at once, an inactive lane returns at once without calling the
// collective (it is "elsewhere" and calls nothing), an executing lane calls the HIP intrinsic the
// vector's instruction maps to with its operand (`!a` for a negated predicate) and stores the
// result. Forms HIP-CPU has no intrinsic for are skipped (ws_vectors_skip).
//
// Each vector runs in a forked child (a fresh HIP-CPU runtime: its fibers and scratch state are
// thread- and process-local and may be left mid-kernel by a divergent launch); the rounds of one
// vector run in order in the same child, one kernel launch each. The child sends each finished
// round to the parent through a pipe; a round that has not finished by the deadline (or whose
// child died on a signal) is answered hang=1 and the rounds after it are left unanswered.
//
// The adapter includes HIP-CPU's headers from the checkout given to build.sh; no HIP-CPU code is
// copied here.
#include <hip/hip_runtime.h>

#include "warpspec.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace {

enum Op { OP_SKIP = 0, OP_BALLOT, OP_ANY, OP_ALL, OP_SYNCTHREADS };

const char* op_name(Op op)
{
    switch (op) {
    case OP_BALLOT: return "__ballot";
    case OP_ANY: return "__any";
    case OP_ALL: return "__all";
    case OP_SYNCTHREADS: return "__syncthreads";
    default: return "(none)";
    }
}

// The HIP intrinsic a catalog form maps to on HIP-CPU; OP_SKIP where HIP-CPU has none.
// HIP-CPU (commit e112c93) offers __ballot/__any/__all (no *_sync variants, no membermask),
// __syncthreads, and none of __ballot_sync, __any_sync, __all_sync, __match_any_sync,
// __match_all_sync, __reduce_*_sync, __syncwarp, __syncthreads_count/_and/_or; vote.uni has no
// HIP intrinsic at all.
Op map_form(const char* form)
{
    if (!std::strcmp(form, "vote.sync.ballot.b32")) return OP_BALLOT;
    if (!std::strcmp(form, "vote.sync.any.pred")) return OP_ANY;
    if (!std::strcmp(form, "vote.sync.all.pred")) return OP_ALL;
    if (!std::strcmp(form, "bar.sync")) return OP_SYNCTHREADS;
    return OP_SKIP;
}

// The kernel's inputs and outputs: plain globals (HIP-CPU kernels run in this process).
struct Lane_io {
    std::uint8_t status[WS_MAX_THREADS];
    std::int32_t a[WS_MAX_THREADS];
    std::uint32_t d[WS_MAX_THREADS];
    std::uint8_t present[WS_MAX_THREADS];
    std::uint32_t entries[WS_MAX_THREADS]; // how often the kernel body ran for this thread
    int negate;
    int test_hang; // WS_HIPCPU_TEST_HANG=1: executing lanes never return (tests the deadline)
    Op op;
};
Lane_io g_io;

__global__ void collective_kernel(Lane_io* io)
{
    const unsigned t = threadIdx.x;
    io->entries[t] += 1;
    if (io->status[t] != WS_EXECUTES) return; // exited, or inactive: calls no collective

    // The predicate as the intrinsics take it: an int, non-zero is true; `!a` when negated.
    const std::int32_t pred = io->negate ? !io->a[t] : io->a[t];
    std::uint32_t d = 0;
    while (io->test_hang) { __syncthreads(); }
    switch (io->op) {
    case OP_BALLOT:
        // warpSize is 64 on HIP-CPU: the ballot is 64 bits; the vector's 32 lanes are lanes
        // 0..31 of the one (partial) 64-wide warp; the low 32 bits are vote.ballot.b32's d.
        d = static_cast<std::uint32_t>(__ballot(pred));
        break;
    case OP_ANY: d = __any(pred) != 0; break;
    case OP_ALL: d = __all(pred) != 0; break;
    case OP_SYNCTHREADS: __syncthreads(); d = 1; break; // "resumed"
    default: return;
    }
    io->d[t] = d;
    io->present[t] = 1;
}

// One round's message from the child: round index, then d[], present[], entries[].
struct Round_msg {
    std::uint32_t k;
    std::uint32_t threads;
    std::uint32_t d[WS_MAX_THREADS];
    std::uint8_t present[WS_MAX_THREADS];
    std::uint32_t entries[WS_MAX_THREADS];
};

bool write_all(int fd, const void* p, size_t n)
{
    const char* c = static_cast<const char*>(p);
    while (n) {
        ssize_t w = ::write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        c += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

struct Round_in {
    size_t threads;
    std::uint8_t status[WS_MAX_THREADS];
    std::int32_t a[WS_MAX_THREADS];
};

[[noreturn]] void child_main(int fd, Op op, int negate, const std::vector<Round_in>& rounds)
{
    static Round_msg msg;
    for (size_t k = 0; k < rounds.size(); ++k) {
        const Round_in& r = rounds[k];
        std::memcpy(g_io.status, r.status, r.threads);
        std::memcpy(g_io.a, r.a, r.threads * sizeof(std::int32_t));
        std::memset(g_io.d, 0, sizeof g_io.d);
        std::memset(g_io.present, 0, sizeof g_io.present);
        std::memset(g_io.entries, 0, sizeof g_io.entries);
        g_io.negate = negate;
        g_io.op = op;
        g_io.test_hang = std::getenv("WS_HIPCPU_TEST_HANG") != nullptr;
        hipLaunchKernelGGL(collective_kernel, dim3(1), dim3(static_cast<unsigned>(r.threads)), 0,
                           nullptr, &g_io);
        if (hipDeviceSynchronize() != hipSuccess) _exit(3);
        msg.k = static_cast<std::uint32_t>(k);
        msg.threads = static_cast<std::uint32_t>(r.threads);
        std::memcpy(msg.d, g_io.d, sizeof msg.d);
        std::memcpy(msg.present, g_io.present, sizeof msg.present);
        std::memcpy(msg.entries, g_io.entries, sizeof msg.entries);
        if (!write_all(fd, &msg, sizeof msg)) _exit(4);
    }
    _exit(0);
}

double now_ms()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct Counters {
    unsigned long run = 0, skipped = 0, hung = 0, crashed = 0, reentered = 0;
};

} // namespace

int main(int argc, char** argv)
{
    const char* path = nullptr;
    const char* results_path = nullptr;
    int timeout_ms = 2000;
    bool verbose = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--timeout-ms") && i + 1 < argc) timeout_ms = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--results") && i + 1 < argc) results_path = argv[++i];
        else if (!std::strcmp(argv[i], "--verbose") || !std::strcmp(argv[i], "-v")) verbose = true;
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "usage: %s [--timeout-ms N] [--results FILE] [--verbose] VECTORS.jsonl\n", argv[0]);
            return 64;
        } else path = argv[i];
    }
    if (!path) {
        std::fprintf(stderr, "usage: %s [--timeout-ms N] [--results FILE] [--verbose] VECTORS.jsonl\n", argv[0]);
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);

    ws_vectors* vs = nullptr;
    if (ws_vectors_open(path, &vs) != WS_OK) {
        std::fprintf(stderr, "%s\n", ws_last_error());
        return 65;
    }
    Counters c;
    ws_vector v;
    ws_status st;
    static Round_msg msg;
    while ((st = ws_vectors_next(vs, &v)) == WS_OK) {
        const char* form = ws_instr_form(v.instr);
        const char* text = ws_instr_text(v.instr);
        const Op op = map_form(form);
        if (op == OP_SKIP) {
            ws_vectors_skip(vs);
            ++c.skipped;
            continue;
        }
        const int negate = std::strstr(text, "!a") != nullptr;
        if (verbose)
            std::fprintf(stderr, "vector %llu: %s -> %s(%s)\n", (unsigned long long)v.id, text,
                         op_name(op), op == OP_SYNCTHREADS ? "" : (negate ? "!a" : "a"));

        // Gather the rounds' states first (the child only sees plain arrays).
        std::vector<Round_in> rounds(v.rounds);
        for (size_t k = 0; k < v.rounds; ++k) {
            Round_in& r = rounds[k];
            if (v.is_block) {
                static ws_block_state b;
                ws_vectors_round_block(vs, k, &b, nullptr);
                r.threads = b.threads;
                for (size_t t = 0; t < b.threads; ++t) {
                    r.status[t] = b.status[t];
                    r.a[t] = static_cast<std::int32_t>(b.pred[t]);
                }
            } else {
                ws_warp_state s;
                ws_vectors_round_warp(vs, k, &s, nullptr);
                r.threads = WS_LANES;
                for (size_t t = 0; t < WS_LANES; ++t) {
                    r.status[t] = s.status[t];
                    r.a[t] = static_cast<std::int32_t>(static_cast<std::uint32_t>(s.a[t]));
                }
            }
        }

        int fds[2];
        if (pipe(fds) != 0) { perror("pipe"); return 70; }
        std::fflush(stdout);
        std::fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 70; }
        if (pid == 0) {
            close(fds[0]);
            child_main(fds[1], op, negate, rounds);
        }
        close(fds[1]);
        ++c.run;

        // Read rounds until all arrived, the child died, or the deadline passed.
        size_t done = 0;
        size_t got = 0; // bytes of the current message
        bool hang = false, crash = false;
        const double deadline = now_ms() + timeout_ms * static_cast<double>(v.rounds);
        while (done < v.rounds) {
            const double left = deadline - now_ms();
            if (left <= 0) { hang = true; break; }
            pollfd p{fds[0], POLLIN, 0};
            int pr = poll(&p, 1, static_cast<int>(left) + 1);
            if (pr < 0) { if (errno == EINTR) continue; perror("poll"); return 70; }
            if (pr == 0) continue;
            ssize_t n = read(fds[0], reinterpret_cast<char*>(&msg) + got, sizeof msg - got);
            if (n < 0) { if (errno == EINTR) continue; perror("read"); return 70; }
            if (n == 0) { crash = true; break; } // the child ended before sending every round
            got += static_cast<size_t>(n);
            if (got < sizeof msg) continue;
            got = 0;
            const size_t T = msg.threads;
            bool reenter = false;
            for (size_t t = 0; t < T; ++t) reenter |= msg.entries[t] != 1;
            if (reenter) {
                ++c.reentered;
                if (verbose) {
                    std::fprintf(stderr, "vector %llu round %u: kernel body entries per thread:",
                                 (unsigned long long)v.id, msg.k);
                    for (size_t t = 0; t < T; ++t) std::fprintf(stderr, " %u", msg.entries[t]);
                    std::fprintf(stderr, "\n");
                }
            }
            if (v.is_block) {
                ws_vectors_answer_block(vs, msg.k, msg.d, msg.present, 0);
            } else {
                ws_vectors_answer_warp(vs, msg.k, msg.d, nullptr, msg.present, 0);
            }
            ++done;
        }
        int wstatus = 0;
        if (hang) {
            kill(pid, SIGKILL);
            waitpid(pid, &wstatus, 0);
        } else {
            waitpid(pid, &wstatus, 0);
        }
        close(fds[0]);
        if (hang || crash) {
            // The round in progress did not complete: a hang (a crash is reported the same way:
            // the collective never returned a result).
            if (v.is_block) ws_vectors_answer_block(vs, done, nullptr, nullptr, 1);
            else ws_vectors_answer_warp(vs, done, nullptr, nullptr, nullptr, 1);
            if (hang) ++c.hung; else ++c.crashed;
            if (verbose)
                std::fprintf(stderr, "vector %llu (%s) round %zu: %s\n", (unsigned long long)v.id,
                             form, done,
                             hang ? "timed out (hang)"
                                  : (WIFSIGNALED(wstatus) ? strsignal(WTERMSIG(wstatus)) : "child exited early"));
        }
    }
    if (st != WS_END) {
        std::fprintf(stderr, "%s\n", ws_last_error());
        return 65;
    }
    if (results_path) {
        char* res = ws_vectors_results(vs);
        FILE* f = std::fopen(results_path, "w");
        if (!f || !res) { std::fprintf(stderr, "cannot write %s\n", results_path); return 73; }
        std::fputs(res, f);
        std::fclose(f);
        ws_free(res);
    }
    ws_report* r = nullptr;
    if (ws_vectors_check(vs, &r) != WS_OK) {
        std::fprintf(stderr, "%s\n", ws_last_error());
        return 70;
    }
    std::fputs(ws_report_text(r), stdout);
    std::printf("hip_cpu_adapter: %llu vectors, %llu compared, %llu mismatches\n",
                (unsigned long long)ws_report_vectors(r), (unsigned long long)ws_report_compared(r),
                (unsigned long long)ws_report_mismatches(r));
    std::printf("hip_cpu_adapter: %lu vectors run on HIP-CPU, %lu skipped (no HIP-CPU intrinsic), "
                "%lu hung (deadline %d ms a round), %lu crashed, %lu rounds where some thread's "
                "kernel body ran other than once\n",
                c.run, c.skipped, c.hung, timeout_ms, c.crashed, c.reentered);
    const int bad = ws_report_mismatches(r) != 0 ? 1 : (ws_report_compared(r) == 0 ? 2 : 0);
    ws_report_free(r);
    ws_vectors_close(vs);
    return bad;
}
