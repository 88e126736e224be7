#ifndef CQRENCODE_H
#define CQRENCODE_H
#include <qrencode.h>

/*
 * libqrencode's mode segmenter (digits -> numeric, A-Z 0-9 $%*+-./: -> alphanumeric, the rest ->
 * 8-bit; Kanji only with hint QR_MODE_KANJI). QRcode_encodeString() is exactly QRinput_new2() +
 * this + QRcode_encodeInput(), but offers no way to put an ECI header in front, which UTF-8 text
 * needs (see QRCodeEncoder.swift). The function is not in qrencode.h, yet it is exported and
 * tracked in Debian's libqrencode4 symbols file ("Split_splitStringToQRinput@Base 3.2.0"), so it
 * is part of the library's ABI; if a future release hid it, loading would fail loudly.
 */
extern int Split_splitStringToQRinput(const char *string, QRinput *input, QRencodeMode hint, int casesensitive);

/* libqrencode is loaded on the first call into it (CLibraryLoader says why). Loads it now:
   NULL, or why it cannot be loaded (for a daemon's check at start). */
const char *cqrencode_load(void);
#endif
