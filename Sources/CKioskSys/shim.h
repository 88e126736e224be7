#ifndef CKIOSKSYS_SHIM_H
#define CKIOSKSYS_SHIM_H
// Linux headers Swift's Glibc module leaves out: signalfd for the kiosk's poll loop.
#include <sys/signalfd.h>
#endif
