#pragma once
// Settings that belong to a whole process, made by the programs that own one (the CLI, the test
// runners), never by the library on its own: a simulator that links warpspec keeps its own.

namespace warpspec::model {

/// Keeps memory that the process frees for its own later use instead of handing it back to the
/// kernel at once. Z3 allocates and frees hundreds of megabytes in every query; with glibc's
/// defaults each query maps them afresh and touches them page by page, and on a virtual machine
/// those page faults were up to two thirds of a proof's time. Costs a larger resident size at
/// the peak. Does nothing where the C library is not glibc.
void keep_freed_memory();

}  // namespace warpspec::model
