// sycl::atomic_ref over 32- and 64-bit integers, float and double in global or local
// memory. Integer operations are single atomic instructions (Clang's __sync builtins, which
// every target lowers in line, where OpenCL 2.0's atomic functions would be library calls
// that libclc lacks); float and double add, sub, min and max are compare-and-swap loops.
// Orders stronger than relaxed add a full fence; scopes are as wide as the device's
// atomics (device scope at least).
#pragma once

namespace sycl {

enum class memory_order : int { relaxed, acquire, __consume_unsupported, release, acq_rel, seq_cst };
enum class memory_scope : int { work_item, sub_group, work_group, device, system };

inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_order memory_order_acquire = memory_order::acquire;
inline constexpr memory_order memory_order_release = memory_order::release;
inline constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;
inline constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;
inline constexpr memory_scope memory_scope_work_item = memory_scope::work_item;
inline constexpr memory_scope memory_scope_sub_group = memory_scope::sub_group;
inline constexpr memory_scope memory_scope_work_group = memory_scope::work_group;
inline constexpr memory_scope memory_scope_device = memory_scope::device;
inline constexpr memory_scope memory_scope_system = memory_scope::system;

namespace access {
enum class address_space : int {
  private_space,
  global_space,
  constant_space,
  local_space,
  generic_space,
  ext_intel_global_device_space
};
}  // namespace access

inline void atomic_fence(memory_order order, memory_scope) {
  if (order != memory_order::relaxed) __sync_synchronize();
}

namespace detail {

template <int Bytes> struct atomic_bits;
template <> struct atomic_bits<4> { using type = uint; };
template <> struct atomic_bits<8> { using type = ulong; };

template <typename T> inline constexpr bool is_atomic_integer = false;
template <> inline constexpr bool is_atomic_integer<int> = true;
template <> inline constexpr bool is_atomic_integer<uint> = true;
template <> inline constexpr bool is_atomic_integer<long> = true;
template <> inline constexpr bool is_atomic_integer<ulong> = true;
template <typename T> inline constexpr bool is_atomic_float = false;
template <> inline constexpr bool is_atomic_float<float> = true;
template <> inline constexpr bool is_atomic_float<double> = true;

}  // namespace detail

template <typename T, memory_order DefaultOrder, memory_scope DefaultScope,
          access::address_space Space = access::address_space::generic_space>
class atomic_ref {
  static_assert(detail::is_atomic_integer<T> || detail::is_atomic_float<T>,
                "sycl::atomic_ref takes int, unsigned int, long, unsigned long, float or double");
  using bits_t = typename detail::atomic_bits<sizeof(T)>::type;

 public:
  using value_type = T;
  using difference_type = T;
  static constexpr size_t required_alignment = sizeof(T);
  static constexpr bool is_always_lock_free = true;
  static constexpr memory_order default_read_order =
      DefaultOrder == memory_order::release ? memory_order::relaxed : DefaultOrder;
  static constexpr memory_order default_write_order =
      DefaultOrder == memory_order::acquire ? memory_order::relaxed : DefaultOrder;
  static constexpr memory_order default_read_modify_write_order = DefaultOrder;
  static constexpr memory_scope default_scope = DefaultScope;

  explicit atomic_ref(T& ref) : ptr_(&ref) {}
  atomic_ref(const atomic_ref&) = default;

  bool is_lock_free() const { return true; }

  T load(memory_order order = default_read_order, memory_scope scope = default_scope) const {
    const T value = *static_cast<volatile T*>(ptr_);
    atomic_fence(order, scope);
    return value;
  }
  void store(T value, memory_order order = default_write_order,
             memory_scope scope = default_scope) const {
    atomic_fence(order, scope);
    (void)exchange(value, memory_order::relaxed, scope);
  }
  operator T() const { return load(); }
  T operator=(T value) const {
    store(value);
    return value;
  }
  T exchange(T value, memory_order order = default_read_modify_write_order,
             memory_scope scope = default_scope) const {
    atomic_fence(order, scope);
    const bits_t old = __sync_lock_test_and_set(bits(), __builtin_bit_cast(bits_t, value));
    atomic_fence(order, scope);
    return __builtin_bit_cast(T, old);
  }
  bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order,
                               memory_scope scope = default_scope) const {
    return compare_exchange_strong(expected, desired, success, scope);
  }
  bool compare_exchange_strong(T& expected, T desired,
                               memory_order order = default_read_modify_write_order,
                               memory_scope scope = default_scope) const {
    atomic_fence(order, scope);
    const bits_t want = __builtin_bit_cast(bits_t, expected);
    const bits_t seen =
        __sync_val_compare_and_swap(bits(), want, __builtin_bit_cast(bits_t, desired));
    atomic_fence(order, scope);
    if (seen == want) return true;
    expected = __builtin_bit_cast(T, seen);
    return false;
  }
  bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure,
                             memory_scope scope = default_scope) const {
    return compare_exchange_strong(expected, desired, success, failure, scope);
  }
  bool compare_exchange_weak(T& expected, T desired,
                             memory_order order = default_read_modify_write_order,
                             memory_scope scope = default_scope) const {
    return compare_exchange_strong(expected, desired, order, scope);
  }

  T fetch_add(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const {
    if constexpr (detail::is_atomic_integer<T>) {
      return fenced(order, scope, [&] { return __sync_fetch_and_add(ptr_, operand); });
    } else {
      return update(order, scope, [&](T old) { return old + operand; });
    }
  }
  T fetch_sub(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const {
    if constexpr (detail::is_atomic_integer<T>) {
      return fenced(order, scope, [&] { return __sync_fetch_and_sub(ptr_, operand); });
    } else {
      return update(order, scope, [&](T old) { return old - operand; });
    }
  }
  T fetch_min(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const {
    if constexpr (detail::is_atomic_integer<T>) {
      return fenced(order, scope, [&] { return __sync_fetch_and_min(ptr_, operand); });
    } else {
      return update(order, scope, [&](T old) { return operand < old ? operand : old; });
    }
  }
  T fetch_max(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const {
    if constexpr (detail::is_atomic_integer<T>) {
      return fenced(order, scope, [&] { return __sync_fetch_and_max(ptr_, operand); });
    } else {
      return update(order, scope, [&](T old) { return old < operand ? operand : old; });
    }
  }
  T fetch_and(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const {
    static_assert(detail::is_atomic_integer<T>, "fetch_and takes integers");
    return fenced(order, scope, [&] { return __sync_fetch_and_and(ptr_, operand); });
  }
  T fetch_or(T operand, memory_order order = default_read_modify_write_order,
             memory_scope scope = default_scope) const {
    static_assert(detail::is_atomic_integer<T>, "fetch_or takes integers");
    return fenced(order, scope, [&] { return __sync_fetch_and_or(ptr_, operand); });
  }
  T fetch_xor(T operand, memory_order order = default_read_modify_write_order,
              memory_scope scope = default_scope) const {
    static_assert(detail::is_atomic_integer<T>, "fetch_xor takes integers");
    return fenced(order, scope, [&] { return __sync_fetch_and_xor(ptr_, operand); });
  }

  T operator+=(T operand) const { return fetch_add(operand) + operand; }
  T operator-=(T operand) const { return fetch_sub(operand) - operand; }
  T operator&=(T operand) const { return fetch_and(operand) & operand; }
  T operator|=(T operand) const { return fetch_or(operand) | operand; }
  T operator^=(T operand) const { return fetch_xor(operand) ^ operand; }
  T operator++(int) const { return fetch_add(T(1)); }
  T operator--(int) const { return fetch_sub(T(1)); }
  T operator++() const { return fetch_add(T(1)) + T(1); }
  T operator--() const { return fetch_sub(T(1)) - T(1); }

 private:
  bits_t* bits() const { return reinterpret_cast<bits_t*>(ptr_); }
  template <typename F>
  static T fenced(memory_order order, memory_scope scope, F f) {
    atomic_fence(order, scope);
    const T old = f();
    atomic_fence(order, scope);
    return old;
  }
  // Compare-and-swap until `next(old)` is stored over an unchanged `old`.
  template <typename F>
  T update(memory_order order, memory_scope scope, F next) const {
    atomic_fence(order, scope);
    bits_t seen = *static_cast<volatile bits_t*>(bits());
    for (;;) {
      const bits_t want = seen;
      const bits_t desired = __builtin_bit_cast(bits_t, next(__builtin_bit_cast(T, want)));
      seen = __sync_val_compare_and_swap(bits(), want, desired);
      if (seen == want) break;
    }
    atomic_fence(order, scope);
    return __builtin_bit_cast(T, seen);
  }

  T* ptr_;
};

}  // namespace sycl
