#include "plexus/kernel_fault_report.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>

namespace plexus {

namespace {

thread_local const char* current_kernel = nullptr;
thread_local const char* current_device = nullptr;

struct sigaction previous_segv{}, previous_bus{};
std::mutex install_mutex;

// Async-signal-safe text building: a fixed buffer, no allocation.
class Line {
 public:
  void add(const char* text) {
    while (text && *text && used_ < sizeof(buffer_)) buffer_[used_++] = *text++;
  }
  void add_hex(std::uintptr_t value) {
    char digits[2 + 16];
    int count = 0;
    do {
      digits[count++] = "0123456789abcdef"[value & 0xf];
      value >>= 4;
    } while (value != 0 && count < 16);
    add("0x");
    while (count > 0 && used_ < sizeof(buffer_)) buffer_[used_++] = digits[--count];
  }
  void write_to(int descriptor) const {
    std::size_t done = 0;
    while (done < used_) {
      const ssize_t wrote = ::write(descriptor, buffer_ + done, used_ - done);
      if (wrote <= 0) return;
      done += static_cast<std::size_t>(wrote);
    }
  }

 private:
  char buffer_[1024];
  std::size_t used_ = 0;
};

void on_fault(int signal_number, siginfo_t* info, void* context) {
  if (const char* kernel = current_kernel) {
    Line line;
    line.add("plexus: kernel '");
    line.add(kernel);
    line.add("' faulted on device '");
    line.add(current_device ? current_device : "?");
    line.add("': ");
    line.add(signal_number == SIGBUS ? "SIGBUS" : "SIGSEGV");
    line.add(" at address ");
    line.add_hex(reinterpret_cast<std::uintptr_t>(info ? info->si_addr : nullptr));
    line.add(" (an access outside its buffers? checks = \"bounds\" in [compiler.<name>], or "
             "PLEXUS_KERNEL_CHECKS=1, reports the argument, index and work-item)\n");
    line.write_to(STDERR_FILENO);
  }
  const struct sigaction& previous = signal_number == SIGBUS ? previous_bus : previous_segv;
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal_number, info, context);
    return;
  }
  if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler != SIG_DFL &&
      previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal_number);
    return;
  }
  // The default action: the faulting access runs again and ends the process by the signal.
  struct sigaction reset{};
  reset.sa_handler = SIG_DFL;
  sigemptyset(&reset.sa_mask);
  sigaction(signal_number, &reset, nullptr);
  if (info == nullptr || info->si_code <= 0) raise(signal_number);  // sent, not a fault
}

bool installed_now(int signal_number) {
  struct sigaction current{};
  return sigaction(signal_number, nullptr, &current) == 0 &&
         (current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == &on_fault;
}

// An alternate signal stack for this thread, unless it has one: the handler runs there
// when the fault is a stack overflow.
void ensure_alternate_stack() {
  struct Stack {
    std::unique_ptr<char[]> memory;
    ~Stack() {
      if (!memory) return;
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
  };
  thread_local Stack stack;
  thread_local bool checked = false;
  if (checked) return;
  checked = true;
  stack_t current{};
  if (sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0) return;
  constexpr std::size_t bytes = 64 * 1024;
  stack.memory.reset(new (std::nothrow) char[bytes]);
  if (!stack.memory) return;
  stack_t mine{};
  mine.ss_sp = stack.memory.get();
  mine.ss_size = bytes;
  if (sigaltstack(&mine, nullptr) != 0) stack.memory.reset();
}

}  // namespace

void install_kernel_fault_report() {
  const std::lock_guard<std::mutex> lock(install_mutex);
  for (int signal_number : {SIGSEGV, SIGBUS}) {
    if (installed_now(signal_number)) continue;
    struct sigaction handler{};
    handler.sa_sigaction = &on_fault;
    handler.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&handler.sa_mask);
    sigaction(signal_number, &handler, signal_number == SIGBUS ? &previous_bus : &previous_segv);
  }
}

KernelFaultScope::KernelFaultScope(const char* kernel, const char* device) noexcept
    : previous_kernel_(current_kernel), previous_device_(current_device) {
  ensure_alternate_stack();
  current_kernel = kernel;
  current_device = device;
}

KernelFaultScope::~KernelFaultScope() {
  current_kernel = previous_kernel_;
  current_device = previous_device_;
}

}  // namespace plexus
