#include "plexus/event.hpp"

#include "fusion_session.hpp"
#include "plexus/error.hpp"
#include "runtime_state.hpp"

namespace plexus {

Event::Event(std::shared_ptr<TaskEvent> event, std::weak_ptr<detail::RuntimeState> runtime)
    : event_(std::move(event)), runtime_(std::move(runtime)) {}

const TaskEvent& Event::checked() const {
  if (!event_) {
    throw error(error_category::invalid_argument,
                "an empty plexus::Event (default-constructed) has no timestamps");
  }
  detail::RuntimeState::lock(runtime_, "an event");
  return *event_;
}

void Event::wait() const { wait_for(std::chrono::nanoseconds::max()); }

bool Event::wait_for(std::chrono::nanoseconds timeout) const {
  if (!event_) return true;
  auto runtime = detail::RuntimeState::lock(runtime_, "an event");
  // Waiting for a fusion command (or a held kernel) cancels that fusion first.
  detail::cancel_conflicting(*runtime, nullptr, {}, {event_}, "a wait on an event");
  return event_->wait_for(timeout);
}

void Event::cancel() const {
  if (event_) checked();  // the runtime must be alive
  if (event_) event_->cancel();
}
TaskStatus Event::status() const {
  if (!event_) return TaskStatus::complete;
  release_if_held();
  return checked().status();
}
bool Event::is_done() const {
  if (!event_) return true;
  release_if_held();
  return checked().is_done();
}

void Event::release_if_held() const {
  if (event_->is_done()) return;
  // A poll would never see a kernel held for automatic replay end: it runs now.
  if (auto runtime = runtime_.lock())
    detail::cancel_conflicting(*runtime, nullptr, {}, {event_}, "a poll of an event", false, true);
}
Event::clock::time_point Event::submit_time() const { return checked().submitted_at(); }
Event::clock::time_point Event::start_time() const { return checked().started_at(); }
Event::clock::time_point Event::end_time() const { return checked().finished_at(); }

}  // namespace plexus
