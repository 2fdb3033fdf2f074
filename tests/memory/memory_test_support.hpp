// Helpers for the memory-model tests: a component set with one memory plugin, accesses,
// tasks, and a check that a call fails with invalid_argument.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "plexus/box3.hpp"
#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plexus/memory_model.hpp"
#include "plugins_under_test.hpp"
#include "test_support.hpp"

namespace plexus::test {

inline const PluginRegistry& memory_registry() {
  return *plugins_under_test(ComponentKind::memory).registry;
}

// The build's memory models, or the one third-party plugin under test.
inline std::vector<std::string> memory_model_names() {
  return plugins_under_test(ComponentKind::memory).names;
}

// How many memory models the suite expects: the build's three, or the one under test.
inline std::size_t expected_memory_models() {
  return plugins_under_test(ComponentKind::memory).third_party ? 1 : 3;
}

struct MemoryFixture {
  std::unique_ptr<ComponentSet> set;
  MemoryModel* model = nullptr;
  MemoryModel* operator->() const { return model; }
};

inline MemoryFixture make_memory(const std::string& name, const std::string& options = "") {
  auto config = Config::from_string(
      "[memory]\nuse = \"" + name + "\"\n[memory." + name + "]\n" + options, "memory-test.toml");
  MemoryFixture fixture;
  fixture.set = std::make_unique<ComponentSet>(config, memory_registry());
  fixture.model = fixture.set->memory();
  REQUIRE(fixture.model != nullptr);
  return fixture;
}

inline std::shared_ptr<TaskEvent> task(const std::string& label) {
  return std::make_shared<TaskEvent>(label);
}

inline BufferDesc buffer_1d(std::size_t n, std::size_t element_size, bool host_data) {
  BufferDesc desc;
  desc.element_size = element_size;
  desc.extent = {n, 1, 1};
  desc.host_data_valid = host_data;
  return desc;
}

inline BufferAccess access(BufferId buffer, Extent3 offset, Extent3 extent, AccessMode mode,
                           LocationId location) {
  return {buffer, {offset, extent}, mode, location};
}

// 1D shorthand: [begin, begin + count).
inline BufferAccess access_1d(BufferId buffer, std::size_t begin, std::size_t count,
                              AccessMode mode, LocationId location) {
  return access(buffer, {begin, 0, 0}, {count, 1, 1}, mode, location);
}

inline bool depends_on(const AccessPlan& plan, const std::shared_ptr<TaskEvent>& event) {
  for (const auto& dependency : plan.dependencies) {
    if (dependency == event) return true;
  }
  return false;
}

inline Box3 box_1d(std::size_t begin, std::size_t count) { return {{begin, 0, 0}, {count, 1, 1}}; }

}  // namespace plexus::test

#define CHECK_INVALID_ARGUMENT(expression, text)                       \
  do {                                                                 \
    try {                                                              \
      (void)(expression);                                              \
      FAIL_CHECK("no plexus::error from " #expression);                \
    } catch (const plexus::error& e) {                                 \
      CHECK(e.category() == plexus::error_category::invalid_argument); \
      CHECK_THAT(e.what(), Catch::Matchers::Contains(text));           \
    }                                                                  \
  } while (false)
