// Group algorithms over work-groups (sycl::group<D>) and sub-groups: group_broadcast,
// reduce_over_group, any_of_group/all_of_group/none_of_group,
// inclusive_scan_over_group/exclusive_scan_over_group (with or without an init),
// joint_reduce and joint_any_of/all_of/none_of; over sub-groups also select_from_group,
// shift_group_left/right and permute_group_by_xor. Every work-item of the group must call
// them with the same arguments where SYCL says so (op, init, the broadcast's id). Values
// are scalars or trivially copyable structs, with sycl:: function objects or an operation
// of the kernel's own (no `?:` between a T and a __private T here: C++ for OpenCL refuses
// it for class types).
//
// Sub-groups: on PTX a warp (shuffles of any trivially copyable type, 32 bits at a time,
// over the lanes that exist: a last, partial warp included); elsewhere a sub-group is one
// work-item and each algorithm returns what one work-item gives.
// Work-groups: the sub-groups' results combined through local memory (a
// work_group_static of slots per value type: 32 on PTX, 1024 elsewhere, used in rounds
// when a work-group has more sub-groups than that) by work-item 0, between group barriers;
// each call ends with a barrier, so calls may follow one another.
#pragma once

namespace sycl {

namespace detail {

// A value or nothing: what a scan has before the first work-item. The flag is as wide as
// T's alignment, so the struct has no padding that SROA would turn into odd-width integers
// (an i24 is not SPIR-V).
template <int Alignment> struct flag_of { using type = ulong; };
template <> struct flag_of<1> { using type = uchar; };
template <> struct flag_of<2> { using type = ushort; };
template <> struct flag_of<4> { using type = uint; };
template <typename T>
struct maybe {
  T value;
  typename flag_of<alignof(T)>::type has;
};
template <typename T, typename Op>
inline maybe<T> combine(const maybe<T>& a, const maybe<T>& b, Op op) {
  if (!a.has) return b;
  if (!b.has) return a;
  return {op(a.value, b.value), true};
}

#ifdef __NVPTX__
enum class shuffle_kind { index, xor_mask, down, up };
// The lanes of the calling work-item's warp that exist.
inline uint warp_mask(uint lanes) { return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u; }
template <typename T>
inline T shuffle(T value, int lane, shuffle_kind kind, uint mask) {
  constexpr int words = (sizeof(T) + 3) / 4;
  int in[words] = {}, out[words] = {};
  __builtin_memcpy(in, &value, sizeof(T));
  for (int w = 0; w < words; ++w) {
    switch (kind) {
      case shuffle_kind::index: out[w] = __nvvm_shfl_sync_idx_i32(mask, in[w], lane, 0x1f); break;
      case shuffle_kind::xor_mask: out[w] = __nvvm_shfl_sync_bfly_i32(mask, in[w], lane, 0x1f); break;
      case shuffle_kind::down: out[w] = __nvvm_shfl_sync_down_i32(mask, in[w], lane, 0x1f); break;
      case shuffle_kind::up: out[w] = __nvvm_shfl_sync_up_i32(mask, in[w], lane, 0); break;
    }
  }
  T result;
  __builtin_memcpy(&result, out, sizeof(T));
  return result;
}
#endif

// The sub-group's inclusive scan of `value`; `before` gets the combination of the
// work-items before this one in the sub-group (nothing for the first).
template <typename T, typename Op>
inline T sub_group_scan(const sub_group& g, T value, Op op, maybe<T>& before) {
#ifdef __NVPTX__
  const uint lane = g.get_local_linear_id();
  const uint mask = warp_mask(g.get_local_linear_range());
  T inclusive = value;
  for (uint offset = 1; offset < 32; offset *= 2) {
    const T other = shuffle(inclusive, static_cast<int>(offset), shuffle_kind::up, mask);
    if (lane >= offset) inclusive = op(other, inclusive);
  }
  const T previous = shuffle(inclusive, 1, shuffle_kind::up, mask);
  before = {previous, lane > 0};
  return inclusive;
#else
  (void)g, (void)op;
  before.has = false;
  return value;
#endif
}

// The sub-group's reduction, in every work-item of it, combined in lane order (an inclusive
// scan, then the last lane's): the operation must be associative but need not commute (a
// tree of shuffles down combined lane 0 with lane 16 first, wrong for a user's operation
// that does not commute).
template <typename T, typename Op>
inline T sub_group_reduce(const sub_group& g, T value, Op op) {
#ifdef __NVPTX__
  maybe<T> before;
  const T inclusive = sub_group_scan(g, value, op, before);
  const uint lanes = g.get_local_linear_range();
  return shuffle(inclusive, static_cast<int>(lanes - 1), shuffle_kind::index, warp_mask(lanes));
#else
  (void)g, (void)op;
  return value;
#endif
}

// The element type of a pointer, unqualified.
template <typename T> struct unqualified { using type = T; };
template <typename T> struct unqualified<const T> { using type = T; };
template <typename T> struct unqualified<volatile T> { using type = T; };
template <typename T> struct unqualified<const volatile T> { using type = T; };
template <typename P> struct pointee;
template <typename T> struct pointee<T*> {
  using type = typename unqualified<typename __remove_address_space<T>::type>::type;
};

// Slots of scratch per value type: a warp on PTX (up to 32 in a work-group of 1024, so
// always one round); one work-item elsewhere, where larger work-groups (PoCL's CPU device
// takes 4096) go through the slots in rounds.
#ifdef __NVPTX__
inline constexpr size_t group_slots = 32;
#else
inline constexpr size_t group_slots = 1024;
#endif

// Local memory for one value per sub-group of a round.
template <typename T>
struct group_scratch {
  alignas(T) unsigned char bytes[sizeof(T) * group_slots];
  T get(size_t slot) const {
    T value;
    __builtin_memcpy(&value, bytes + slot * sizeof(T), sizeof(T));
    return value;
  }
  void set(size_t slot, const T& value) {
    __builtin_memcpy(bytes + slot * sizeof(T), &value, sizeof(T));
  }
};
template <typename T>
inline group_scratch<T>& scratch_for() {
  static ext::oneapi::experimental::work_group_static<group_scratch<T>> scratch;
  return scratch;
}

template <int D>
inline size_t linear_id_of(const group<D>& g, const id<D>& local_id) {
  return linear(local_id, g.get_local_range());
}

// A round of the work-group's sub-groups: those from `first` on, at most group_slots.
struct round_of_slots {
  size_t first, count;
  round_of_slots(size_t first_sub_group, size_t sub_groups)
      : first(first_sub_group), count(sub_groups - first_sub_group) {
    if (count > group_slots) count = group_slots;
  }
  bool holds(size_t sub_group) const { return sub_group >= first && sub_group - first < count; }
};

// The work-group's reduction, in every work-item: per round, each sub-group's result in its
// slot of `scratch`, then work-item 0 adds the slots to its total in order; after the last
// round slot 0 holds the total. Every work-item runs every round (the same number, from the
// group's size) and every barrier: none is under a condition that differs between
// work-items, which PoCL would compile very slowly (CPU devices run a work-group on one core
// anyway). Only the work-group's linear ids and barrier are used, which are those of every
// group<D>: group<1> stands for all (so the precompiled collectives serve every D).
template <typename T, typename Op>
inline T group_reduce_in(group_scratch<T>& scratch, T value, Op op) {
  const group<1> g;
  const sub_group sg;
  const T partial = sub_group_reduce(sg, value, op);
  const size_t sub_groups = sg.get_group_linear_range(), mine = sg.get_group_linear_id();
  const bool first_item = g.get_local_linear_id() == 0;
  T total = partial;  // work-item 0's: sub-group 0's result comes first
  size_t first = 0;
  do {  // not a for loop: its entry test would put the barriers under a condition
    const round_of_slots round(first, sub_groups);
    if (sg.leader() && round.holds(mine)) scratch.set(mine - first, partial);
    group_barrier(g);
    if (first_item) {
      for (size_t slot = first == 0 ? 1 : 0; slot < round.count; ++slot)
        total = op(total, scratch.get(slot));
      if (first + round.count == sub_groups) scratch.set(0, total);
    }
    group_barrier(g);
    first += group_slots;
  } while (first < sub_groups);
  const T result = scratch.get(0);
  group_barrier(g);
  return result;
}

// The work-group's inclusive scan; `before` as for sub_group_scan, over the work-group in
// the order of local linear ids. Per round (as in group_reduce_in), work-item 0 turns the
// sub-groups' totals into exclusive prefixes, carrying its sum from round to round.
template <typename T, typename Op>
inline T group_scan_in(group_scratch<maybe<T>>& scratch, T value, Op op, maybe<T>& before) {
  const group<1> g;
  const sub_group sg;
  maybe<T> in_sub_group;
  const T inclusive = sub_group_scan(sg, value, op, in_sub_group);
  const size_t sub_groups = sg.get_group_linear_range(), mine = sg.get_group_linear_id();
  const bool last_lane = sg.get_local_linear_id() + 1 == sg.get_local_linear_range();
  const bool first_item = g.get_local_linear_id() == 0;
  maybe<T> carry = {value, false}, prefix = {value, false};
  size_t first = 0;
  do {
    const round_of_slots round(first, sub_groups);
    if (last_lane && round.holds(mine)) scratch.set(mine - first, {inclusive, true});  // a total
    group_barrier(g);
    if (first_item) {
      for (size_t slot = 0; slot < round.count; ++slot) {
        const maybe<T> total = scratch.get(slot);
        scratch.set(slot, carry);
        carry = combine(carry, total, op);
      }
    }
    group_barrier(g);
    if (round.holds(mine)) prefix = scratch.get(mine - first);
    group_barrier(g);
    first += group_slots;
  } while (first < sub_groups);
  before = combine(prefix, in_sub_group, op);
  if (before.has) return op(before.value, value);
  return value;
}

}  // namespace detail
}  // namespace sycl

#include <sycl/plexus/group_library.hpp>

namespace sycl {
namespace detail {

// The work-group algorithms: the scratch is the calling kernel's own (scratch_for, a
// function static that SyclSource::finish gives each kernel), passed to the body, which is
// the precompiled library's where it has the instance (group_library.hpp).
template <int D, typename T, typename Op>
inline T group_reduce(const group<D>&, T value, Op op) {
  group_scratch<T>& scratch = scratch_for<T>();
#ifdef __PLEXUS_SYCL_COLLECTIVES_LIBRARY
  if constexpr (library_op<T, Op>::has)
    return library_reduce(scratch, value, typename library_op<T, Op>::type());
  else
#endif
    return group_reduce_in(scratch, value, op);
}
template <int D, typename T, typename Op>
inline T group_scan(const group<D>&, T value, Op op, maybe<T>& before) {
  group_scratch<maybe<T>>& scratch = scratch_for<maybe<T>>();
#ifdef __PLEXUS_SYCL_COLLECTIVES_LIBRARY
  if constexpr (library_op<T, Op>::has)
    return library_scan(scratch, value, typename library_op<T, Op>::type(), before);
  else
#endif
    return group_scan_in(scratch, value, op, before);
}

template <typename T, typename Op>
inline T group_scan(const sub_group& g, T value, Op op, maybe<T>& before) {
  return sub_group_scan(g, value, op, before);
}

}  // namespace detail

// group_broadcast, select_from_group and the sub-group shuffles.
template <typename T>
T select_from_group(const sub_group& g, T value, uint local_id) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(local_id), detail::shuffle_kind::index,
                         detail::warp_mask(g.get_local_linear_range()));
#else
  (void)g, (void)local_id;
  return value;
#endif
}
template <typename T>
T group_broadcast(const sub_group& g, T value, uint local_id = 0) {
  return select_from_group(g, value, local_id);
}
template <typename T>
T group_broadcast(const sub_group& g, T value, id<1> local_id) {
  return select_from_group(g, value, static_cast<uint>(local_id[0]));
}
template <typename T>
T permute_group_by_xor(const sub_group& g, T value, uint mask) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(mask), detail::shuffle_kind::xor_mask,
                         detail::warp_mask(g.get_local_linear_range()));
#else
  (void)g, (void)mask;
  return value;
#endif
}
template <typename T>
T shift_group_left(const sub_group& g, T value, uint delta = 1) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(delta), detail::shuffle_kind::down,
                         detail::warp_mask(g.get_local_linear_range()));
#else
  (void)g, (void)delta;
  return value;
#endif
}
template <typename T>
T shift_group_right(const sub_group& g, T value, uint delta = 1) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(delta), detail::shuffle_kind::up,
                         detail::warp_mask(g.get_local_linear_range()));
#else
  (void)g, (void)delta;
  return value;
#endif
}

template <int D, typename T>
T group_broadcast(const group<D>& g, T value, size_t local_linear_id = 0) {
  auto& slot = detail::scratch_for<T>();
  if (g.get_local_linear_id() == local_linear_id) slot.set(0, value);
  group_barrier(g);
  const T result = slot.get(0);
  group_barrier(g);
  return result;
}
template <int D, typename T>
T group_broadcast(const group<D>& g, T value, id<D> local_id) {
  return group_broadcast(g, value, detail::linear_id_of(g, local_id));
}

// Reductions.
template <typename T, typename BinaryOperation>
T reduce_over_group(const sub_group& g, T value, BinaryOperation op) {
  return detail::sub_group_reduce(g, value, op);
}
template <int D, typename T, typename BinaryOperation>
T reduce_over_group(const group<D>& g, T value, BinaryOperation op) {
  return detail::group_reduce(g, value, op);
}
template <typename Group, typename V, typename T, typename BinaryOperation>
T reduce_over_group(const Group& g, V value, T init, BinaryOperation op) {
  return op(init, reduce_over_group(g, static_cast<T>(value), op));
}

template <typename Group>
bool any_of_group(const Group& g, bool predicate) {
  return reduce_over_group(g, predicate ? 1 : 0, maximum<int>()) != 0;
}
template <typename Group>
bool all_of_group(const Group& g, bool predicate) {
  return reduce_over_group(g, predicate ? 1 : 0, minimum<int>()) != 0;
}
template <typename Group>
bool none_of_group(const Group& g, bool predicate) {
  return !any_of_group(g, predicate);
}
template <typename Group, typename T, typename Predicate>
bool any_of_group(const Group& g, T value, Predicate predicate) {
  return any_of_group(g, static_cast<bool>(predicate(value)));
}
template <typename Group, typename T, typename Predicate>
bool all_of_group(const Group& g, T value, Predicate predicate) {
  return all_of_group(g, static_cast<bool>(predicate(value)));
}
template <typename Group, typename T, typename Predicate>
bool none_of_group(const Group& g, T value, Predicate predicate) {
  return none_of_group(g, static_cast<bool>(predicate(value)));
}

// Scans, in the order of the work-items' local linear ids.
template <typename Group, typename T, typename BinaryOperation>
T inclusive_scan_over_group(const Group& g, T value, BinaryOperation op) {
  detail::maybe<T> before;
  return detail::group_scan(g, value, op, before);
}
template <typename Group, typename V, typename BinaryOperation, typename T>
T inclusive_scan_over_group(const Group& g, V value, BinaryOperation op, T init) {
  return op(init, inclusive_scan_over_group(g, static_cast<T>(value), op));
}
template <typename Group, typename V, typename T, typename BinaryOperation>
T exclusive_scan_over_group(const Group& g, V value, T init, BinaryOperation op) {
  detail::maybe<T> before;
  (void)detail::group_scan(g, static_cast<T>(value), op, before);
  if (before.has) return op(init, before.value);
  return init;
}
template <typename Group, typename T, typename BinaryOperation>
T exclusive_scan_over_group(const Group& g, T value, BinaryOperation op) {
  return exclusive_scan_over_group(g, value, detail::identity<BinaryOperation, T>::value(), op);
}

// Joint algorithms: the work-items of `g` share the range [first, last) (the same for all).
template <typename Group, typename Ptr, typename BinaryOperation>
auto joint_reduce(const Group& g, Ptr first, Ptr last, BinaryOperation op) {
  using T = typename detail::pointee<Ptr>::type;
  const size_t count = static_cast<size_t>(last - first);
  const size_t item = g.get_local_linear_id(), items = g.get_local_linear_range();
#ifdef __PLEXUS_SYCL_COLLECTIVES_LIBRARY
  // Integers under an operation of the precompiled library (group_library.hpp): each
  // work-item's part starts at the operation's identity (exact for integers: the same value
  // as skipping an empty part) and the group's reduction is the library's.
  if constexpr (__is_integral(T) && detail::library_op<T, BinaryOperation>::has) {
    T mine = detail::identity<BinaryOperation, T>::value();
    for (size_t i = item; i < count; i += items) mine = op(mine, first[i]);
    return reduce_over_group(g, mine, op);
  } else
#endif
  {
    detail::maybe<T> mine = {T(), false};
    for (size_t i = item; i < count; i += items) mine = detail::combine(mine, {first[i], true}, op);
    const auto join = [op](detail::maybe<T> a, detail::maybe<T> b) { return detail::combine(a, b, op); };
    return reduce_over_group(g, mine, join).value;
  }
}
template <typename Group, typename Ptr, typename T, typename BinaryOperation>
T joint_reduce(const Group& g, Ptr first, Ptr last, T init, BinaryOperation op) {
  if (first == last) return init;
  return op(init, static_cast<T>(joint_reduce(g, first, last, op)));
}
template <typename Group, typename Ptr, typename Predicate>
bool joint_any_of(const Group& g, Ptr first, Ptr last, Predicate predicate) {
  const size_t count = static_cast<size_t>(last - first);
  bool found = false;
  for (size_t i = g.get_local_linear_id(); i < count; i += g.get_local_linear_range())
    found = found || static_cast<bool>(predicate(first[i]));
  return any_of_group(g, found);
}
template <typename Group, typename Ptr, typename Predicate>
bool joint_all_of(const Group& g, Ptr first, Ptr last, Predicate predicate) {
  return !joint_any_of(g, first, last, [&](const auto& x) { return !predicate(x); });
}
template <typename Group, typename Ptr, typename Predicate>
bool joint_none_of(const Group& g, Ptr first, Ptr last, Predicate predicate) {
  return !joint_any_of(g, first, last, predicate);
}

}  // namespace sycl
