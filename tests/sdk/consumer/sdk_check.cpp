// plexus_sdk_check: run by tests/sdk/out_of_tree.sh against an installed Plexus.
//
//   plexus_sdk_check --config <plexus.toml> --plugin <libplexus_scheduler_fifo.so>
//                    --prefix <install prefix> [--load <skeleton plugin .so>]...
//
// Checks that libplexus-core comes from the prefix, that the config selects the
// out-of-tree `fifo` scheduler from the expected file, and that host tasks run through it:
// in submission order, after their dependencies, on its worker thread (never the
// caller's, which is where the in-tree `inorder` scheduler runs them), with failures
// propagated. Each --load plugin is listed, loaded and instantiated. Prints one line per
// check; exits 1 at the first failure with a message that says what differed.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "plexus/component_kind.hpp"
#include "plexus/component_options.hpp"
#include "plexus/config.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "plexus/runtime.hpp"
#include "plexus/task_event.hpp"

namespace fs = std::filesystem;

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(bool condition, const std::string& what) {
  if (!condition) throw Failure(what);
  std::cout << "ok: " << what << "\n";
}

fs::path canonical_or_self(const fs::path& path) {
  std::error_code ec;
  fs::path result = fs::canonical(path, ec);
  return ec ? path : result;
}

bool is_under(const fs::path& file, const fs::path& dir) {
  const std::string f = canonical_or_self(file).string();
  const std::string d = canonical_or_self(dir).string() + "/";
  return f.compare(0, d.size(), d) == 0;
}

struct Args {
  fs::path config, plugin, prefix;
  std::vector<fs::path> load;
};

Args parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) throw Failure("missing value after " + std::string(flag));
    const fs::path value = argv[++i];
    if (flag == "--config")
      args.config = value;
    else if (flag == "--plugin")
      args.plugin = value;
    else if (flag == "--prefix")
      args.prefix = value;
    else if (flag == "--load")
      args.load.push_back(value);
    else
      throw Failure("unknown argument " + std::string(flag));
  }
  if (args.config.empty() || args.plugin.empty() || args.prefix.empty()) {
    throw Failure(
        "usage: plexus_sdk_check --config <file> --plugin <fifo .so> "
        "--prefix <prefix> [--load <plugin .so>]...");
  }
  return args;
}

void check_core_location(const fs::path& prefix) {
  // Address of a function defined in libplexus-core: dladdr names the file it lives in.
  auto fn = static_cast<std::string_view (*)(plexus::ComponentKind)>(&plexus::to_string);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(fn), &info) == 0 || info.dli_fname == nullptr) {
    throw Failure("dladdr could not locate libplexus-core");
  }
  check(is_under(info.dli_fname, prefix),
        "libplexus-core is the installed one: " + std::string(info.dli_fname));
}

void check_selection(const plexus::Runtime& runtime, const fs::path& plugin) {
  const auto scheduler = runtime.components().loaded(plexus::ComponentKind::scheduler);
  check(scheduler.has_value(), "a scheduler is loaded");
  check(scheduler->name == "fifo",
        "the loaded scheduler is 'fifo' (got '" + scheduler->name + "')");
  check(canonical_or_self(scheduler->path) == canonical_or_self(plugin),
        "the fifo scheduler comes from the out-of-tree build: " + scheduler->path.string() +
            " (expected " + plugin.string() + ")");
  check(runtime.components().scheduler() != nullptr, "the scheduler component exists");
  // The config sets [scheduler.fifo] queue_limit; the core warns about options no
  // component read, so a warning naming it means the plugin ignored its option.
  std::string about_option;
  for (const auto& warning : runtime.components().warnings()) {
    if (warning.find("queue_limit") != std::string::npos) about_option += warning + "; ";
  }
  check(about_option.empty(), "the fifo plugin read its option queue_limit" +
                                  (about_option.empty() ? "" : " (core: " + about_option + ")"));
}

void check_order(plexus::Runtime& runtime) {
  const auto caller = std::this_thread::get_id();
  constexpr int count = 12;
  std::mutex mutex;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  std::vector<std::shared_ptr<plexus::TaskEvent>> events;
  for (int i = 0; i < count; ++i) {
    std::vector<std::shared_ptr<plexus::TaskEvent>> dependencies;
    if (i % 3 != 0) dependencies.push_back(events.back());  // chains of three
    if (i >= 4) dependencies.push_back(events[i - 4]);
    events.push_back(runtime.host_task(
        [&, i] {
          // The first task is slow: a scheduler that ran independent tasks concurrently
          // or out of order would let later ones overtake it.
          if (i == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
          std::lock_guard lock(mutex);
          order.push_back(i);
          threads.push_back(std::this_thread::get_id());
        },
        std::move(dependencies)));
  }
  runtime.wait();

  std::vector<int> expected(count);
  for (int i = 0; i < count; ++i) expected[i] = i;
  std::string got;
  for (int i : order) got += std::to_string(i) + " ";
  check(order == expected, "host tasks ran in submission order (got: " + got + ")");
  check(std::all_of(
            events.begin(), events.end(),
            [](const auto& event) { return event->status() == plexus::TaskStatus::complete; }),
        "every host task's event is complete");
  check(std::none_of(threads.begin(), threads.end(), [&](auto id) { return id == caller; }),
        "no host task ran on the caller's thread (the fifo worker ran them)");
  check(std::all_of(threads.begin(), threads.end(), [&](auto id) { return id == threads[0]; }),
        "every host task ran on the same worker thread");
}

void check_wait(plexus::Runtime& runtime) {
  std::atomic<bool> done{false};
  runtime.host_task([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    done = true;
  });
  runtime.wait();
  check(done.load(), "Runtime::wait() returned only after the pending task finished");
}

void check_failure(plexus::Runtime& runtime) {
  std::atomic<bool> dependent_ran{false};
  auto failing = runtime.host_task([] { throw std::runtime_error("sdk-check-boom"); });
  auto dependent = runtime.host_task([&] { dependent_ran = true; }, {failing});
  auto independent = runtime.host_task([] {});
  runtime.wait();

  check(failing->status() == plexus::TaskStatus::failed, "a throwing task fails its event");
  check(dependent->status() == plexus::TaskStatus::failed,
        "a task whose dependency failed is failed");
  check(!dependent_ran.load(), "a task whose dependency failed did not run");
  check(independent->status() == plexus::TaskStatus::complete,
        "an independent task after a failure still completes");
  std::string message;
  try {
    dependent->wait();
  } catch (const std::exception& e) {
    message = e.what();
  }
  check(message.find("sdk-check-boom") != std::string::npos,
        "the dependent task carries the dependency's failure (got '" + message + "')");
}

void check_load(const plexus::Runtime& runtime, const fs::path& file) {
  const plexus::PluginListing listing = plexus::PluginRegistry::inspect(file);
  const std::string kind(plexus::to_string(listing.kind));
  check(listing.name == "my_" + kind,
        file.filename().string() + " lists as " + kind + " '" + listing.name + "'");
  auto library = plexus::PluginLibrary::load(listing);
  plexus::PluginContext context{plexus::ComponentOptions{}, runtime.components()};
  std::shared_ptr<plexus::Component> component = library->create(context);
  check(component != nullptr, "the " + kind + " skeleton loads and constructs");
  component.reset();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse(argc, argv);
    check_core_location(args.prefix);
    {
      plexus::Runtime runtime(plexus::Config::from_file(args.config));
      check_selection(runtime, args.plugin);
      check_order(runtime);
      check_wait(runtime);
      check_failure(runtime);
      for (const auto& file : args.load) check_load(runtime, file);
    }
    std::cout << "ok: the runtime shut down\n";
  } catch (const Failure& failure) {
    std::cerr << "FAIL: " << failure.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "FAIL: unexpected exception: " << e.what() << "\n";
    return 1;
  }
  std::cout << "plexus_sdk_check: all checks passed\n";
  return 0;
}
