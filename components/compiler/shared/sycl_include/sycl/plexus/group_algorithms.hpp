// Group algorithms over sub-groups: reduce_over_group, group_broadcast, select_from_group,
// shift_group_left/right, permute_group_by_xor, any_of_group, all_of_group. On PTX they are
// warp shuffles (32-bit values); elsewhere a sub-group is one work-item and each returns
// its own value. Work-group collectives are not provided (reduce with atomic_ref, or
// through work_group_memory and group_barrier).
#pragma once

namespace sycl {

namespace detail {

#ifdef __NVPTX__
template <typename T>
inline T shuffle(T value, int lane, int kind) {
  static_assert(sizeof(T) == 4, "sub-group shuffles on PTX take 32-bit values");
  const int bits = __builtin_bit_cast(int, value);
  int r = 0;
  switch (kind) {
    case 0: r = __nvvm_shfl_sync_idx_i32(0xffffffffu, bits, lane, 0x1f); break;
    case 1: r = __nvvm_shfl_sync_bfly_i32(0xffffffffu, bits, lane, 0x1f); break;
    case 2: r = __nvvm_shfl_sync_down_i32(0xffffffffu, bits, lane, 0x1f); break;
    default: r = __nvvm_shfl_sync_up_i32(0xffffffffu, bits, lane, 0); break;
  }
  return __builtin_bit_cast(T, r);
}
#endif

}  // namespace detail

template <typename T, typename BinaryOperation>
T reduce_over_group(const sub_group&, T value, BinaryOperation op) {
#ifdef __NVPTX__
  for (int mask = 16; mask > 0; mask /= 2) value = op(value, detail::shuffle(value, mask, 1));
#endif
  (void)op;
  return value;
}
template <typename T, typename BinaryOperation>
T reduce_over_group(const sub_group& g, T value, T init, BinaryOperation op) {
  return op(init, reduce_over_group(g, value, op));
}
template <typename T>
T select_from_group(const sub_group&, T value, uint local_id) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(local_id), 0);
#else
  (void)local_id;
  return value;
#endif
}
template <typename T>
T group_broadcast(const sub_group& g, T value, uint local_id = 0) {
  return select_from_group(g, value, local_id);
}
template <typename T>
T permute_group_by_xor(const sub_group&, T value, uint mask) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(mask), 1);
#else
  (void)mask;
  return value;
#endif
}
template <typename T>
T shift_group_left(const sub_group&, T value, uint delta = 1) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(delta), 2);
#else
  (void)delta;
  return value;
#endif
}
template <typename T>
T shift_group_right(const sub_group&, T value, uint delta = 1) {
#ifdef __NVPTX__
  return detail::shuffle(value, static_cast<int>(delta), 3);
#else
  (void)delta;
  return value;
#endif
}
inline bool any_of_group(const sub_group& g, bool predicate) {
  return reduce_over_group(g, predicate ? 1 : 0, maximum<int>()) != 0;
}
inline bool all_of_group(const sub_group& g, bool predicate) {
  return reduce_over_group(g, predicate ? 1 : 0, minimum<int>()) != 0;
}

}  // namespace sycl
