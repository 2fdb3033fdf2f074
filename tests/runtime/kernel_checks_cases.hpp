// The checked-kernel test set (issue 15 item 5), one source for every backend: each case
// launches a kernel that goes out of bounds in one way (a global read and write past the
// end, a sub-range accessor left through its own range in 1D and in 2D, a __local argument,
// a __local variable, vload/vstore and atomics, a store through a read accessor, and the
// same under -cl-opt-disable) and expects its task to fail with a plexus::error naming the
// kernel, the argument, the index, the extent and the work-item; the process goes on, and
// in-bounds kernels give their usual results. run_checked_cases counts what was caught.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "plexus/plexus.hpp"

namespace plexus::test::checks {

inline const char* const kernels = R"(
__kernel void shift_copy(__global const float* in, __global float* out, int shift) {
  int i = get_global_id(0);
  out[i] = in[i + shift];
}
__kernel void shift_store(__global const float* in, __global float* out, int shift) {
  int i = get_global_id(0);
  out[i + shift] = in[i];
}
// Scales rows [first, first + rows) of a matrix of `cols` columns: the kernel itself adds
// `first`, so a wrong `first` leaves the accessor's sub-range.
__kernel void scale_rows(__global int* m, int first, int cols) {
  int r = get_global_id(0) + first, c = get_global_id(1);
  m[r * cols + c] *= 3;
}
__kernel void local_neighbour(__global const float* in, __global float* out,
                              __local float* scratch, int reach) {
  int l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l + reach];
}
__kernel void local_variable(__global const float* in, __global float* out, int reach) {
  __local float part[16];
  int l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = part[(l + reach) % 32];
}
__kernel void vector_copy(__global const float* in, __global float* out, int shift) {
  int i = get_global_id(0);
  vstore4(vload4(i + shift, in), i, out);
}
__kernel void count(__global int* counters, __global const int* which) {
  atomic_inc(&counters[which[get_global_id(0)]]);
}
__kernel void double_in_place(__global float* data) {
  data[get_global_id(0)] *= 2.0f;
}
)";

struct Outcome {
  int cases = 0;
  int caught = 0;  // violations reported as expected
};

// Expects `event` to fail with a plexus::error whose message holds every part.
inline void expect_violation(const Event& event, const std::vector<std::string>& parts,
                             Outcome& outcome) {
  ++outcome.cases;
  try {
    event.wait();
  } catch (const error& failure) {
    INFO(failure.what());
    bool all = true;
    for (const std::string& part : parts) {
      CHECK_THAT(failure.what(), Catch::Contains(part));
      all = all && std::string(failure.what()).find(part) != std::string::npos;
    }
    CHECK(failure.category() == error_category::invalid_argument);
    if (all) ++outcome.caught;
    return;
  }
  FAIL_CHECK("no violation was reported; expected: " << parts.front());
}

inline std::vector<float> iota_floats(std::size_t n) {
  std::vector<float> values(n);
  std::iota(values.begin(), values.end(), 0.0f);
  return values;
}

// Every case on `device` with kernels built with `options`. The runtime's compiler checks.
inline Outcome run_checked_cases(Runtime& rt, Device& device, const std::string& options = "") {
  // Out of order: on an in-order queue a failed command fails the commands after it.
  Queue q = rt.queue(device, QueueOrder::out_of_order);
  KernelBundle bundle = rt.build(kernels, options);
  REQUIRE(bundle.kernel("shift_copy").info().bounds_checked);
  Outcome outcome;
  const std::size_t n = 256;
  const std::vector<float> values = iota_floats(n);

  // In bounds: the usual results (and no false report).
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    q.submit([&](Handler& h) {
       h.parallel_for(bundle.kernel("shift_copy"), Range{n - 1}, in.access(h, read),
                      out.access(h, discard_write, Range{n - 1}), 1);
     }).wait();
    auto view = out.host_access(read, Range{n - 1});
    for (std::size_t i = 0; i + 1 < n; ++i) REQUIRE(view[i] == values[i + 1]);
  }
  // A global read one past the end, by the last work-item.
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("shift_copy"), Range{n}, in.access(h, read),
                     out.access(h, discard_write), 1);
    }), {"kernel 'shift_copy'", "argument 1 ('in')", "element 256", "extent {256}",
         "work-item (255, 0, 0)", "outside the accessor's range"}, outcome);
  }
  // A global write before the start.
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("shift_store"), Range{n}, in.access(h, read),
                     out.access(h, discard_write), -1);
    }), {"kernel 'shift_store'", "argument 2 ('out')", "element -1", "work-item (0, 0, 0)"},
        outcome);
  }
  // A 1D sub-range accessor: elements [64, 128) of 256; the kernel reads [65, 129).
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("shift_copy"), Range{64}, in.access(h, read, Range{64}, Range{64}),
                     out.access(h, discard_write, Range{64}), 65);
    }), {"argument 1 ('in')", "element 128", "offset {64}, extent {64}", "work-item (63, 0, 0)"},
        outcome);
  }
  // A 2D sub-range (rows 4..7 of 8x6) left through a row before it, in bounds of the buffer.
  {
    std::vector<int> matrix(8 * 6, 1);
    Buffer<int, 2> m(matrix.data(), Range{8, 6});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("scale_rows"), Range{4, 6},
                     m.access(h, read_write, Range{4, 6}, Range{4, 0}), 3, 6);
    }), {"kernel 'scale_rows'", "argument 1 ('m')", "index {3, ", "offset {4, 0}, extent {4, 6}",
         "work-item (0, "}, outcome);
    // The right rows pass, and only they change.
    std::vector<int> fresh(8 * 6, 1);
    Buffer<int, 2> m2(fresh.data(), Range{8, 6});
    q.submit([&](Handler& h) {
       h.parallel_for(bundle.kernel("scale_rows"), Range{4, 6},
                      m2.access(h, read_write, Range{4, 6}, Range{4, 0}), 4, 6);
     }).wait();
    auto view = m2.host_access(read);
    CHECK(view(3, 5) == 1);
    CHECK(view(4, 0) == 3);
    CHECK(view(7, 5) == 3);
  }
  // A 2D box of columns (columns 3..5 of every row): rows 1..7, columns 0..2 lie between
  // the box's first and last element in the buffer, but outside the box.
  {
    std::vector<int> matrix(8 * 6, 1);
    Buffer<int, 2> m(matrix.data(), Range{8, 6});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("scale_rows"), Range{7, 3},
                     m.access(h, read_write, Range{8, 3}, Range{0, 3}), 1, 6);
    }), {"argument 1 ('m')", "index {", "offset {0, 3}, extent {8, 3}",
         "outside the accessor's range"}, outcome);
  }
  // A __local argument of 16 floats read one past its end.
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("local_neighbour"), nd_range(Range{n}, Range{16}),
                     in.access(h, read), out.access(h, discard_write), local<float>(16), 1);
    }), {"kernel 'local_neighbour'", "argument 3 ('scratch')", "bytes [64, 68)",
         "outside its 64 bytes of local memory"}, outcome);
  }
  // A __local variable of 16 floats, indexed up to 31.
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("local_variable"), nd_range(Range{n}, Range{16}),
                     in.access(h, read), out.access(h, discard_write), 1);
    }), {"kernel 'local_variable'", "a __local variable of the kernel, outside its 64 bytes"},
        outcome);
  }
  // vload4 past the end (a builtin's access, before the device library).
  {
    Buffer<float> in(values.data(), n), out(Range{n});
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("vector_copy"), Range{n / 4}, in.access(h, read),
                     out.access(h, discard_write), 1);
    }), {"kernel 'vector_copy'", "argument 1 ('in')", "element 256", "work-item (63, 0, 0)"},
        outcome);
  }
  // An atomic on a counter past the end.
  {
    std::vector<int> which(n, 0);
    which[200] = 8;
    Buffer<int> counters(Range{8}), indices(which.data(), n);
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("count"), Range{n}, counters.access(h, discard_write),
                     indices.access(h, read));
    }), {"kernel 'count'", "argument 1 ('counters')", "element 8", "work-item (200, 0, 0)"},
        outcome);
  }
  // A store through a read accessor, in bounds.
  {
    std::vector<float> data = values;
    Buffer<float> b(data.data(), n);
    expect_violation(q.submit([&](Handler& h) {
      h.parallel_for(bundle.kernel("double_in_place"), Range{n}, b.access(h, read));
    }), {"kernel 'double_in_place'", "argument 1 ('data')", "stored to element",
         "through a read-only accessor"}, outcome);
  }
  // The process goes on: a correct launch after all that.
  {
    std::vector<float> data = values;
    Buffer<float> b(data.data(), n);
    q.submit([&](Handler& h) {
       h.parallel_for(bundle.kernel("double_in_place"), Range{n}, b.access(h, read_write));
     }).wait();
    auto view = b.host_access(read);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(view[i] == 2.0f * values[i]);
  }
  return outcome;
}

}  // namespace plexus::test::checks
