#!/usr/bin/env bash
# Builds the kernel runner (capture/harness/run_kernels.cpp, CUDA driver API) into build-kernels/.
# Run it on a machine with the GPU:
#
#   capture/run_kernels.sh                      # build only
#   build-kernels/run-kernels tests/data/programs/corpus/expect.json OUT.jsonl --repeat 5
#
# It links the driver's libcuda through the toolkit's stub, so it builds without a GPU.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$here/build-kernels"
g++ -std=c++20 -O2 -Wall -Wextra -I"$cuda/include" "$here/capture/harness/run_kernels.cpp" \
    -L"$cuda/lib64/stubs" -lcuda -static-libstdc++ -static-libgcc -o "$here/build-kernels/run-kernels"
echo "built $here/build-kernels/run-kernels"
