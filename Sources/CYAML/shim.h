#ifndef MILEPOST_CYAML_SHIM_H
#define MILEPOST_CYAML_SHIM_H
// The system libyaml 0.2.x (Debian: libyaml-dev). Swift sees it through this header only.
#include <yaml.h>
#endif
