// Queue's kernel fusion members: thin forwards to fusion_session.cpp / fusion_complete.cpp.
#include "auto_replay.hpp"
#include "fusion_session.hpp"
#include "plexus/queue.hpp"
#include "queue_state.hpp"
#include "runtime_state.hpp"

namespace plexus {

void Queue::start_fusion() {
  auto runtime = detail::RuntimeState::lock(state_->runtime, "a queue");
  detail::release_automatic(*runtime, *state_);  // kernels held for automatic replay run first
  detail::start_fusion(*runtime, state_);
}

void Queue::cancel_fusion() {
  auto runtime = detail::RuntimeState::lock(state_->runtime, "a queue");
  detail::cancel_fusion(*runtime, *state_, "");
}

Event Queue::complete_fusion(const std::vector<FusionProperty>& properties) {
  auto runtime = detail::RuntimeState::lock(state_->runtime, "a queue");
  if (!detail::in_fusion(*state_)) detail::release_automatic(*runtime, *state_);
  return Event(detail::complete_fusion(*runtime, *state_, properties), state_->runtime);
}

bool Queue::is_in_fusion_mode() const { return detail::in_fusion(*state_); }

}  // namespace plexus
