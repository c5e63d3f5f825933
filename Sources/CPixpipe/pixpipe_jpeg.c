#include "pixpipe_jpeg.h"
