#include "cuda_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, cuda, plexus::cuda::CudaBackend, "0.1.0",
              "NVIDIA GPUs through the CUDA driver API (loaded at run time): PTX")
