// European option description and closed-form Black-Scholes reference prices.
#ifndef OPTIONS_H
#define OPTIONS_H

typedef struct {
  float spot;
  float strike;
  float rate;
  float volatility;
  float years;
} option_t;

inline float normal_cdf(float x) { return 0.5f * erfc(-x * M_SQRT1_2_F); }

inline float black_scholes_call(option_t o) {
  const float sqrt_t = sqrt(o.years);
  const float d1 = (log(o.spot / o.strike) + (o.rate + 0.5f * o.volatility * o.volatility) * o.years) /
                   (o.volatility * sqrt_t);
  const float d2 = d1 - o.volatility * sqrt_t;
  return o.spot * normal_cdf(d1) - o.strike * exp(-o.rate * o.years) * normal_cdf(d2);
}

inline float black_scholes_put(option_t o) {
  const float call = black_scholes_call(o);
  return call - o.spot + o.strike * exp(-o.rate * o.years);
}
#endif
