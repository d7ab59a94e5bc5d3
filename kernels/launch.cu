// launch.cu - the launch-shape debug switch (see launch.h).
#include "kernels/launch.h"

extern "C" int wb_launch_debug = 0;
