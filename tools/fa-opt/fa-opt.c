/* fa-opt: the driver lives in libfa (faOptMain) so other tools can embed it. */
#include "fa-c/OptMain.h"

int main(int argc, char **argv) { return faOptMain(argc, argv); }
