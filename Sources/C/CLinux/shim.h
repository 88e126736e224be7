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

/* What Swift's Glibc overlay (libswiftGlibc.a's one object) provides in Swift, as C: errno,
   the variadic open/openat/fcntl/ioctl, environ, SIG_IGN and the S_IF* bits. Linking that
   object also links the libm functions it wraps, and the dynamic loader binds 56 of them
   at start-up (BIND_NOW): SharedSystem, KioskAdapters and qrcheckin shadow those
   names with these (GlibcOverlay.swift), so it is not linked (docs/BENCHMARKS.md, "Start-up"). */
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
static inline int clinux_errno(void) { return errno; }
static inline void clinux_set_errno(int value) { errno = value; }
static inline int clinux_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int clinux_openat(int fd, const char *path, int flags, mode_t mode) { return openat(fd, path, flags, mode); }
static inline int clinux_fcntl(int fd, int command, int value) { return fcntl(fd, command, value); }
static inline int clinux_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
static inline char **clinux_environ(void) { extern char **environ; return environ; }
static inline void (*clinux_sig_ign(void))(int) { return SIG_IGN; }
static inline mode_t clinux_s_ifmt(void) { return S_IFMT; }
static inline mode_t clinux_s_ifreg(void) { return S_IFREG; }
static inline mode_t clinux_s_ifdir(void) { return S_IFDIR; }
static inline mode_t clinux_s_iflnk(void) { return S_IFLNK; }
static inline mode_t clinux_s_ifsock(void) { return S_IFSOCK; }
static inline mode_t clinux_s_ififo(void) { return S_IFIFO; }
static inline mode_t clinux_s_ifchr(void) { return S_IFCHR; }
static inline mode_t clinux_s_ifblk(void) { return S_IFBLK; }
static inline mode_t clinux_s_iwoth(void) { return S_IWOTH; }
static inline mode_t clinux_s_iwgrp(void) { return S_IWGRP; }
static inline mode_t clinux_s_isvtx(void) { return S_ISVTX; }
/* An eventfd that wakes a thread waiting in poll(2) (a signal reader asked to stop). */
#include <sys/eventfd.h>
static inline int clinux_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
/* Names the calling thread (what `ps -L`, top and gdb show; the kernel keeps 15 bytes).
   pthread_setname_np needs _GNU_SOURCE, which Glibc's Swift module is built without. */
#include <sys/prctl.h>
static inline int clinux_name_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
/* glibc's allocator settings (mallopt), which Glibc's Swift module leaves out. */
#include <malloc.h>
static inline int clinux_m_trim_threshold(void) { return M_TRIM_THRESHOLD; }
static inline int clinux_m_mmap_threshold(void) { return M_MMAP_THRESHOLD; }
static inline int clinux_m_arena_max(void) { return M_ARENA_MAX; }

#endif
