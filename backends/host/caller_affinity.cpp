#include "caller_affinity.hpp"

#include <pthread.h>

namespace plexus::host {

CallerAffinity::CallerAffinity(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  const pthread_t self = pthread_self();
  if (pthread_getaffinity_np(self, sizeof previous_, &previous_) != 0) return;
  cpu_set_t share;
  CPU_ZERO(&share);
  for (int cpu : cpus) CPU_SET(cpu, &share);
  if (CPU_EQUAL(&share, &previous_)) return;  // already there: nothing to restore
  pinned_ = pthread_setaffinity_np(self, sizeof share, &share) == 0;
}

CallerAffinity::~CallerAffinity() {
  if (pinned_) pthread_setaffinity_np(pthread_self(), sizeof previous_, &previous_);
}

}  // namespace plexus::host
