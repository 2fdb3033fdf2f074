# plexus_add_plugin(NAME <name> KIND <kind> SOURCES <src>...
#                   [LINK_LIBRARIES <lib>...] [OUTPUT_DIRECTORY <dir>]
#                   [INSTALL_DESTINATION <dir>] [NO_INSTALL])
#
# Builds a Plexus plugin: a MODULE library named libplexus_<kind>_<name>.so with hidden
# visibility, compiled as C++20, linked against plexus::plugin (plexus::core and the
# headers the plugin headers include) with no undefined symbols, an
# $ORIGIN rpath to the core it is installed beside, and an install rule into
# <libdir>/plexus/plugins (relative to CMAKE_INSTALL_PREFIX; INSTALL_DESTINATION overrides).
# Creates the target plexus_<kind>_<name>. One source must use PLEXUS_PLUGIN(...) from
# "plexus/plugin.hpp" with the same kind and name.
#
# The same file serves in-tree plugins (included by the top-level CMakeLists.txt) and
# out-of-tree plugins (included by PlexusConfig.cmake after find_package(Plexus)).
include_guard(GLOBAL)
include(GNUInstallDirs)

set(PLEXUS_PLUGIN_KINDS backend scheduler memory cache compiler fusion)

function(plexus_add_plugin)
  cmake_parse_arguments(PARSE_ARGV 0 arg "NO_INSTALL" "NAME;KIND;OUTPUT_DIRECTORY;INSTALL_DESTINATION"
                        "SOURCES;LINK_LIBRARIES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "plexus_add_plugin: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME OR NOT arg_KIND OR NOT arg_SOURCES)
    message(FATAL_ERROR "plexus_add_plugin: NAME, KIND and SOURCES are required")
  endif()
  if(NOT arg_KIND IN_LIST PLEXUS_PLUGIN_KINDS)
    message(FATAL_ERROR "plexus_add_plugin(${arg_NAME}): unknown KIND '${arg_KIND}' "
                        "(expected one of: ${PLEXUS_PLUGIN_KINDS})")
  endif()
  if(NOT arg_NAME MATCHES "^[a-z0-9_]+$" OR arg_NAME MATCHES "__")
    message(FATAL_ERROR "plexus_add_plugin: NAME '${arg_NAME}' must match [a-z0-9_]+ "
                        "without a double underscore")
  endif()
  if(NOT TARGET plexus::core)
    message(FATAL_ERROR "plexus_add_plugin(${arg_NAME}): the target plexus::core does not "
                        "exist; call find_package(Plexus REQUIRED) first")
  endif()
  if(NOT TARGET plexus::plugin)
    message(FATAL_ERROR "plexus_add_plugin(${arg_NAME}): building a plugin needs the Boost "
                        "(>= 1.81, headers) and spdlog development packages, which "
                        "plexus/plugin.hpp and plexus/log.hpp include, and find_package(Plexus) "
                        "did not find them (Debian: apt-get install libboost-dev libspdlog-dev)")
  endif()

  set(target plexus_${arg_KIND}_${arg_NAME})
  add_library(${target} MODULE ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE plexus::plugin ${arg_LINK_LIBRARIES})
  # The public headers use C++20 (std::span, ...), whatever the project's own default.
  target_compile_features(${target} PRIVATE cxx_std_20)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()

  # Installed in <libdir>/plexus/plugins, the core is two levels up. An out-of-tree plugin
  # installed elsewhere also finds the core of the Plexus installation it was built against.
  set(rpath "$ORIGIN/../..")
  if(DEFINED PLEXUS_LIBRARY_DIR)
    list(APPEND rpath "${PLEXUS_LIBRARY_DIR}")
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME ${target}
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    INSTALL_RPATH "${rpath}")
  if(arg_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${arg_OUTPUT_DIRECTORY})
  elseif(DEFINED PLEXUS_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${PLEXUS_PLUGIN_OUTPUT_DIRECTORY})
  endif()
  if(NOT arg_NO_INSTALL)
    if(arg_INSTALL_DESTINATION)
      set(destination ${arg_INSTALL_DESTINATION})
    else()
      set(destination ${CMAKE_INSTALL_LIBDIR}/plexus/plugins)
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION ${destination})
  endif()
  set_property(GLOBAL APPEND PROPERTY PLEXUS_PLUGIN_TARGETS ${target})
endfunction()
