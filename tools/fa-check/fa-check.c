/* fa-check: the driver lives in libfa (faCheckMain). */
#include "fa-c/Check.h"

int main(int argc, char **argv) { return faCheckMain(argc, argv); }
