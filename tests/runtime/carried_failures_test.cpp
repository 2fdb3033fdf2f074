// A failure carried on through dependent tasks is one failure, under every scheduler: a
// program that sees it at the end of the chain (a wait, a host access) has seen it, and it is
// not reported as unobserved; one nobody sees is reported once, as the task where it arose,
// to the async handler or, without one, in the log when the runtime goes (before, every task
// of the chain that no wait reached was reported, after the program's own message).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "log_capture.hpp"
#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::require_error;

namespace {

const char* const schedulers[] = {"inorder", "dag", "heft"};

// The failures handed to a runtime's async handler, by their text.
struct Handled {
  std::vector<std::string> texts;
  plexus::RuntimeOptions options() {
    plexus::RuntimeOptions options;
    options.async_handler = [this](const std::vector<std::exception_ptr>& errors) {
      for (const auto& failure : errors) {
        try {
          std::rethrow_exception(failure);
        } catch (const std::exception& e) {
          texts.push_back(e.what());
        }
      }
    };
    return options;
  }
};

std::unique_ptr<plexus::Runtime> runtime_with(const std::string& scheduler,
                                              plexus::RuntimeOptions options = {}) {
  return std::make_unique<plexus::Runtime>(
      plexus::test::runtime_config({scheduler, "paged"}, "\"host\""), std::move(options));
}

// A write to `data` that fails with `text`; nobody waits for its event.
void failing_writer(plexus::Queue& q, plexus::Buffer<int>& data, const std::string& text) {
  q.submit([&](plexus::Handler& h) {
    auto out = data.access(h, plexus::write);
    h.host_task([=] {
      out[0] = 99;
      throw plexus::error(error_category::device, text);
    });
  });
}

// A task that reads `in` and writes `out` (the same buffer or not): fails with the failure
// of a failed writer of either, without running.
plexus::Event step(plexus::Queue& q, plexus::Buffer<int>& in, plexus::Buffer<int>& out) {
  return q.submit([&](plexus::Handler& h) {
    if (&in == &out) {
      auto io = in.access(h, plexus::read_write);
      h.host_task([=] { io[1] += 1; });
    } else {
      auto from = in.access(h, plexus::read);
      auto to = out.access(h, plexus::read_write);
      h.host_task([=] { to[1] += from[1]; });
    }
  });
}

// A task that reads `a` and `b` and writes `out`: it waits for the first failed writer it
// meets and fails with its failure, never waiting for the other's.
plexus::Event join(plexus::Queue& q, plexus::Buffer<int>& a, plexus::Buffer<int>& b,
                   plexus::Buffer<int>& out) {
  return q.submit([&](plexus::Handler& h) {
    auto from_a = a.access(h, plexus::read);
    auto from_b = b.access(h, plexus::read);
    auto to = out.access(h, plexus::write);
    h.host_task([=] { to[0] = from_a[0] + from_b[0]; });
  });
}

// A failed writer of `data`, two steps that read it into `one` and `two`, and their join
// into `more`: the failure goes two ways and joins again. Returns the join.
struct Chain {
  plexus::Buffer<int> data{plexus::Range{8}}, one{plexus::Range{8}}, two{plexus::Range{8}},
      more{plexus::Range{8}};
};
plexus::Event failed_chain(plexus::Queue& q, Chain& chain) {
  failing_writer(q, chain.data, "the writer broke");
  step(q, chain.data, chain.one);
  step(q, chain.data, chain.two);
  return join(q, chain.one, chain.two, chain.more);
}

}  // namespace

TEST_CASE("a failure seen at the end of a chain of dependent tasks is not reported as unobserved") {
  for (const char* scheduler : schedulers) {
    for (const bool through_host_access : {false, true}) {
      DYNAMIC_SECTION("scheduler/" << scheduler << (through_host_access ? "/host access" : "/wait")) {
        Handled handled;
        {
          auto rt = runtime_with(scheduler, handled.options());
          plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
          plexus::Buffer<int> data(plexus::Range{8}), left(plexus::Range{8}),
              right(plexus::Range{8}), more(plexus::Range{8});
          // The failure goes two ways and joins again (as a Cholesky's tiles after a failed
          // POTRF): the join waits for one way only, the other way's tasks for nobody.
          failing_writer(q, data, "the writer broke");
          step(q, data, data);              // carries it on
          step(q, data, left);              // and on, into other buffers
          step(q, data, right);
          join(q, left, right, more);
          auto last = step(q, more, more);  // the end of the chain
          if (through_host_access)
            require_error([&] { more.host_access(plexus::read); }, error_category::device,
                          "the writer broke");
          else
            require_error([&] { last.wait(); }, error_category::device, "the writer broke");
          rt->wait();
          CHECK(handled.texts.empty());
        }
        CHECK(handled.texts.empty());  // nor by the destructor
      }
    }
  }
}

TEST_CASE("a carried failure nobody sees is reported once, and one never carried is its own") {
  for (const char* scheduler : schedulers) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      Handled handled;
      auto rt = runtime_with(scheduler, handled.options());
      plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
      Chain chain;
      failed_chain(q, chain);
      rt->wait();
      CHECK(handled.texts == std::vector<std::string>{"the writer broke"});

      // Two failures of their own, both read by one task: it carries one of them on; a wait
      // on it sees that one, and the other is still reported, once.
      handled.texts.clear();
      plexus::Buffer<int> left(plexus::Range{8}), right(plexus::Range{8});
      failing_writer(q, left, "left broke");
      failing_writer(q, right, "right broke");
      auto both = q.submit([&](plexus::Handler& h) {
        auto a = left.access(h, plexus::read);
        auto b = right.access(h, plexus::read);
        h.host_task([=] { (void)(a[0] + b[0]); });
      });
      std::string seen;
      try {
        both.wait();
      } catch (const plexus::error& e) {
        seen = e.what();
      }
      REQUIRE((seen == "left broke" || seen == "right broke"));
      rt->wait();
      CHECK(handled.texts ==
            std::vector<std::string>{seen == "left broke" ? "right broke" : "left broke"});
    }
  }
}

TEST_CASE("without a handler, the runtime's destructor logs each unobserved failure once") {
  for (const bool seen : {false, true}) {
    DYNAMIC_SECTION((seen ? "seen by a wait" : "nobody sees it")) {
      plexus::test::LogCapture captured;
      {
        auto rt = runtime_with("dag");
        plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
        Chain chain;
        auto last = failed_chain(q, chain);
        if (seen) require_error([&] { last.wait(); }, error_category::device, "the writer broke");
        rt->wait();  // no handler: nothing reported yet
      }
      const std::string log = captured.text();
      INFO(log);
      CHECK(captured.count("nobody observed it") == (seen ? 0 : 1));
      if (!seen)
        CHECK_THAT(log, Catch::Contains("runtime shutdown: task '") &&
                            Catch::Contains("the writer broke"));
    }
  }
}
