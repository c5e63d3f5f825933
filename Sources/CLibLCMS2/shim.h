#ifndef CLIBLCMS2_SHIM_H
#define CLIBLCMS2_SHIM_H
#include <lcms2.h>
#endif
