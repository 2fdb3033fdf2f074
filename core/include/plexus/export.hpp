// Symbol visibility for libplexus-core. Plugins are built with hidden visibility;
// everything the core shares with them (interfaces, their key functions, typeinfo of
// exceptions) carries PLEXUS_API so it has one definition in the process.
#pragma once

#define PLEXUS_API __attribute__((visibility("default")))
