#ifndef CSYSTEM_H
#define CSYSTEM_H

#include <stdint.h>

/* Linux calls Swift's Glibc module does not import (they need _GNU_SOURCE). */

/* Starts asynchronous write-back of [offset, offset+length) of fd; returns 0 or -1 with errno. */
int csystem_start_writeback(int fd, int64_t offset, int64_t length);

/* Writes every dirty page and inode of the file system holding fd to the disk (syncfs);
   returns 0 or -1 with errno (write-back errors since fd was opened are reported). */
int csystem_sync_file_system(int fd);

/* Names the calling thread for the kernel (at most 15 bytes are kept); returns 0 or an errno. */
int csystem_set_thread_name(const char *name);

#endif
