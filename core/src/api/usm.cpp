#include "plexus/usm.hpp"

#include "plexus/device.hpp"
#include "runtime_state.hpp"

namespace plexus {

void* malloc_usm(std::size_t bytes, const Queue& queue, UsmKind kind) {
  const auto runtime = detail::RuntimeState::lock(queue.runtime_state(), "a queue");
  return runtime->usm.allocate(queue.device(), kind, bytes);
}

void free(void* pointer, const Queue& queue) {
  const auto runtime = detail::RuntimeState::lock(queue.runtime_state(), "a queue");
  runtime->usm.free(pointer);
}

std::optional<UsmKind> get_pointer_type(const void* pointer, const Queue& queue) {
  const auto runtime = detail::RuntimeState::lock(queue.runtime_state(), "a queue");
  const auto found = runtime->usm.find(pointer);
  if (!found || found->buffer) return std::nullopt;
  return found->kind;
}

}  // namespace plexus
