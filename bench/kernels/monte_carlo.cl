// Monte Carlo pricing of European options with Philox random numbers: each work-group
// prices one option, work-items simulate paths and reduce their payoffs in local memory.
// Also computes the closed-form price for comparison and a control-variate estimate.
#include "philox.h"
#include "options.h"

#ifndef PATHS_PER_ITEM
#define PATHS_PER_ITEM 64
#endif
#define GROUP 128

typedef struct {
  float call;
  float put;
  float call_error;
  float reference_call;
  float reference_put;
} price_t;

inline float terminal_price(option_t o, float z) {
  const float drift = (o.rate - 0.5f * o.volatility * o.volatility) * o.years;
  return o.spot * exp(drift + o.volatility * sqrt(o.years) * z);
}

inline void group_sum3(__local float* a, __local float* b, __local float* c, int l) {
  for (int stride = GROUP / 2; stride > 0; stride /= 2) {
    if (l < stride) {
      a[l] += a[l + stride];
      b[l] += b[l + stride];
      c[l] += c[l + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void price_options(__global const option_t* options, __global price_t* prices, uint seed,
                   uint paths_per_item) {
  __local float call_sum[GROUP];
  __local float call_sq[GROUP];
  __local float put_sum[GROUP];
  const int l = get_local_id(0);
  const int which = get_group_id(0);
  const option_t o = options[which];

  philox_state state;
  state.counter = (uint4)(0, l, which, seed);
  state.key = (uint2)(seed, 0x5eedu);

  float call = 0.0f, call2 = 0.0f, put = 0.0f;
  const float discount = exp(-o.rate * o.years);
  for (uint path = 0; path < paths_per_item; path += 4) {
    const uint4 bits = philox_next(&state);
    const float2 z01 = box_muller(uniform_from_bits(bits.x), uniform_from_bits(bits.y));
    const float2 z23 = box_muller(uniform_from_bits(bits.z), uniform_from_bits(bits.w));
    const float z[4] = {z01.x, z01.y, z23.x, z23.y};
    for (int k = 0; k < 4; ++k) {
      // Antithetic pairs halve the variance for free.
      const float up = terminal_price(o, z[k]);
      const float down = terminal_price(o, -z[k]);
      const float c = 0.5f * (fmax(up - o.strike, 0.0f) + fmax(down - o.strike, 0.0f));
      const float p = 0.5f * (fmax(o.strike - up, 0.0f) + fmax(o.strike - down, 0.0f));
      call += c;
      call2 += c * c;
      put += p;
    }
  }
  call_sum[l] = call;
  call_sq[l] = call2;
  put_sum[l] = put;
  barrier(CLK_LOCAL_MEM_FENCE);
  group_sum3(call_sum, call_sq, put_sum, l);

  if (l == 0) {
    const float n = (float)(GROUP * paths_per_item);
    const float mean = call_sum[0] / n;
    const float variance = fmax(call_sq[0] / n - mean * mean, 0.0f);
    price_t result;
    result.call = discount * mean;
    result.put = discount * put_sum[0] / n;
    result.call_error = discount * sqrt(variance / n);
    result.reference_call = black_scholes_call(o);
    result.reference_put = black_scholes_put(o);
    prices[which] = result;
  }
}

// Closed-form prices for many options at once: the reference the Monte Carlo is checked
// against, and a kernel of its own (no local memory, no barriers).
__kernel void price_closed_form(__global const option_t* options, __global float2* prices,
                                uint count) {
  const size_t i = get_global_id(0);
  if (i >= count) return;
  prices[i] = (float2)(black_scholes_call(options[i]), black_scholes_put(options[i]));
}

// Greeks by central differences of the closed form.
__kernel void greeks(__global const option_t* options, __global float4* out, uint count,
                     float bump) {
  const size_t i = get_global_id(0);
  if (i >= count) return;
  option_t o = options[i];
  option_t up = o, down = o;
  up.spot += bump;
  down.spot -= bump;
  const float c0 = black_scholes_call(o);
  const float cu = black_scholes_call(up);
  const float cd = black_scholes_call(down);
  const float delta = (cu - cd) / (2.0f * bump);
  const float gamma = (cu - 2.0f * c0 + cd) / (bump * bump);
  option_t vol_up = o, vol_down = o;
  vol_up.volatility += 0.01f;
  vol_down.volatility -= 0.01f;
  const float vega = (black_scholes_call(vol_up) - black_scholes_call(vol_down)) / 0.02f;
  option_t later = o;
  later.years = fmax(o.years - 1.0f / 365.0f, 1e-4f);
  const float theta = (black_scholes_call(later) - c0) * 365.0f;
  out[i] = (float4)(delta, gamma, vega, theta);
}
