#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* What qrcheckin-server sets when it starts libmicrohttpd. MHD_start_daemon is variadic,
   which Swift cannot call: this shim passes the values as one MHD_OPTION_ARRAY. */
struct cmhd_settings {
    int listen_fd;                    /* a bound, listening socket (ours or systemd's) */
    unsigned int connection_limit;    /* connections at once, all clients */
    unsigned int timeout_seconds;     /* an idle connection is closed after this */
    size_t memory_limit;              /* bytes per connection: request line, headers, buffers */
    size_t stack_size;                /* bytes of stack per thread; 0: default */
    unsigned int threads;             /* threads polling connections (epoll, one pool) */
};

/* The adapter's callbacks, each with the context it is called with. */
struct cmhd_callbacks {
    MHD_AccessHandlerCallback access;              /* every request, several calls */
    MHD_RequestCompletedCallback completed;        /* a request ended (answered or not) */
    MHD_AcceptPolicyCallback accept;               /* before a connection is made: the fair share */
    MHD_NotifyConnectionCallback connection;       /* a connection began or ended: its deadline */
    void *(*target)(void *, const char *, struct MHD_Connection *);  /* the raw request-target */
    void *context;                                 /* handed to each of them */
};

/* Starts libmicrohttpd on settings->listen_fd, which it takes over: it closes the socket when it
   stops, and so does this when the start fails. 0.9.75 closes the socket on most failures but
   not on those before it takes it (an eventfd or memory it cannot get), so a socket still
   open as the same socket afterwards (same inode: a number closed and reused meanwhile is
   another file) is closed here. */
static inline struct MHD_Daemon *cmhd_start(const struct cmhd_settings *settings, const struct cmhd_callbacks *callbacks) {
    struct stat before, after;
    int known = fstat(settings->listen_fd, &before) == 0;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_LISTEN_SOCKET, settings->listen_fd, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, settings->timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) settings->memory_limit, NULL },
        { MHD_OPTION_THREAD_STACK_SIZE, (intptr_t) settings->stack_size, NULL },
        /* 0, its default, said aloud: at 1, 0.9.75 answers a HTTP/1.1 request without Host with
           its own 400 whose header block it writes twice, and closes a request-target with a
           space without a word. The adapter checks both itself (MicroHTTPServer's first call),
           and answers them with its own 400. */
        { MHD_OPTION_STRICT_FOR_CLIENT, 0, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) callbacks->completed, callbacks->context },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) callbacks->connection, callbacks->context },
        /* Called with the request-target as it arrived, before libmicrohttpd decodes it in
           place; what it returns is the request's first context pointer. */
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) callbacks->target, callbacks->context },
        { settings->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, settings->threads, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    /* A few threads (epoll) serve every connection; a check-in waiting for its commit is
       suspended, not waited for, so its thread serves others meanwhile, and the commits of
       check-ins waiting together are grouped (one fsync for many). */
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, 0, callbacks->accept, callbacks->context, callbacks->access,
                                                 callbacks->context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    if (daemon == NULL && known && fstat(settings->listen_fd, &after) == 0 && after.st_dev == before.st_dev
        && after.st_ino == before.st_ino) {
        (void) close(settings->listen_fd);
    }
    return daemon;
}

/* Stops `daemon` without shutting down its listening socket, which may be systemd's (socket
   activation: qrcheckin-server.socket keeps it for the next server). With a thread pool,
   0.9.75's MHD_stop_daemon calls shutdown(2) on the listening socket to wake its workers, and
   that ends the socket for every process holding it: systemd then fails the .socket unit ("Got
   POLLHUP on a listening socket") and the next server exits 69, "not listening". So the
   descriptor is first pointed at a new socket that listens on nothing (dup2 is atomic):
   libmicrohttpd shuts that one down and closes it, and this process lets go of the listening
   socket as a close would. A worker woken meanwhile by a new connection finds nothing to
   accept (EINVAL) until the stop reaches it; the connection waits for the next server. */
static inline void cmhd_stop(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (info != NULL && info->listen_fd >= 0) {
        int placeholder = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (placeholder >= 0) {
            if (placeholder != info->listen_fd) {
                if (dup2(placeholder, info->listen_fd) >= 0) (void) fcntl(info->listen_fd, F_SETFD, FD_CLOEXEC);
                (void) close(placeholder);
            }
        }
    }
    MHD_stop_daemon(daemon);
}

/* The connection's socket (for shutdown by the deadline sweep); -1 when unknown. */
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* What the adapter put in the connection's socket context when it began. */
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The connection's client address (NULL when unknown). */
static inline const struct sockaddr *cmhd_connection_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* The network a client address counts in: an IPv4 address (also written v4-mapped) as
   family 4, an IPv6 address by its /64 (one subscriber usually holds a whole /64) as family
   6; family 0 for anything else. */
struct cmhd_network {
    uint64_t prefix;
    int family;
};

static inline struct cmhd_network cmhd_network_of(const struct sockaddr *address) {
    struct cmhd_network network = { 0, 0 };
    if (address == NULL) return network;
    if (address->sa_family == AF_INET) {
        network.family = 4;
        network.prefix = ntohl(((const struct sockaddr_in *) address)->sin_addr.s_addr);
    } else if (address->sa_family == AF_INET6) {
        const unsigned char *bytes = ((const struct sockaddr_in6 *) address)->sin6_addr.s6_addr;
        if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *) bytes)) {
            network.family = 4;
            network.prefix = (uint64_t) bytes[12] << 24 | (uint64_t) bytes[13] << 16 | (uint64_t) bytes[14] << 8 | bytes[15];
        } else {
            network.family = 6;
            for (int index = 0; index < 8; index++) network.prefix = network.prefix << 8 | bytes[index];
        }
    }
    return network;
}

/* What a request's head holds, gathered in one pass on the access handler's first call:
   how often Host, Content-Length and Transfer-Encoding came, the last two's values, and
   whether every line of the head ended in CRLF where it should (`malformed` otherwise).

   libmicrohttpd 0.9.75 hands over header values, never the bytes as they came; but it parses
   the head in place, in the connection's read buffer: each line stays where it arrived, its CR
   and LF overwritten with NULs, the colon after a field name too. So a head whose lines all end
   in CRLF has each field name exactly two bytes after the previous line's value, and its empty
   line right after the last; a bare LF moves the next line one byte closer, a folded line
   (obs-fold) is glued onto its field name elsewhere in memory and leaves the name out of place,
   a NUL inside a line shortens it. Every pointer is compared with the head's bounds before it
   is read. */
struct cmhd_head {
    int check_layout;                 /* in: check where each line lies (else only count) */
    const char *end;                  /* one past the head: method + MHD's header size */
    const char *next;                 /* where the next line begins if every line ended in CRLF */
    int malformed;                    /* a line out of place, a bad field name, a control byte */
    unsigned int hosts, lengths, codings;
    const char *length;               /* the first Content-Length value and its size */
    size_t length_size;
    const char *coding;               /* the first Transfer-Encoding value and its size */
    size_t coding_size;
    size_t size;                      /* bytes of request line and headers, both CRLFs included */
};

/* RFC 9110's tchar: what a method or field name is made of. */
static inline int cmhd_is_token_byte(unsigned char byte) {
    if ((byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z')) return 1;
    return byte != 0 && strchr("!#$%&'*+-.^_`|~", byte) != NULL;
}

/* Whether one header line lies where a CRLF-ended head puts it, and is well made: its name
   where the previous line's CRLF ends, of token bytes; its colon (now NUL) right after it;
   only spaces and tabs before the value; no control byte but HTAB in the value (a bare CR
   ends no line, so it would stay in it); its CR and LF (both NUL now) right after it. */
static inline int cmhd_header_in_place(const struct cmhd_head *head, const char *key, size_t key_size,
                                       const char *value, size_t value_size) {
    if (key != head->next || key_size == 0 || value == NULL || value < key + key_size + 1
        || value > head->end || (size_t) (head->end - value) < value_size + 2) return 0;
    for (size_t index = 0; index < key_size; index++) {
        if (!cmhd_is_token_byte((unsigned char) key[index])) return 0;
    }
    for (const char *gap = key + key_size + 1; gap < value; gap++) {
        if (*gap != ' ' && *gap != '\t') return 0;
    }
    for (size_t index = 0; index < value_size; index++) {
        unsigned char byte = (unsigned char) value[index];
        if ((byte < 0x20 && byte != '\t') || byte == 0x7f) return 0;
    }
    return value[value_size] == 0 && value[value_size + 1] == 0;
}

static inline enum MHD_Result cmhd_visit_header(void *context, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                const char *value, size_t value_size) {
    struct cmhd_head *head = context;
    (void) kind;
    if (head->check_layout) {
        if (!cmhd_header_in_place(head, key, key_size, value, value_size)) {
            head->malformed = 1;
            return MHD_NO;
        }
        head->next = value + value_size + 2;
    }
    if (key_size == 4 && strncasecmp(key, "host", 4) == 0) {
        head->hosts++;
    } else if (key_size == 14 && strncasecmp(key, "content-length", 14) == 0) {
        if (head->lengths++ == 0) { head->length = value; head->length_size = value_size; }
    } else if (key_size == 17 && strncasecmp(key, "transfer-encoding", 17) == 0) {
        if (head->codings++ == 0) { head->coding = value; head->coding_size = value_size; }
    }
    return MHD_YES;
}

/* Gathers `head` for the request whose access handler got `method`, `url` and `version`;
   `target_size` is the raw request-target's length (from the URI log callback).
   `check_layout`: also check where each line lies — only for a libmicrohttpd verified to
   keep the lines in place (0.9.75); else only the counts and values are gathered. */
static inline void cmhd_inspect_head(struct MHD_Connection *connection, const char *method, const char *url,
                                     const char *version, size_t target_size, int check_layout, struct cmhd_head *head) {
    memset(head, 0, sizeof *head);
    head->check_layout = check_layout;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    head->size = info == NULL ? 0 : info->header_size;
    if (check_layout) {
        head->end = method + head->size;
        size_t method_size = strlen(method);
        /* METHOD SP TARGET SP HTTP/x.y CRLF, one space each (libmicrohttpd skips several). */
        if (method_size == 0 || url != method + method_size + 1 || version != url + target_size + 1
            || head->end < version + 10 || version[8] != 0 || version[9] != 0) {
            head->malformed = 1;
            return;
        }
        for (size_t index = 0; index < method_size; index++) {
            if (!cmhd_is_token_byte((unsigned char) method[index])) { head->malformed = 1; return; }
        }
        head->next = version + 10;
    }
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, cmhd_visit_header, head);
    /* The empty line's CRLF, and nothing else, ends the head. */
    if (check_layout && !head->malformed
        && (head->next + 2 != head->end || head->next[0] != 0 || head->next[1] != 0)) head->malformed = 1;
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
