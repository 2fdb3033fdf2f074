// The tile operations of `cholesky --kernels blas` as registered native functions
// (examples/cholesky/native_tiles.hpp), what can be checked without a GPU: the library
// registers each backend's function under its name (what a worker given
// --native-library runs by), a call that is not one of a factorisation is refused before it
// touches memory (nor is one whose matrix does not fit the memory it is given, in elements
// of its precision, nor one of an unknown precision), a POTRF that meets a matrix that is not
// positive definite fails its own task naming the tile and the routine of its precision, and
// a CUDA tile in a process without the CUDA libraries fails naming the library (what a CUDA
// worker without cuBLAS reports to rank 0).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "../runtime/runtime_test_support.hpp"
#include "native_tiles.hpp"
#if PLEXUS_EXAMPLES_HAVE_CUDA
#include "common/cuda_libraries.hpp"
#endif

using cholesky::Precision;
using cholesky::TileCall;
using cholesky::TileKind;
using plexus::error_category;
using plexus::test::require_error;

namespace {

// One accessor whose memory is `handle`: what a task with the matrix's buffer gives.
class OneAccessor final : public plexus::InteropHandle::Memory {
 public:
  OneAccessor(plexus::NativeHandle handle, std::size_t bytes) : handle_(handle), bytes_(bytes) {}
  std::size_t accessors() const override { return 1; }
  plexus::NativeHandle memory(const plexus::detail::BufferStorage*, std::size_t requirement) const override {
    if (requirement != 0) throw plexus::error(error_category::invalid_argument, "no such accessor");
    return handle_;
  }
  void* allocation(std::size_t) const override { return handle_.value; }
  std::size_t bytes(std::size_t requirement) const override {
    memory(nullptr, requirement);
    return bytes_;
  }

 private:
  plexus::NativeHandle handle_;
  std::size_t bytes_;
};

// Runs `implementation`'s registered function as a device of `backend` would, in this process.
int run(const plexus::NativeImplementation& implementation, plexus::Device& device,
        const plexus::NativeHandles& handles, const OneAccessor& memory) {
  plexus::InteropHandle handle("tile", device, handles, memory);
  return plexus::NativeFunctions::run(*implementation.call, handle);
}

std::unique_ptr<plexus::Runtime> host_runtime() {
  return plexus::test::make_runtime({"inorder", "whole"}, "\"host\"");
}

}  // namespace

TEST_CASE("the tile operations are native functions registered under their names", "[cholesky]") {
  const std::vector<std::string> names = plexus::NativeFunctions::names();
  const auto registered = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  const TileCall call{{TileKind::gemm, 3, 2, 1}, {512, 128}, 0};
  CHECK(registered("cholesky.host_tile"));
  CHECK(registered("cholesky.host_resident"));
  CHECK(cholesky::host_tile(call).call->function == "cholesky.host_tile");
#if PLEXUS_EXAMPLES_HAVE_CUDA
  CHECK(registered("cholesky.cuda_tile"));
  CHECK(registered("cholesky.cuda_resident"));
  const plexus::NativeImplementation cuda = cholesky::cuda_tile(call);
  CHECK(cuda.backend == "cuda");
  REQUIRE(cuda.call);  // data that a worker runs by name: never a closure
  CHECK(cuda.call->function == "cholesky.cuda_tile");
  CHECK(cuda.call->backend == "cuda");
  CHECK_NOTHROW(plexus::NativeFunctions::check(*cuda.call));
  CHECK(cholesky::cuda_resident({}).call->function == "cholesky.cuda_resident");
#else
  CHECK_FALSE(registered("cholesky.cuda_tile"));  // a build without the CUDA headers
#endif
}

TEST_CASE("a tile call that is not one of a factorisation is refused before it touches memory",
          "[cholesky]") {
  auto runtime = host_runtime();
  plexus::Device& device = *runtime->devices().at(0);
  std::vector<double> matrix(16, 0.0);  // 4 x 4 in 2 x 2 tiles
  const OneAccessor memory(plexus::NativeHandle::any_pointer(matrix.data()),
                           matrix.size() * sizeof(double));
  const plexus::NativeHandles host{"host", {}, {}, {}};
  const auto refused = [&](const TileCall& call, const std::string& why) {
    require_error([&] { run(cholesky::host_tile(call), device, host, memory); },
                  error_category::invalid_argument, "cholesky tile call: " + why);
  };
  refused({{TileKind::gemm, 2, 1, 0}, {4, 2}, 0},
          "gemm of tile (2, 1) at step 0 is not in a 2 x 2 tiled matrix");
  refused({{TileKind::trsm, 1, 1, 2}, {4, 2}, 0}, "trsm of tile (1, 1) at step 2 is not in a");
  refused({{TileKind::potrf, 0, 0, 0}, {4, 3}, 0}, "tile 3 does not divide n 4");
  refused({{TileKind::potrf, 0, 0, 0}, {4, 0}, 0}, "tile 0 does not divide n 4");
  refused({{static_cast<TileKind>(9), 0, 0, 0}, {4, 2}, 0}, "unknown tile operation 9");
  refused({{TileKind::potrf, 0, 0, 0}, {4, 2}, 1}, "accessor 1 of a task with 1");
  // A matrix larger than the memory (a wrong n): the sizes, before anything is read or written.
  refused({{TileKind::gemm, 2, 1, 0}, {6, 2}, 0},
          "gemm of tile (2, 1) at step 0 of a 6 x 6 matrix in tiles of 2 needs 36 x 8 bytes of "
          "accessor 0, whose memory on '" + device.info().name + "' has 128 bytes");
  refused({{TileKind::potrf, 0, 0, 0}, {std::size_t{1} << 40, std::size_t{1} << 39}, 0},
          "potrf of tile (0, 0) at step 0 of a 1099511627776 x 1099511627776 matrix in tiles of "
          "549755813888 needs 18446744073709551615 x 8 bytes");  // n * n past size_t
  // Single precision: 4-byte elements (a 6 x 6 float matrix needs 144 of the 128 bytes).
  refused({{TileKind::gemm, 2, 1, 0}, {6, 2}, 0, Precision::single},
          "gemm of tile (2, 1) at step 0 of a 6 x 6 matrix in tiles of 2 needs 36 x 4 bytes of "
          "accessor 0, whose memory on '" +
              device.info().name + "' has 128 bytes");
  refused({{TileKind::potrf, 0, 0, 0}, {4, 2}, 0, static_cast<Precision>(7)},
          "unknown precision 7 (single 1, double 0)");
  CHECK(matrix == std::vector<double>(16, 0.0));
#if PLEXUS_EXAMPLES_HAVE_CUDA
  // The CUDA function checks first too: nothing reaches the CUDA libraries.
  const OneAccessor device_memory(plexus::NativeHandle::of(CUdeviceptr{0}), 128);
  const plexus::NativeHandles cuda{"cuda", plexus::NativeHandle::of(CUcontext{}),
                                   plexus::NativeHandle::of(CUstream{}), plexus::NativeHandle::of(CUdevice{})};
  require_error([&] { run(cholesky::cuda_tile({{TileKind::syrk, 5, 5, 0}, {8, 2}, 0}), device, cuda, device_memory); },
                error_category::invalid_argument, "syrk of tile (5, 5) at step 0 is not in a 4 x 4");
  require_error([&] { run(cholesky::cuda_tile({{TileKind::syrk, 1, 1, 0}, {8, 2}, 0}), device, cuda, device_memory); },
                error_category::invalid_argument,
                "syrk of tile (1, 1) at step 0 of a 8 x 8 matrix in tiles of 2 needs 64 x 8 bytes "
                "of accessor 0, whose memory on '" + device.info().name + "' has 128 bytes");
#endif
}

TEMPLATE_TEST_CASE(
    "a POTRF of a tile that is not positive definite fails its task, naming the tile", "[cholesky]",
    float, double) {
  auto runtime = host_runtime();
  // 4 x 4 in 2 x 2 tiles: tile (0, 0) the identity, tile (1, 1) [[1, 2], [2, 1]].
  std::vector<TestType> matrix{1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 2,  0, 0, 2, 1};
  plexus::Buffer<TestType, 2> a(matrix.data(), plexus::Range{4, 4});
  plexus::Queue queue = runtime->queue();
  const bool single = std::is_same_v<TestType, float>;
  for (std::size_t k : {0, 1})
    queue.submit([&](plexus::Handler& h) {
      auto all = a.access(h, plexus::read_write);
      h.native_task("potrf",
                    {cholesky::host_tile({{TileKind::potrf, k, k, k},
                                          {4, 2},
                                          all.requirement_index(),
                                          single ? Precision::single : Precision::double_})});
    });
  require_error(
      [&] { queue.wait(); }, error_category::device,
      std::string("native task 'potrf' (function 'cholesky.host_tile', host) failed: ") +
          (single ? "LAPACKE_spotrf" : "LAPACKE_dpotrf") +
          " of tile (1, 1): info 2 (the leading minor of that order is not positive definite)");
}

#if PLEXUS_EXAMPLES_HAVE_CUDA
TEST_CASE("a CUDA tile in a process without the CUDA libraries fails naming the missing one",
          "[cholesky]") {
  std::string missing;
  try {
    examples::CudaLibraries::get();
  } catch (const plexus::error& e) {
    missing = e.what();
  }
  if (missing.empty()) {
    SUCCEED("the CUDA driver, cuBLAS and cuSOLVER load here: nothing to refuse");
    return;
  }
  auto runtime = host_runtime();
  plexus::Device& device = *runtime->devices().at(0);
  const OneAccessor memory(plexus::NativeHandle::of(CUdeviceptr{0}), 16 * sizeof(double));
  const plexus::NativeHandles cuda{"cuda", plexus::NativeHandle::of(CUcontext{}),
                                   plexus::NativeHandle::of(CUstream{}), plexus::NativeHandle::of(CUdevice{})};
  require_error([&] { run(cholesky::cuda_tile({{TileKind::potrf, 0, 0, 0}, {4, 2}, 0}), device, cuda, memory); },
                error_category::unsupported, missing);
  CHECK_THAT(missing, Catch::Contains(" is missing: tried "));
}
#endif
