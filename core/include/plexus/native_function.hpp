// NativeFunction: a native task's implementation (interop.hpp) registered by name in the
// process that loads its code, so that another process that loads the same code runs it by
// that name: a `plexus worker` given the library (`--native-library LIB.so`) runs it for a
// device of its node that rank 0's runtime sees through the mpi backend. A closure cannot
// cross processes; a registered function, its arguments as bytes and the task's accessors
// can (NativeCall, DeviceQueue::enqueue_native_call).
//
//   // tiles_native.hpp / .cpp: code that the application links and the workers load
//   struct TileArgs { std::size_t n, tile, i, j; };             // trivially copyable
//   int tile_on_host(plexus::InteropHandle& ih, const TileArgs& args) {
//     ih.require_memory(0, args.n * args.n, sizeof(double), "tiles.tile");  // fits accessor 0
//     double* a = ih.native_memory<double*>(0);                  // the group's accessor 0
//     return do_tile(a, args);                                   // 0: success
//   }
//   const plexus::NativeFunction<TileArgs> tile_host{"tiles.tile", "host", &tile_on_host};
//
//   // the application: an implementation like any other, on local and remote devices
//   q.submit([&](plexus::Handler& h) {
//     auto a = buf.access(h, plexus::read_write);                // accessor 0 of the group
//     h.native_task("tile", {tile_host(TileArgs{n, t, i, j}), {"cuda", a_closure}});
//   });
//
// A function takes InteropHandle& and `const Args&` and returns int (nonzero: the task fails
// with that error code) or void; an exception fails the task with its message. It reaches
// the task's memory by accessor index (InteropHandle::native_memory<T>(index): the order
// the command group made its accessors in), since accessor objects stay in the
// application's process; what its arguments make it touch is checked first against that
// memory's bytes (InteropHandle::require_memory, native_memory_bytes): the bytes may come
// from another process, and a wrong size must fail the task, naming it, not write past the
// allocation. Args is copied as bytes: no pointers into the application's memory
// (they mean nothing in another process), and the same type on both sides (checked by its
// mangled name and size). Names are global to a process: use a prefix of your own.
//
// Registration lasts as long as the NativeFunction object (a namespace-scope object of the
// library: registered when it loads, unregistered when it unloads). Two registrations of
// one name are not an error until the name is called (then the call fails, naming it).
// Thread-safety: registration, lookup and calls from any thread; a function runs on the
// thread that runs its task, several at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "plexus/export.hpp"
#include "plexus/interop.hpp"
#include "plexus/native_call.hpp"

namespace plexus {

// The process's registry of native functions (what NativeFunction objects add).
class PLEXUS_API NativeFunctions {
 public:
  // One registered function, type-erased: `run(body, handle, arguments)` calls `body` with
  // `arguments_size` bytes of arguments (their alignment is not guaranteed).
  struct Entry {
    std::string name, backend, arguments_type;
    std::size_t arguments_size = 0;
    int (*run)(void (*body)(), InteropHandle& handle, const std::byte* arguments) = nullptr;
    void (*body)() = nullptr;
  };

  // Adds `entry`; returns the id that remove() takes. Never throws for a duplicate name.
  static std::uint64_t add(Entry entry);
  static void remove(std::uint64_t id) noexcept;
  // The registered names, sorted (for errors and `plexus worker`'s log).
  static std::vector<std::string> names();

  // Throws plexus::error unless `call` can run in this process: the name registered once
  // (unsupported: naming it and the names that are registered), for `call.backend`, with
  // arguments of the same type and size (invalid_argument: naming both types).
  static void check(const NativeCall& call);
  // check(), then runs the function with `handle` (whose backend must be call.backend);
  // returns its error code (0: success); its exceptions propagate.
  static int run(const NativeCall& call, InteropHandle& handle);
};

template <class Args>
class NativeFunction {
  static_assert(std::is_trivially_copyable_v<Args>,
                "a native function's arguments travel as bytes: make them trivially copyable");

 public:
  using Body = int (*)(InteropHandle&, const Args&);
  using VoidBody = void (*)(InteropHandle&, const Args&);

  NativeFunction(std::string name, std::string backend, Body body)
      : name_(std::move(name)), backend_(std::move(backend)) {
    id_ = NativeFunctions::add({name_, backend_, typeid(Args).name(), sizeof(Args), &invoke<Body>,
                                reinterpret_cast<void (*)()>(body)});
  }
  NativeFunction(std::string name, std::string backend, VoidBody body)
      : name_(std::move(name)), backend_(std::move(backend)) {
    id_ = NativeFunctions::add({name_, backend_, typeid(Args).name(), sizeof(Args),
                                &invoke<VoidBody>, reinterpret_cast<void (*)()>(body)});
  }
  ~NativeFunction() { NativeFunctions::remove(id_); }
  NativeFunction(const NativeFunction&) = delete;
  NativeFunction& operator=(const NativeFunction&) = delete;

  const std::string& name() const { return name_; }
  const std::string& backend() const { return backend_; }

  // The implementation for Handler::native_task: this function with `args`, for its backend.
  NativeImplementation operator()(const Args& args) const {
    auto call = std::make_shared<NativeCall>();
    call->function = name_;
    call->backend = backend_;
    call->arguments_type = typeid(Args).name();
    call->arguments.resize(sizeof(Args));
    std::memcpy(call->arguments.data(), &args, sizeof(Args));
    NativeImplementation implementation(
        backend_, [call](InteropHandle& handle) { return NativeFunctions::run(*call, handle); });
    implementation.call = std::move(call);
    return implementation;
  }

 private:
  template <class Function>
  static int invoke(void (*body)(), InteropHandle& handle, const std::byte* arguments) {
    alignas(Args) std::byte storage[sizeof(Args)];
    std::memcpy(storage, arguments, sizeof(Args));
    const Args& args = *std::launder(reinterpret_cast<const Args*>(storage));
    const auto function = reinterpret_cast<Function>(body);
    if constexpr (std::is_same_v<Function, VoidBody>) {
      function(handle, args);
      return 0;
    } else {
      return function(handle, args);
    }
  }

  std::string name_, backend_;
  std::uint64_t id_ = 0;
};

}  // namespace plexus
