// TaskEvent: state transitions, waiting across threads, callbacks and misuse.
#include <catch2/catch.hpp>

#include <thread>

#include "plexus/error.hpp"
#include "plexus/task_event.hpp"

TEST_CASE("wait blocks until another thread completes the event") {
  plexus::TaskEvent event("t");
  CHECK(event.status() == plexus::TaskStatus::submitted);
  std::thread worker([&] {
    event.mark_running();
    event.mark_complete();
  });
  event.wait();
  worker.join();
  CHECK(event.is_done());
  CHECK(event.started_at() <= event.finished_at());
}

TEST_CASE("callbacks run once the event is done, or at once when it already is") {
  plexus::TaskEvent event("t");
  int calls = 0;
  event.on_done([&] { ++calls; });
  CHECK(calls == 0);
  event.mark_complete();
  CHECK(calls == 1);
  event.on_done([&] { ++calls; });
  CHECK(calls == 2);
}

TEST_CASE("completing twice is an internal error, not silent corruption") {
  plexus::TaskEvent event("twice");
  event.mark_complete();
  CHECK_THROWS_AS(event.mark_complete(), plexus::error);
  CHECK_THROWS_AS(event.mark_failed(nullptr), plexus::error);
}
