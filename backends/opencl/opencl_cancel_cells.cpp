#include "opencl_cancel_cells.hpp"

#include <array>

#include "opencl_query.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_cancel.hpp"

namespace plexus::opencl {

namespace {
constexpr std::size_t block_bytes = 4096;
}  // namespace

std::atomic_ref<std::uint32_t> CancelCells::Cell::word(std::size_t index) const noexcept {
  return std::atomic_ref<std::uint32_t>(static_cast<std::uint32_t*>(address_)[index]);
}

void CancelCells::Cell::request() noexcept {
  word(kernel_cancel::requested_word).store(1, std::memory_order_release);
}

std::uint32_t CancelCells::Cell::skipped() const noexcept {
  return word(kernel_cancel::skipped_word).load(std::memory_order_acquire);
}

CancelCells::CancelCells(cl_context context, bool fine_grained_atomics)
    : cells_possible_(fine_grained_atomics) {
  clRetainContext(context);
  context_.reset(context);
}

CancelCells::~CancelCells() {
  for (void* block : blocks_) clSVMFree(context_.get(), block);
}

std::shared_ptr<CancelCells::Cell> CancelCells::take() {
  if (!cells_possible_) return nullptr;
  void* address = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
      void* block = clSVMAlloc(
          context_.get(),
          CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, block_bytes,
          static_cast<cl_uint>(kernel_cancel::cell_bytes));
      if (!block) return nullptr;
      blocks_.push_back(block);
      for (std::size_t at = block_bytes; at > 0; at -= kernel_cancel::cell_bytes)
        free_.push_back(static_cast<char*>(block) + at - kernel_cancel::cell_bytes);
    }
    address = free_.back();
    free_.pop_back();
  }
  auto* words = static_cast<std::uint32_t*>(address);
  std::atomic_ref<std::uint32_t>(words[kernel_cancel::requested_word])
      .store(0, std::memory_order_relaxed);
  std::atomic_ref<std::uint32_t>(words[kernel_cancel::skipped_word])
      .store(0, std::memory_order_release);
  // The cell goes back to this pool (kept alive meanwhile) when its last holder drops it.
  return std::shared_ptr<Cell>(new Cell(address),
                               [pool = shared_from_this()](Cell* cell) {
                                 pool->give_back(cell->address());
                                 delete cell;
                               });
}

void CancelCells::give_back(void* address) noexcept {
  std::lock_guard lock(mutex_);
  free_.push_back(address);
}

cl_mem CancelCells::never_cancelled() {
  std::lock_guard lock(mutex_);
  if (!zeros_) {
    std::array<std::uint32_t, kernel_cancel::cell_bytes / 4> zeros{};
    cl_int code = CL_SUCCESS;
    zeros_.reset(clCreateBuffer(context_.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                kernel_cancel::cell_bytes, zeros.data(), &code));
    if (code != CL_SUCCESS)
      throw error(error_category::device,
                  "creating the cancel cell of launches that cannot be cancelled: clCreateBuffer "
                  "failed: " + error_name(code));
  }
  return zeros_.get();
}

}  // namespace plexus::opencl
