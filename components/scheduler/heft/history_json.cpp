// Boost.JSON's implementation, compiled once into this plugin (header-only use; the
// plugin's hidden visibility keeps it private).
#include <boost/json/src.hpp>
