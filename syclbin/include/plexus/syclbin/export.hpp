// Symbol visibility for libplexus-syclbin (built with hidden visibility; the API is marked).
#pragma once

#define PLEXUS_SYCLBIN_API __attribute__((visibility("default")))
