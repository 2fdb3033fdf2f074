// sycl::nd_item, sycl::group, sycl::sub_group and this_work_item: the work-item functions
// of OpenCL under SYCL's names. SYCL numbers dimensions the other way round: SYCL's last
// dimension is OpenCL's (and the launch's) dimension 0, the one that varies fastest between
// neighbouring work-items, as DPC++ maps them.
//
// Sub-groups: on PTX a sub-group is a warp (32 work-items; group algorithms by warp
// shuffles); on every other target a sub-group is one work-item (a valid SYCL sub-group
// size; group algorithms over it are the value itself).
#pragma once

namespace sycl {

namespace detail {

template <int Dimensions>
inline int cl_dimension(int dimension) { return Dimensions - 1 - dimension; }

template <int Dimensions, typename F>
inline id<Dimensions> make_id(F f) {
  id<Dimensions> r;
  for (int d = 0; d < Dimensions; ++d) r[d] = f(cl_dimension<Dimensions>(d));
  return r;
}
template <int Dimensions, typename F>
inline range<Dimensions> make_range(F f) {
  range<Dimensions> r;
  for (int d = 0; d < Dimensions; ++d) r[d] = f(cl_dimension<Dimensions>(d));
  return r;
}
template <int Dimensions>
inline size_t linear(const id<Dimensions>& i, const range<Dimensions>& r) {
  size_t n = 0;
  for (int d = 0; d < Dimensions; ++d) n = n * r[d] + i[d];
  return n;
}
// The same from OpenCL's work-item functions: `index(c)` in `size(c)` per OpenCL dimension c,
// SYCL's first dimension the slowest. The one-dimension accessors below call the work-item
// function of their dimension directly (no id or range built): less IR for every kernel.
template <int Dimensions, typename Index, typename Size>
inline size_t linear_of(Index index, Size size) {
  size_t n = 0;
  for (int d = 0; d < Dimensions; ++d) {
    const int c = cl_dimension<Dimensions>(d);
    n = n * size(c) + index(c);
  }
  return n;
}
inline size_t global_offset(int dimension) {
#ifdef __NVPTX__
  (void)dimension;
  return 0;  // CUDA launches have no offset (and libclc 15 no function)
#else
  return ::get_global_offset(dimension);
#endif
}

inline size_t local_linear_id() {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
         get_local_id(0);
}
inline size_t local_linear_size() { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

}  // namespace detail

template <int Dimensions = 1>
class group {
 public:
  static constexpr int dimensions = Dimensions;
  using id_type = id<Dimensions>;
  using range_type = range<Dimensions>;
  using linear_id_type = size_t;

  id<Dimensions> get_group_id() const {
    return detail::make_id<Dimensions>([](int d) { return ::get_group_id(d); });
  }
  size_t get_group_id(int dimension) const {
    return ::get_group_id(detail::cl_dimension<Dimensions>(dimension));
  }
  id<Dimensions> get_local_id() const {
    return detail::make_id<Dimensions>([](int d) { return ::get_local_id(d); });
  }
  size_t get_local_id(int dimension) const {
    return ::get_local_id(detail::cl_dimension<Dimensions>(dimension));
  }
  range<Dimensions> get_local_range() const {
    return detail::make_range<Dimensions>([](int d) { return ::get_local_size(d); });
  }
  size_t get_local_range(int dimension) const {
    return ::get_local_size(detail::cl_dimension<Dimensions>(dimension));
  }
  range<Dimensions> get_group_range() const {
    return detail::make_range<Dimensions>([](int d) { return ::get_num_groups(d); });
  }
  size_t get_group_range(int dimension) const {
    return ::get_num_groups(detail::cl_dimension<Dimensions>(dimension));
  }
  range<Dimensions> get_max_local_range() const { return get_local_range(); }
  size_t get_group_linear_id() const {
    return detail::linear_of<Dimensions>([](int c) { return ::get_group_id(c); },
                                         [](int c) { return ::get_num_groups(c); });
  }
  size_t get_local_linear_id() const { return detail::local_linear_id(); }
  size_t get_group_linear_range() const { return get_group_range().size(); }
  size_t get_local_linear_range() const { return detail::local_linear_size(); }
  bool leader() const { return get_local_linear_id() == 0; }
  size_t operator[](int dimension) const { return get_group_id(dimension); }
};

class sub_group {
 public:
  static constexpr int dimensions = 1;
  using id_type = id<1>;
  using range_type = range<1>;
  using linear_id_type = uint;

#ifdef __NVPTX__
  static constexpr uint max_size = 32;
#else
  static constexpr uint max_size = 1;
#endif

  id<1> get_local_id() const { return id<1>(get_local_linear_id()); }
  uint get_local_linear_id() const {
    return static_cast<uint>(detail::local_linear_id() % max_size);
  }
  range<1> get_local_range() const { return range<1>(get_local_linear_range()); }
  uint get_local_linear_range() const {
    const size_t total = detail::local_linear_size();
    const size_t first = detail::local_linear_id() / max_size * max_size;
    return static_cast<uint>(total - first < max_size ? total - first : max_size);
  }
  range<1> get_max_local_range() const { return range<1>(max_size); }
  id<1> get_group_id() const { return id<1>(get_group_linear_id()); }
  uint get_group_linear_id() const {
    return static_cast<uint>(detail::local_linear_id() / max_size);
  }
  range<1> get_group_range() const { return range<1>(get_group_linear_range()); }
  uint get_group_linear_range() const {
    return static_cast<uint>((detail::local_linear_size() + max_size - 1) / max_size);
  }
  bool leader() const { return get_local_linear_id() == 0; }
};

template <int Dimensions = 1>
class nd_item {
 public:
  static constexpr int dimensions = Dimensions;

  id<Dimensions> get_global_id() const {
    return detail::make_id<Dimensions>([](int d) { return ::get_global_id(d); });
  }
  size_t get_global_id(int dimension) const {
    return ::get_global_id(detail::cl_dimension<Dimensions>(dimension));
  }
  size_t get_global_linear_id() const {
    return detail::linear_of<Dimensions>(
        [](int c) { return ::get_global_id(c) - detail::global_offset(c); },
        [](int c) { return ::get_global_size(c); });
  }
  id<Dimensions> get_local_id() const {
    return detail::make_id<Dimensions>([](int d) { return ::get_local_id(d); });
  }
  size_t get_local_id(int dimension) const {
    return ::get_local_id(detail::cl_dimension<Dimensions>(dimension));
  }
  size_t get_local_linear_id() const { return detail::local_linear_id(); }
  group<Dimensions> get_group() const { return group<Dimensions>(); }
  size_t get_group(int dimension) const { return get_group().get_group_id(dimension); }
  size_t get_group_linear_id() const { return get_group().get_group_linear_id(); }
  sub_group get_sub_group() const { return sub_group(); }
  range<Dimensions> get_global_range() const {
    return detail::make_range<Dimensions>([](int d) { return ::get_global_size(d); });
  }
  size_t get_global_range(int dimension) const {
    return ::get_global_size(detail::cl_dimension<Dimensions>(dimension));
  }
  range<Dimensions> get_local_range() const { return get_group().get_local_range(); }
  size_t get_local_range(int dimension) const { return get_group().get_local_range(dimension); }
  range<Dimensions> get_group_range() const { return get_group().get_group_range(); }
  size_t get_group_range(int dimension) const { return get_group().get_group_range(dimension); }
  id<Dimensions> get_offset() const {
    return detail::make_id<Dimensions>([](int d) { return detail::global_offset(d); });
  }
};

namespace ext::oneapi::this_work_item {

template <int Dimensions>
nd_item<Dimensions> get_nd_item() { return nd_item<Dimensions>(); }
template <int Dimensions>
group<Dimensions> get_work_group() { return group<Dimensions>(); }
inline sub_group get_sub_group() { return sub_group(); }

}  // namespace ext::oneapi::this_work_item

namespace ext::oneapi::experimental::this_work_item {
using ext::oneapi::this_work_item::get_nd_item;
using ext::oneapi::this_work_item::get_sub_group;
using ext::oneapi::this_work_item::get_work_group;
}  // namespace ext::oneapi::experimental::this_work_item

// Every work-item of the group waits here; local and global memory written before are
// visible after (OpenCL's barrier with both fences).
template <int Dimensions>
void group_barrier(const group<Dimensions>&) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
inline void group_barrier(const sub_group&) {
#ifdef __NVPTX__
  __nvvm_bar_warp_sync(0xffffffffu);
#else
  mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#endif
}

}  // namespace sycl
