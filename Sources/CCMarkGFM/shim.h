#ifndef ORGDIR_CCMARKGFM_SHIM_H
#define ORGDIR_CCMARKGFM_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
