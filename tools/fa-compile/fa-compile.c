/* fa-compile: the driver lives in libfa (faCompileMain). */
#include "fa-c/Compile.h"

int main(int argc, char **argv) { return faCompileMain(argc, argv); }
