# plexus_add_plugin(NAME <name> KIND <kind> SOURCES <src>...
#                   [LINK_LIBRARIES <lib>...] [OUTPUT_DIRECTORY <dir>] [NO_INSTALL])
#
# Builds a Plexus plugin: a MODULE library named libplexus_<kind>_<name>.so with hidden
# visibility, linked against plexus::core with no undefined symbols, an $ORIGIN rpath to
# the core it is installed beside, and an install rule into <libdir>/plexus/plugins.
# Creates the target plexus_<kind>_<name>. One source must use PLEXUS_PLUGIN(...) from
# "plexus/plugin.hpp" with the same kind and name.
include_guard(GLOBAL)
include(GNUInstallDirs)

set(PLEXUS_PLUGIN_KINDS backend scheduler memory cache compiler fusion)

function(plexus_add_plugin)
  cmake_parse_arguments(PARSE_ARGV 0 arg "NO_INSTALL" "NAME;KIND;OUTPUT_DIRECTORY"
                        "SOURCES;LINK_LIBRARIES")
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

  set(target plexus_${arg_KIND}_${arg_NAME})
  add_library(${target} MODULE ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE plexus::core ${arg_LINK_LIBRARIES})
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME ${target}
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    INSTALL_RPATH "$ORIGIN/../..")
  if(arg_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${arg_OUTPUT_DIRECTORY})
  elseif(DEFINED PLEXUS_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${PLEXUS_PLUGIN_OUTPUT_DIRECTORY})
  endif()
  if(NOT arg_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/plexus/plugins)
  endif()
  set_property(GLOBAL APPEND PROPERTY PLEXUS_PLUGIN_TARGETS ${target})
endfunction()
