// Boost.JSON's implementation, compiled once into the tool (header-only use elsewhere).
#include <boost/json/src.hpp>
