#include "pixpipe_png.h"
