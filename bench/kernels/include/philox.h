// Philox4x32-10 counter-based random numbers (Salmon et al., SC'11), and helpers that turn
// them into uniform and normal floats.
#ifndef PHILOX_H
#define PHILOX_H

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

typedef struct {
  uint4 counter;
  uint2 key;
} philox_state;

inline uint mulhilo(uint a, uint b, uint* hi) {
  *hi = mul_hi(a, b);
  return a * b;
}

inline uint4 philox_round(uint4 ctr, uint2 key) {
  uint hi0, hi1;
  const uint lo0 = mulhilo(PHILOX_M0, ctr.x, &hi0);
  const uint lo1 = mulhilo(PHILOX_M1, ctr.z, &hi1);
  return (uint4)(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
}

inline uint4 philox4x32_10(uint4 ctr, uint2 key) {
  for (int round = 0; round < 10; ++round) {
    ctr = philox_round(ctr, key);
    key += (uint2)(PHILOX_W0, PHILOX_W1);
  }
  return ctr;
}

inline uint4 philox_next(philox_state* state) {
  const uint4 out = philox4x32_10(state->counter, state->key);
  state->counter.x += 1;
  if (state->counter.x == 0) state->counter.y += 1;
  return out;
}

inline float uniform_from_bits(uint bits) {
  return (float)(bits >> 8) * (1.0f / 16777216.0f) + (0.5f / 16777216.0f);
}

inline float2 box_muller(float u1, float u2) {
  const float radius = sqrt(-2.0f * log(u1));
  const float angle = 2.0f * M_PI_F * u2;
  return (float2)(radius * cos(angle), radius * sin(angle));
}
#endif
