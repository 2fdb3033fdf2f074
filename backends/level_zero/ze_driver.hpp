// ZeDriver: one Level Zero driver the loader reports (zeDriverGet) and the context this
// backend creates on it (zeContextCreate), shared by the driver's devices so that their
// memory, events and copies work between them (peer copies need one context).
//
// Ownership: owned by the ZeBackend, destroyed after its devices (the context is destroyed
// with it). Thread-safety: immutable after construction.
#pragma once

#include <level_zero/ze_api.h>

#include <string>

#include "ze_loader.hpp"

namespace plexus::level_zero {

class ZeDriver {
 public:
  // Throws plexus::error(device) naming the call that failed.
  ZeDriver(const ZeLoader& loader, ze_driver_handle_t driver);
  ~ZeDriver();
  ZeDriver(const ZeDriver&) = delete;
  ZeDriver& operator=(const ZeDriver&) = delete;

  const ZeLoader& loader() const { return loader_; }
  ze_driver_handle_t handle() const { return driver_; }
  ze_context_handle_t context() const { return context_; }
  ze_api_version_t api_version() const { return api_version_; }
  std::string api_version_text() const;     // "1.3"
  std::string driver_version_text() const;  // the driver's version number, as it reports it

 private:
  const ZeLoader& loader_;
  ze_driver_handle_t driver_;
  ze_context_handle_t context_ = nullptr;
  ze_api_version_t api_version_{};
  std::uint32_t driver_version_ = 0;
};

}  // namespace plexus::level_zero
