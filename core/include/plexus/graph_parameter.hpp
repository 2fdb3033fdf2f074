// GraphParameter<T>: a scalar kernel argument whose value can change between replays of a
// command graph without recording it again (SYCL's dynamic_parameter, sycl_ext_oneapi_graph).
//
//   plexus::GraphParameter<float> alpha(0.5f);
//   graph.begin_recording(q);
//   q.submit([&](plexus::Handler& h) { h.parallel_for(k, plexus::Range{n}, alpha, x_acc); });
//   graph.end_recording();
//   auto exec = graph.finalize();
//   alpha.update(0.25f);
//   q.submit(exec);                    // the kernel sees 0.25
//
// Passed to parallel_for like a value of type T (checked against the kernel's parameter the
// same way). Each submission reads the value it has when submitted (a submission already made
// keeps its value); a plain (unrecorded) submission uses the value at submit time.
// A cheap shared handle: copies refer to the same parameter. Thread-safety: every member is
// safe from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

#include "plexus/export.hpp"

namespace plexus {

namespace detail {
class ParameterValue;
PLEXUS_API std::shared_ptr<ParameterValue> make_parameter_value(const void* bytes, std::size_t size);
PLEXUS_API void store_parameter_value(ParameterValue& value, const void* bytes, std::size_t size);
PLEXUS_API void load_parameter_value(const ParameterValue& value, void* bytes, std::size_t size);
}  // namespace detail

template <class T>
class GraphParameter {
  static_assert(std::is_trivially_copyable_v<T>, "graph parameters must be trivially copyable");

 public:
  explicit GraphParameter(const T& initial)
      : value_(detail::make_parameter_value(&initial, sizeof(T))) {}

  void update(const T& value) { detail::store_parameter_value(*value_, &value, sizeof(T)); }
  T value() const {
    T current;
    detail::load_parameter_value(*value_, &current, sizeof(T));
    return current;
  }
  const std::shared_ptr<detail::ParameterValue>& cell() const { return value_; }

 private:
  std::shared_ptr<detail::ParameterValue> value_;
};

}  // namespace plexus
