#pragma once
// The capture format (docs/capture-format.md): JSON Lines, optionally gzip-compressed, holding
// what real hardware returned for each warp or block state. This library reads and writes it and
// turns records into model states; it needs neither CUDA nor a GPU.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "model/eval.hpp"
#include "model/input.hpp"
#include "spec/catalog.hpp"
#include "spec/target.hpp"

namespace warpspec::json {
class Document;
struct Line;
}  // namespace warpspec::json

namespace warpspec::capture {

/// The schema string every capture file's header carries.
inline constexpr std::string_view kSchema = "warpspec-capture/1";

/// First line of a capture file: where and how the records were taken.
struct Header {
  std::string device;    ///< e.g. "NVIDIA H100 80GB HBM3"
  std::string sm;        ///< target of the device, e.g. "sm_90"
  std::string driver;    ///< CUDA driver API version, e.g. "13.0"
  std::string runtime;   ///< CUDA runtime version, e.g. "13.0"
  std::string compiler;  ///< compiler that built the harness, e.g. "nvcc 13.0.88"
  std::string ptx;       ///< PTX ISA version the inline PTX was compiled at, e.g. "9.0"
  std::string set;       ///< which generator set produced the records, e.g. "main"
  uint64_t seed = 0;     ///< generator seed (records are reproducible from it)
};

/// How the instruction was written in the harness.
enum class Via : uint8_t { Ptx, Intrinsic };

/// One warp state, the instruction it ran, and what each lane observed.
struct WarpRecord {
  spec::FormId form = spec::FormId::MatchAnyB32;
  Via via = Via::Ptx;
  std::string instr;  ///< PTX text (via ptx), e.g. "vote.sync.all.pred d, !a, membermask;"
  std::string call;   ///< intrinsic name (via intrinsic), e.g. "__match_any_sync"
  spec::CType ctype = spec::CType::Void;  ///< C type of the intrinsic's value argument
  bool negate = false;                    ///< the source predicate is written `!a`
  std::string tag;                        ///< generator pattern, e.g. "groups/tile8+two-site"
  std::array<model::LaneStatus, spec::kWarpSize> status{};
  std::array<uint32_t, spec::kWarpSize> mask{};
  std::array<uint64_t, spec::kWarpSize> a{};
  std::array<uint32_t, spec::kWarpSize> site{};
  std::array<uint32_t, spec::kWarpSize> b{};  ///< shuffles: b per lane (source lane or offset)
  std::array<uint32_t, spec::kWarpSize> c{};  ///< shuffles: c per lane as the instruction got it
                                              ///< (an intrinsic's width already turned into c)
  std::optional<std::array<uint32_t, spec::kWarpSize>> width;  ///< shuffle intrinsics: the width
                                                               ///< each lane passed
  bool has_d = false;  ///< the instruction writes d (every form but `_|p` match.all)
  bool has_p = false;  ///< the instruction writes p (match.all `d|p`)
  std::string fault;   ///< non-empty when the launch running this one state failed
                       ///< (e.g. "cudaErrorIllegalInstruction"): no d or p then
  std::array<uint32_t, spec::kWarpSize> d{};  ///< observed d; meaningful on executing lanes
  std::array<bool, spec::kWarpSize> p{};      ///< observed p; meaningful on executing lanes
  std::optional<std::array<uint32_t, spec::kWarpSize>> active;  ///< __activemask() just before
                                                                ///< the instruction, if recorded
};

/// One thread block at a block barrier and what each thread observed. A thread has exited, sits
/// elsewhere (alive, at no barrier), or arrives: through the instruction itself, or through its
/// partner form (spec::partner_name) where `partner` says so. The instruction as written
/// (`instr`, or the intrinsic, which is barrier 0 without a count) says whether a and b are
/// immediates; where one is a register, `bar` or `count` holds each thread's value.
struct CtaRecord {
  spec::FormId form = spec::FormId::BarSync;
  Via via = Via::Ptx;
  std::string instr;
  std::string call;
  spec::CType ctype = spec::CType::Void;
  bool negate = false;
  std::string tag;
  std::vector<bool> exited;     ///< per thread: exited before the barrier
  std::vector<bool> elsewhere;  ///< per thread: alive, at no barrier (empty: none)
  std::vector<bool> partner;    ///< per thread: arrives through the partner form (empty: none)
  std::vector<uint32_t> pred;   ///< per thread predicate value (non-zero is true)
  std::vector<uint32_t> bar;    ///< per thread barrier number a, where a is a register (else empty)
  std::vector<uint32_t> count;  ///< per thread thread count b, where b is a register (else empty)
  std::vector<uint32_t> d;      ///< per thread observed result; meaningful where the thread
                                ///< executes the instruction and came back from it
  /// Per thread: came back from its barrier instruction (the instruction or the partner form).
  /// Absent in the __syncthreads family's records, whose harness let no arriving thread stay.
  std::optional<std::vector<bool>> ran;
  std::string fault;  ///< non-empty when the launch holding this block failed or did not return
                      ///< in time ("hang (no return within 3 s)"); `ran` then says who came back

  /// Thread t arrives at a barrier (through the instruction or its partner form).
  bool arrives(std::size_t t) const {
    return !exited[t] && !(elsewhere.size() > t && elsewhere[t]);
  }
  /// Thread t executes the instruction itself.
  bool executes(std::size_t t) const { return arrives(t) && !(partner.size() > t && partner[t]); }
  /// Thread t came back from its barrier instruction (every arriving thread, without `ran`).
  bool came_back(std::size_t t) const { return arrives(t) && (!ran || (*ran)[t]); }
};

/// A record of either kind.
using Record = std::variant<WarpRecord, CtaRecord>;

/// A malformed capture file: the one input error type (model/input.hpp).
using FormatError = model::FormatError;

/// A capture file that does not exist or cannot be opened: the one missing-input error.
using MissingFile = model::MissingInput;

/// The bytes of a file, inflated where it is gzip-compressed (told by its first two bytes).
class FileBytes {
 public:
  /// Opens `path`; throws MissingFile. `line` gives the number of the last line read, which a
  /// FormatError about a damaged gzip stream names (the line after it).
  FileBytes(const std::filesystem::path& path, std::function<std::size_t()> line);
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  /// Up to `cap` decoded bytes; 0 at the end. Throws FormatError on a damaged gzip stream.
  std::size_t read(char* out, std::size_t cap);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The whole text of a file, plain or gzip; throws MissingFile or FormatError.
std::string read_text(const std::filesystem::path& path);

/// Reads a capture file record by record (plain or gzip, detected from the content).
class Reader {
 public:
  /// Opens `path` and reads its header; throws MissingFile or FormatError.
  explicit Reader(const std::filesystem::path& path);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  /// The header line.
  const Header& header() const { return header_; }
  /// Reads the next record into `out`; false at the end of the file. Throws FormatError.
  bool next(Record& out);
  /// 1-based line number of the record last returned.
  std::size_t line() const { return line_; }
  /// The path as given.
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  Header header_;
  std::size_t line_ = 0;
};

/// Writes a capture file: to `path`.tmp first, renamed on close; gzip when `path` ends in ".gz".
class Writer {
 public:
  /// Creates the temporary file and writes the header; throws std::runtime_error on failure.
  Writer(const std::filesystem::path& path, const Header& header);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  /// Appends one record.
  void write(const Record& r);
  /// Flushes and renames the file into place; throws std::runtime_error on failure.
  void close();

 private:
  void put(const std::string& line);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::filesystem::path path_, tmp_;
};

/// The header as one JSON line (no newline).
std::string to_line(const Header& h);
/// A record as one JSON line (no newline).
std::string to_line(const Record& r);
/// Parses a header line; throws FormatError naming `file` and `line`.
Header parse_header(const std::string& text, const std::string& file, std::size_t line);
/// Parses a record line; throws FormatError naming `file` and `line`.
Record parse_record(const std::string& text, const std::string& file, std::size_t line);
/// The same, for a line of a json::LineReader read by `doc` (no copy; json/read.hpp).
Header parse_header(json::Document& doc, const json::Line& line);
Record parse_record(json::Document& doc, const json::Line& line);

/// The instruction instance a warp record ran.
spec::Instr instr_of(const WarpRecord& r);
/// The model's view of a warp record's state.
model::Warp warp_of(const WarpRecord& r);
/// The instruction instance a block record ran: its PTX text as the parser reads it, or for an
/// intrinsic barrier 0 without a count. Throws std::invalid_argument on text that does not parse
/// (the reader refuses such records).
spec::Instr instr_of(const CtaRecord& r);
/// The model's view of a block record's state.
model::Cta cta_of(const CtaRecord& r);
/// A short description of how the record's instruction was written: the PTX text, or
/// "__match_any_sync(float)".
std::string invocation(const Record& r);

}  // namespace warpspec::capture
