/* libqrencode, loaded on first use: the stubs of the functions qrcheckin calls. */
#include "CQRencode.h"
#include "library_loader.h"

#define QRENCODE_FUNCTIONS(VALUE, VOID, NORETURN)                                                  \
    VALUE(QRinput *, QRinput_new2, (int version, QRecLevel level), (version, level))               \
    VALUE(int, QRinput_append, (QRinput * input, QRencodeMode mode, int size, const unsigned char *data), \
          (input, mode, size, data))                                                               \
    VALUE(int, QRinput_appendECIheader, (QRinput * input, unsigned int ecinum), (input, ecinum))   \
    VOID(QRinput_free, (QRinput * input), (input))                                                 \
    VALUE(int, Split_splitStringToQRinput, (const char *string, QRinput *input, QRencodeMode hint, int casesensitive), \
          (string, input, hint, casesensitive))                                                    \
    VALUE(QRcode *, QRcode_encodeInput, (QRinput * input), (input))                                \
    VOID(QRcode_free, (QRcode * qrcode), (qrcode))

CLL_STUBS("libqrencode.so.4", QRENCODE_FUNCTIONS, NULL)

const char *cqrencode_load(void) {
    return cll_load_failure(&cll_this_library);
}
