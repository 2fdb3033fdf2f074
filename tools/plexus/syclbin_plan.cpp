#include "syclbin_plan.hpp"

#include <iostream>

#include "config_option.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/runtime.hpp"
#include "plexus/syclbin/bundle.hpp"

namespace plexus::tool {

int syclbin_plan(const CommandLine& line) {
  namespace sb = plexus::syclbin;
  if (line.positional().size() != 1)
    throw usage_error("syclbin plan: expected one FILE");
  const std::string path = line.positional()[0];
  sb::Syclbin file;
  try {
    file = sb::Syclbin::read_file(path);
  } catch (const error& failure) {
    throw error(failure.category(), "'" + path + "': " + failure.what());
  }
  Runtime runtime(config_from(line));
  const std::vector<Device*> devices = runtime.devices();
  const std::vector<sb::DevicePlan> plans = sb::plan_for(runtime, file);
  std::cout << path << ": " << file.abstract_modules.size() << " abstract module(s); "
            << sb::offered_images(file) << "\n";
  bool any = false;
  for (const sb::DevicePlan& plan : plans) {
    const DeviceInfo& info = devices[plan.device]->info();
    std::cout << "device '" << info.name << "' (" << info.architecture << "):\n";
    if (!plan.failure.empty()) {
      std::cout << "  no fit: " << plan.failure << "\n";
      continue;
    }
    any = true;
    for (const sb::ImageChoice& choice : plan.choices) std::cout << "  " << choice.reason << "\n";
  }
  if (devices.empty()) std::cout << "no available devices\n";
  if (any && line.flag("load")) {
    KernelBundle bundle = sb::load_bundle(runtime, file, "'" + path + "'");
    std::cout << "loaded:\n" << bundle.description() << "\nkernels:";
    for (const std::string& name : bundle.kernel_names()) std::cout << " " << name;
    std::cout << "\n";
  }
  return any ? 0 : 1;
}

}  // namespace plexus::tool
