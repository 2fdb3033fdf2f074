// CancelCells: the cancel cells (plexus/kernel_cancel.hpp) of one OpenCL device's
// cancellable launches (KernelInfo::cancellable: the kernel's last parameter, passed by
// the queue, opencl_queue.cpp). A cell the host writes while a kernel runs must be
// fine-grained buffer SVM with SVM atomics (clSVMAlloc with CL_MEM_SVM_FINE_GRAIN_BUFFER |
// CL_MEM_SVM_ATOMICS; PoCL 3.1 has it, but not fine-grained system SVM): cells are 64-byte
// slots of 4 KiB SVM blocks, allocated as needed and reused, freed when the pool goes.
// Devices without those capabilities get no cells (take() returns nullptr): their
// launches pass never_cancelled(), and a cancel cannot stop them once started.
//
// Ownership: shared (std::shared_ptr) by the device and every cell taken from it (a cell
// returns to the pool when its last holder lets it go: the launch's pending command and
// the task's on_cancel callback); the pool retains the device's context to free its blocks.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"

namespace plexus::opencl {

class CancelCells : public std::enable_shared_from_this<CancelCells> {
 public:
  class Cell {
   public:
    explicit Cell(void* address) : address_(address) {}
    void* address() const { return address_; }
    // The host's cancel: requested = 1 (the kernel's work-groups not started yet return).
    void request() noexcept;
    // The work-groups that returned at once (read once the launch has finished).
    std::uint32_t skipped() const noexcept;

   private:
    std::atomic_ref<std::uint32_t> word(std::size_t index) const noexcept;
    void* address_;
  };

  // `context` is retained. `fine_grained_atomics`: the device has fine-grained buffer SVM
  // and SVM atomics; false: take() gives no cells.
  CancelCells(cl_context context, bool fine_grained_atomics);
  ~CancelCells();
  CancelCells(const CancelCells&) = delete;
  CancelCells& operator=(const CancelCells&) = delete;

  // A cell for one launch, its words 0; nullptr when the device cannot have cells (or
  // clSVMAlloc fails: the launch is then not cancellable either).
  std::shared_ptr<Cell> take();
  // The cell of launches nobody can cancel (no task, a device without cells, nodes of a
  // command buffer): a cl_mem of zeros, made once, shared (its words never change).
  // Throws plexus::error(device) when the driver cannot create it.
  cl_mem never_cancelled();

 private:
  void give_back(void* address) noexcept;

  ContextHandle context_;
  bool cells_possible_;
  std::mutex mutex_;
  std::vector<void*> blocks_;  // under mutex_: clSVMAlloc'd, freed by the destructor
  std::vector<void*> free_;    // under mutex_: cells not in use
  ClHandle<cl_mem, clReleaseMemObject> zeros_;  // under mutex_: never_cancelled()
};

}  // namespace plexus::opencl
