#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
/* Linux event descriptors Glibc's Swift module leaves out: timers, signals and file events
   that a single poll(2) loop can wait on together. */
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/timex.h>
#include <errno.h>

/* The flag enums are anonymous in glibc; give Swift plain ints. */
static inline int clinux_tfd_timer_abstime(void) { return TFD_TIMER_ABSTIME; }
static inline int clinux_tfd_timer_cancel_on_set(void) { return TFD_TIMER_CANCEL_ON_SET; }
static inline int clinux_tfd_flags(void) { return TFD_CLOEXEC | TFD_NONBLOCK; }
static inline int clinux_sfd_flags(void) { return SFD_CLOEXEC | SFD_NONBLOCK; }

/* A Unix-socket peer's supplementary groups (Linux 4.13+); older headers lack the name. */
#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif
static inline int clinux_so_peergroups(void) { return SO_PEERGROUPS; }

/* open(2)'s O_PATH (a handle to walk paths with, needing only search permission); Glibc's
   Swift module is built without _GNU_SOURCE, which declares it. The value is the kernel's
   generic one (every architecture but alpha, parisc and sparc). */
#ifndef O_PATH
#define O_PATH 010000000
#endif
static inline int clinux_o_path(void) { return O_PATH; }

/* The kernel's clock synchronisation, read-only (modes = 0: changes nothing, needs no
   capability). Returns 1 when synchronised, 0 when not (STA_UNSYNC or TIME_ERROR), and
   -errno when the call is refused (EPERM under a seccomp filter such as ProtectClock=yes). */
static inline int clinux_clock_synchronized(long *maxerror_us) {
    struct timex tx = {0};
    tx.modes = 0;
    int state = adjtimex(&tx);
    if (state < 0) return -errno;
    *maxerror_us = tx.maxerror;
    return (state == TIME_ERROR || (tx.status & STA_UNSYNC)) ? 0 : 1;
}
#endif
