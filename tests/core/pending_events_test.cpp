// PendingEvents (core/src/api/pending_events.hpp, header-only, internal): the events a queue
// or a buffer keeps to wait for later drop done ones as events are added (from the front at
// once, all of them once the list has doubled), keep every one not done, and hand them out.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "pending_events.hpp"

using plexus::TaskEvent;
using plexus::detail::PendingEvents;

namespace {
std::shared_ptr<TaskEvent> event() { return std::make_shared<TaskEvent>("test"); }
}  // namespace

TEST_CASE("PendingEvents drops done events from the front as events are added", "[core]") {
  PendingEvents pending;
  auto a = event(), b = event(), c = event();
  pending.add(a);
  pending.add(b);
  a->mark_complete();
  pending.add(c);  // a is done and first: dropped
  REQUIRE(pending.events().size() == 2);
  CHECK(pending.events().front() == b);
  CHECK(pending.contains(c));
  CHECK_FALSE(pending.contains(a));
}

TEST_CASE("PendingEvents keeps every unfinished event and bounds the done ones", "[core]") {
  PendingEvents pending;
  auto first = event();  // never done: front trimming stops here
  pending.add(first);
  std::vector<std::shared_ptr<TaskEvent>> unfinished{first};
  for (int i = 0; i < 1000; ++i) {
    auto e = event();
    pending.add(e);
    if (i % 10 == 0) {
      unfinished.push_back(e);
    } else {
      e->mark_failed(nullptr);
    }
  }
  // Done events behind an unfinished one are swept when the list doubles: at most about
  // twice the unfinished ones (plus the sweep's minimum) remain.
  CHECK(pending.events().size() <= 2 * unfinished.size() + 64);
  for (const auto& e : unfinished) CHECK(pending.contains(e));
  pending.drop_done();
  CHECK(pending.events().size() == unfinished.size());
  const auto taken = pending.take();
  CHECK(taken.size() == unfinished.size());
  CHECK(pending.events().empty());
}
