#ifndef CSODIUM_H
#define CSODIUM_H
#include <sodium.h>

/* libsodium is loaded, and sodium_init() run, on the first call into it (CLibraryLoader says
   why). Loads it now: NULL, or why it cannot be loaded or initialised (for a daemon's check
   at start). */
const char *csodium_load(void);
#endif
