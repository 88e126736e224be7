#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* What qrcheckin-server sets when it starts libmicrohttpd. MHD_start_daemon is variadic,
   which Swift cannot call: this shim passes the values as one MHD_OPTION_ARRAY. */
struct cmhd_settings {
    int listen_fd;                    /* a bound, listening socket (ours or systemd's) */
    unsigned int connection_limit;    /* connections at once, all clients */
    unsigned int per_client_limit;    /* connections at once from one address; 0: no limit */
    unsigned int timeout_seconds;     /* an idle connection is closed after this */
    size_t memory_limit;              /* bytes per connection: request line, headers, buffers */
    size_t stack_size;                /* bytes of stack per thread; 0: default */
    unsigned int threads;             /* threads polling connections (epoll, one pool) */
};

static inline struct MHD_Daemon *cmhd_start(const struct cmhd_settings *settings,
                                            MHD_AccessHandlerCallback handler, void *handler_context,
                                            MHD_RequestCompletedCallback completed, void *completed_context) {
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_LISTEN_SOCKET, settings->listen_fd, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_client_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, settings->timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) settings->memory_limit, NULL },
        { MHD_OPTION_THREAD_STACK_SIZE, (intptr_t) settings->stack_size, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_context },
        { settings->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, settings->threads, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    /* A few threads (epoll) serve every connection; a check-in waiting for its commit is
       suspended, not waited for, so its thread serves others meanwhile, and the commits of
       check-ins waiting together are grouped (one fsync for many). */
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The TCP peer's address as text (inet_ntop); the empty string when unknown. */
static inline void cmhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = '\0';
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *) address)->sin_addr, buffer, (socklen_t) size);
    } else if (address->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *) address)->sin6_addr;
        /* An IPv4 client of a dual-stack socket is written as IPv4. */
        if (IN6_IS_ADDR_V4MAPPED(v6)) inet_ntop(AF_INET, &v6->s6_addr[12], buffer, (socklen_t) size);
        else inet_ntop(AF_INET6, v6, buffer, (socklen_t) size);
    }
}

/* Whether text is an IPv4 (4) or IPv6 (6) address, else 0; writes its 16 bytes (IPv4 as
   v4-mapped) for prefix comparisons. */
static inline int cmhd_parse_address(const char *text, unsigned char out[16]) {
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, text, &v4) == 1) {
        memset(out, 0, 10);
        out[10] = 0xff; out[11] = 0xff;
        memcpy(out + 12, &v4, 4);
        return 4;
    }
    if (inet_pton(AF_INET6, text, &v6) == 1) {
        memcpy(out, &v6, 16);
        return 6;
    }
    return 0;
}
#endif
