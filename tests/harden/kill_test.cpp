// An output file is never seen half-written. `warpspec vectors -o FILE` killed with SIGKILL in the
// middle of writing leaves the old FILE (or none); a write that fails leaves the old FILE and exit
// 73; a finished run leaves the whole file and no temporary.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// A fresh folder of the test's own.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(WARPSPEC_TEST_WORK) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// How the writer's run is arranged before it starts.
enum class Setup {
  Plain,
  Pipe,      // its temporary file is a pipe the test reads: the writer is stopped mid-file
  FileSize,  // files may not grow past 64 KiB: the write fails part way
};

// Runs `warpspec vectors ... -o out` in a child; returns its pid.
pid_t start_writer(const fs::path& out, const std::string& count, Setup setup) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int null = ::open("/dev/null", O_WRONLY);
  dup2(null, 1);
  dup2(null, 2);
  if (setup == Setup::Pipe) {
    // The writer's temporary name is "<out>.tmp-<its pid>", and exec keeps the pid.
    const auto tmp = out.string() + ".tmp-" + std::to_string(getpid());
    if (mkfifo(tmp.c_str(), 0600) != 0) _exit(126);
  }
  if (setup == Setup::FileSize) {
    const rlimit lim{64 << 10, 64 << 10};
    setrlimit(RLIMIT_FSIZE, &lim);
    signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead
  }
  execl(WARPSPEC_BIN, "warpspec", "vectors", "--form", "vote.sync.ballot.b32", "--count",
        count.c_str(), "-o", out.c_str(), static_cast<char*>(nullptr));
  _exit(127);
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

// Reads the first `n` bytes the writer sends through its temporary file, then kills it while it
// waits to write the rest. Returns what was read.
std::string kill_mid_write(const fs::path& out, pid_t pid, std::size_t n) {
  const auto tmp = out.string() + ".tmp-" + std::to_string(pid);
  // The pipe exists once the child has made it; opening it waits for the writer.
  int fd = -1;
  for (int i = 0; i < 20000 && fd < 0; ++i) {
    fd = ::open(tmp.c_str(), O_RDONLY | O_NONBLOCK);
    if (fd < 0) usleep(1000);
  }
  std::string got;
  pollfd pfd{fd, POLLIN, 0};
  if (fd >= 0 && poll(&pfd, 1, 120000) == 1) {  // the writer has opened it and sent something
    fcntl(fd, F_SETFL, 0);                      // blocking reads from here on
    char buf[4096];
    while (got.size() < n) {
      const auto k = ::read(fd, buf, sizeof buf);
      if (k <= 0) break;
      got.append(buf, static_cast<std::size_t>(k));
    }
  }
  kill(pid, SIGKILL);
  const int status = wait_for(pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the writer ended before it was killed";
  if (fd >= 0) ::close(fd);
  return got;
}

}  // namespace

TEST(AtomicOutput, AWriterKilledMidFileLeavesTheOldFile) {
  const auto dir = scratch("killed_old");
  const auto out = dir / "suite.jsonl";
  const std::string old = "the previous suite\n";
  std::ofstream(out) << old;
  const pid_t pid = start_writer(out, "2000", Setup::Pipe);
  ASSERT_GT(pid, 0);
  const auto sent = kill_mid_write(out, pid, 256 << 10);
  // The writer had sent a quarter of a megabyte of the new file when it died.
  EXPECT_GE(sent.size(), std::size_t{256 << 10});
  EXPECT_TRUE(sent.starts_with("{\"schema\":\"warpspec-vectors/1\""));
  EXPECT_EQ(contents(out), old) << "the killed writer replaced the file";
  fs::remove_all(dir);
}

TEST(AtomicOutput, AWriterKilledMidFileLeavesNoFile) {
  const auto dir = scratch("killed_none");
  const auto out = dir / "suite.jsonl";
  const pid_t pid = start_writer(out, "2000", Setup::Pipe);
  ASSERT_GT(pid, 0);
  const auto sent = kill_mid_write(out, pid, 256 << 10);
  EXPECT_GE(sent.size(), std::size_t{256 << 10});
  EXPECT_FALSE(fs::exists(out)) << "a partial file appeared under the final name";
  fs::remove_all(dir);
}

TEST(AtomicOutput, AFailedWriteExits73AndKeepsTheOldFile) {
  const auto dir = scratch("failed");
  const auto out = dir / "suite.jsonl";
  const std::string old = "the previous suite\n";
  std::ofstream(out) << old;
  const int status = wait_for(start_writer(out, "2000", Setup::FileSize));
  ASSERT_TRUE(WIFEXITED(status)) << "the writer died instead of reporting the failed write";
  EXPECT_EQ(WEXITSTATUS(status), 73);
  EXPECT_EQ(contents(out), old);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "suite.jsonl") << "left behind: " << e.path();
  fs::remove_all(dir);
}

TEST(AtomicOutput, AFinishedWriterLeavesTheWholeFileAndNoTemporary) {
  const auto dir = scratch("finished");
  const auto out = dir / "suite.jsonl";
  std::ofstream(out) << "the previous suite\n";
  const int status = wait_for(start_writer(out, "50", Setup::Plain));
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // The header's count matches the vector lines that follow it.
  std::istringstream in(contents(out));
  std::string header, line;
  std::getline(in, header);
  std::size_t lines = 0;
  while (std::getline(in, line)) ++lines;
  const auto at = header.find("\"vectors\":");
  ASSERT_NE(at, std::string::npos) << header;
  EXPECT_EQ(std::stoul(header.substr(at + 10)), lines);
  EXPECT_GE(lines, 50u);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "suite.jsonl") << "left behind: " << e.path();
  fs::remove_all(dir);
}
