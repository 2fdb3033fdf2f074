// keep_library_loaded: keeps this plugin library mapped until the process ends
// (RTLD_NODELETE), from the first call on. The driver calls back into the plugin's code on
// its own threads (clSetEventCallback: marker_done); a queue's destructor waits for each
// callback to have finished its work (CallbacksInFlight), but not for its last
// instructions, the return into the driver, which would run in unmapped memory once the
// runtime has unloaded its plugins (dlclose). The ICD loader and the drivers stay loaded
// anyway. Thread-safe; cheap after the first call. Logs a warning when it cannot pin.
#pragma once

namespace plexus::opencl {

void keep_library_loaded() noexcept;

}  // namespace plexus::opencl
