#define _GNU_SOURCE /* program_invocation_short_name */
#include "library_loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* EX_UNAVAILABLE (sysexits.h): the tools' documented code for a missing support program. */
enum { exit_unavailable = 69 };

static int fail(cll_library *library, const char *why) {
    snprintf(library->failure, sizeof library->failure, "cannot load %s: %s", library->soname, why);
    atomic_store_explicit(&library->state, -1, memory_order_release);
    return -1;
}

static int load_locked(cll_library *library) {
    /* RTLD_LOCAL: the library's symbols stay out of the global scope, so a library loaded
       later binds to its own dependencies, not to these. */
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        return fail(library, why != NULL ? why : "dlopen failed");
    }
    for (size_t i = 0; i < library->count; i++) {
        /* dlsym on the handle searches the library and its dependencies only: never the
           executable, whose stubs bear the same names. */
        void *address = dlsym(handle, library->names[i]);
        if (address == NULL) {
            char why[160];
            snprintf(why, sizeof why, "it has no function %s", library->names[i]);
            return fail(library, why); /* kept loaded: dlclose would gain nothing */
        }
        library->slots[i] = address;
    }
    if (library->after_load != NULL) {
        char why[160] = "";
        if (library->after_load(why, sizeof why) != 0) return fail(library, why);
    }
    atomic_store_explicit(&library->state, 1, memory_order_release);
    return 0;
}

int cll_load(cll_library *library) {
    int state = atomic_load_explicit(&library->state, memory_order_acquire);
    if (state != 0) return state == 1 ? 0 : -1;
    pthread_mutex_lock(&library->lock);
    state = atomic_load_explicit(&library->state, memory_order_acquire);
    int result = state == 0 ? load_locked(library) : (state == 1 ? 0 : -1);
    pthread_mutex_unlock(&library->lock);
    return result;
}

const char *cll_load_failure(cll_library *library) {
    return cll_load(library) == 0 ? NULL : library->failure;
}

void cll_require_slow(cll_library *library) {
    if (cll_load(library) == 0) return;
    /* The tools' own error format: "<program>: <what>". stderr is unbuffered. */
    fprintf(stderr, "%s: %s\n", program_invocation_short_name, library->failure);
    _exit(exit_unavailable);
}
