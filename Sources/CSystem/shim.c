#define _GNU_SOURCE 1
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "CSystem.h"

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
