#ifndef COATH_SHIM_H
#define COATH_SHIM_H
/* liboath (OATH Toolkit 2.6.7, Debian 12's liboath-dev): RFC 6238 TOTP and RFC 4648 base32 for
   the console's second factor. Linked like the server's other libraries (it needs only libc):
   only qrcheckin-server uses it. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <oath.h>

/* oath_totp_validate4_callback's flag for RFC 6238's HMAC-SHA1, what authenticator apps
   compute: the enum has cases only for SHA-256 and SHA-512, so SHA-1 is no flag at all. */
static const int coath_totp_hmac_sha1 = 0;
#endif
