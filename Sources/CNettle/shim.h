#ifndef CNETTLE_SHIM_H
#define CNETTLE_SHIM_H
// Nettle names its functions nettle_*, with #define aliases Swift does not import: callers use
// the nettle_* names.
#include <nettle/hmac.h>
#include <nettle/sha2.h>
#endif
