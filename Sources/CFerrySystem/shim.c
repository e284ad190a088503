#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/xattr.h>
#include <linux/netlink.h>
#include <unistd.h>
#include "CFerrySystem.h"

int csystem_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}

int csystem_sync_file_system(int fd) {
    return syncfs(fd);
}

int csystem_set_thread_name(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = '\0';
    return pthread_setname_np(pthread_self(), shortened);
}

int csystem_open_unnamed(const char *directory, unsigned int mode) {
    return open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, (mode_t)mode);
}

/* 1 while linkat(AT_EMPTY_PATH) may name the caller's own unnamed files (Linux 6.10 and
 * later allow it to the file's opener; earlier kernels only with CAP_DAC_READ_SEARCH), 0 once
 * the kernel refused it: every later link goes through /proc/self/fd. */
static _Atomic int empty_path_links = 1;

int csystem_link_descriptor(int fd, const char *path) {
    if (empty_path_links) {
        if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0) return 0;
        /* A refused AT_EMPTY_PATH reads as ENOENT (older kernels) or EPERM; any other error
         * (EEXIST above all) is the link's own answer. */
        if (errno != ENOENT && errno != EPERM && errno != EINVAL) return -1;
    }
    char source[32];
    snprintf(source, sizeof source, "/proc/self/fd/%d", fd);
    int result = linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
    if (result == 0 && empty_path_links) empty_path_links = 0;
    return result;
}

int csystem_set_attribute(int fd, const char *name, const void *value, size_t size) {
    return fsetxattr(fd, name, value, size, 0);
}

long csystem_read_attribute(const char *path, const char *name, void *buffer, size_t capacity) {
    return (long)lgetxattr(path, name, buffer, capacity);
}

int csystem_netlink_open(uint32_t groups, int receive_buffer, uint32_t *port) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd < 0) return -1;
    /* A smaller buffer than asked is not an error: overruns are read as ENOBUFS and re-read. */
    (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = groups;
    socklen_t length = sizeof address;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
        getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    if (port != NULL) *port = address.nl_pid;
    return fd;
}

long csystem_netlink_receive(int fd, void *buffer, size_t capacity, uint32_t *sender) {
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    socklen_t length = sizeof address;
    ssize_t received = recvfrom(fd, buffer, capacity, MSG_DONTWAIT | MSG_TRUNC,
                                (struct sockaddr *)&address, &length);
    if (received >= 0 && sender != NULL) *sender = address.nl_pid;
    return (long)received;
}

int csystem_terminal_size(int fd, int *columns, int *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

extern char __executable_start;
extern char etext;

long csystem_page_out_program(void) {
#ifdef MADV_PAGEOUT
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)&__executable_start & ~(uintptr_t)(page - 1);
    uintptr_t end = ((uintptr_t)&etext + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    if (madvise((void *)start, end - start, MADV_PAGEOUT) != 0) return -1;
    return (long)(end - start);
#else
    errno = EINVAL;
    return -1;
#endif
}
