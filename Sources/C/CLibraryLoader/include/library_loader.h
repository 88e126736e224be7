#ifndef CLIBRARYLOADER_LIBRARY_LOADER_H
#define CLIBRARYLOADER_LIBRARY_LOADER_H
/* A C library loaded on first use (dlopen), not at every start (DT_NEEDED).

   Why: each shared library the executable names is mapped, relocated and bound before main,
   by every process. `qrcheckin --version`, `status` and `ctl` use none of libqrencode,
   libpng, zlib and libsodium, and loading them was about a third of their start-up
   (docs/BENCHMARKS.md, "Start-up"). The kiosk names only libc and libm now; a library is
   loaded by the first call into it, once per process, and stays loaded.

   How: a library's module (CQRencode, CPNG, CSodium) defines, under each real function's own
   name, a stub that loads the library if needed and jumps to the real function, found by
   dlsym (CLL_STUBS below). Swift and C callers are unchanged: they link against the stubs.
   After the first call a stub costs one load (acquire) of a flag and an indirect call.

   Failure: a library that cannot be loaded (or lacks a function) is a broken installation.
   Where it is needed first, the process says so on standard error in the tools' words
   ("qrcheckin: cannot load libpng16.so.16: ...") and exits 69 (EX_UNAVAILABLE), as the
   dynamic loader would have refused to start it. A daemon checks its libraries at start
   instead (cll_load through each module's *_load function), so it never dies mid-run. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

typedef struct cll_library {
    const char *soname;           /* "libqrencode.so.4": the ABI the headers describe */
    const char *const *names;     /* the functions, in slot order */
    void **slots;                 /* their addresses once loaded */
    size_t count;
    int (*after_load)(char *why, size_t size);  /* e.g. sodium_init; 0 or -1 with `why` set */
    pthread_mutex_t lock;
    _Atomic int state;            /* 0 not tried, 1 loaded, -1 failed (failure says why) */
    char failure[256];
} cll_library;

#define CLL_LIBRARY(soname_, names_, slots_, after_load_)                                          \
    {.soname = (soname_), .names = (names_), .slots = (slots_),                                    \
     .count = sizeof(names_) / sizeof *(names_), .after_load = (after_load_),                      \
     .lock = PTHREAD_MUTEX_INITIALIZER, .state = 0, .failure = ""}

/* Loads `library` once (later calls return the first outcome): 0, or -1 when it cannot be
   loaded. Thread-safe. */
int cll_load(cll_library *library);

/* cll_load for a caller that reports it: NULL when loaded, else why not ("cannot load
   libpng16.so.16: ..."). */
const char *cll_load_failure(cll_library *library);

/* cll_load, or the message on standard error and exit 69. */
void cll_require_slow(cll_library *library);

static inline void cll_require(cll_library *library) {
    if (__builtin_expect(atomic_load_explicit(&library->state, memory_order_acquire) == 1, 1)) return;
    cll_require_slow(library);
}

/* Stubs for a library, one library per C file: `FUNCTIONS(VALUE, VOID, NORETURN)` lists its
   functions as
     VALUE(return type, name, (parameters), (arguments))
     VOID(name, (parameters), (arguments))
     NORETURN(name, (parameters), (arguments))
   and CLL_STUBS(soname, FUNCTIONS, after_load) defines `static cll_library cll_this_library`
   and one stub per function. The file includes the library's header first, so each stub is
   checked against the real declaration, and the real function's type is the stub's. */
#define CLL_SLOT_V_(type, name, params, args) CLL_SLOT_##name,
#define CLL_SLOT_(name, params, args) CLL_SLOT_##name,
#define CLL_NAME_V_(type, name, params, args) #name,
#define CLL_NAME_(name, params, args) #name,
#define CLL_REAL_(name) ((__typeof__(&name))cll_this_slots[CLL_SLOT_##name])

#define CLL_STUBS(soname, FUNCTIONS, after_load)                                                   \
    enum { FUNCTIONS(CLL_SLOT_V_, CLL_SLOT_, CLL_SLOT_) CLL_SLOT_COUNT_ };                          \
    static const char *const cll_this_names[] = {FUNCTIONS(CLL_NAME_V_, CLL_NAME_, CLL_NAME_)};    \
    static void *cll_this_slots[CLL_SLOT_COUNT_];                                                  \
    static cll_library cll_this_library = CLL_LIBRARY(soname, cll_this_names, cll_this_slots, after_load); \
    FUNCTIONS(CLL_STUB_VALUE_, CLL_STUB_VOID_, CLL_STUB_NORETURN_)

#define CLL_STUB_VALUE_(type, name, params, args)                                                  \
    type name params {                                                                             \
        cll_require(&cll_this_library);                                                            \
        return CLL_REAL_(name) args;                                                               \
    }
#define CLL_STUB_VOID_(name, params, args)                                                         \
    void name params {                                                                             \
        cll_require(&cll_this_library);                                                            \
        CLL_REAL_(name) args;                                                                      \
    }
#define CLL_STUB_NORETURN_(name, params, args)                                                     \
    void name params {                                                                             \
        cll_require(&cll_this_library);                                                            \
        CLL_REAL_(name) args;                                                                      \
        __builtin_trap(); /* not reached: the real function does not return */                     \
    }
#endif
