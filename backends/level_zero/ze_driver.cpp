#include "ze_driver.hpp"

namespace plexus::level_zero {

ZeDriver::ZeDriver(const ZeLoader& loader, ze_driver_handle_t driver)
    : loader_(loader), driver_(driver) {
  ZeLoader::check("zeDriverGetApiVersion", loader.driver_get_api_version(driver, &api_version_));
  ze_driver_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  ZeLoader::check("zeDriverGetProperties", loader.driver_get_properties(driver, &properties));
  driver_version_ = properties.driverVersion;
  ze_context_desc_t description{};
  description.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  ZeLoader::check("zeContextCreate", loader.context_create(driver, &description, &context_));
}

ZeDriver::~ZeDriver() {
  if (context_) loader_.context_destroy(context_);
}

std::string ZeDriver::api_version_text() const {
  return std::to_string(ZE_MAJOR_VERSION(api_version_)) + "." +
         std::to_string(ZE_MINOR_VERSION(api_version_));
}

std::string ZeDriver::driver_version_text() const {
  // Intel's drivers pack major.minor.build as 8.8.16 bits; others use their own numbering,
  // so the raw number is given alongside.
  return std::to_string(driver_version_ >> 24) + "." +
         std::to_string((driver_version_ >> 16) & 0xff) + "." +
         std::to_string(driver_version_ & 0xffff) + " (" + std::to_string(driver_version_) + ")";
}

}  // namespace plexus::level_zero
