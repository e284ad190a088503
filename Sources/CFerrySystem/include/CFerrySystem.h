#ifndef CFERRYSYSTEM_H
#define CFERRYSYSTEM_H

#include <stddef.h>
#include <stdint.h>

/* Linux calls Swift's Glibc module does not import (they need _GNU_SOURCE, or kernel headers
   such as <linux/netlink.h> whose structs Glibc does not bring). */

/* Starts asynchronous write-back of [offset, offset+length) of fd; returns 0 or -1 with errno. */
int csystem_start_writeback(int fd, int64_t offset, int64_t length);

/* Writes every dirty page and inode of the file system holding fd to the disk (syncfs);
   returns 0 or -1 with errno (write-back errors since fd was opened are reported). */
int csystem_sync_file_system(int fd);

/* Names the calling thread for the kernel (at most 15 bytes are kept); returns 0 or an errno. */
int csystem_set_thread_name(const char *name);

/* Creates an unnamed file for reading and writing (a checksum re-reads it) in the directory at path (O_TMPFILE), with mode (the
   umask applies); returns the descriptor or -1 with errno (EOPNOTSUPP, EISDIR or EINVAL where
   the file system cannot). The file disappears on close unless it was given a name. */
int csystem_open_unnamed(const char *directory, unsigned int mode);

/* Gives the file open at fd (an unnamed one too) the name path, never replacing a file (EEXIST):
   linkat(AT_EMPTY_PATH) where the kernel allows it to the file's opener, else through
   /proc/self/fd, so no privilege is needed. Returns 0 or -1 with errno. */
int csystem_link_descriptor(int fd, const char *path);

/* Sets the extended attribute name of the file open at fd to the size bytes at value;
   returns 0 or -1 with errno (ENOTSUP where the file system has no such attributes). */
int csystem_set_attribute(int fd, const char *name, const void *value, size_t size);

/* Reads the extended attribute name of the file at path, never following a symlink, into
   buffer (capacity bytes); returns its length or -1 with errno. */
long csystem_read_attribute(const char *path, const char *name, void *buffer, size_t capacity);

/* Opens a route netlink socket (AF_NETLINK, NETLINK_ROUTE; no privilege needed), close-on-exec
   and non-blocking, bound to the multicast groups in the mask groups (RTMGRP_*), with a receive
   buffer of about receive_buffer bytes (the kernel may cap it); *port is the port id the kernel
   gave it (dump replies are addressed to it). Returns the descriptor or -1 with errno
   (EAFNOSUPPORT, EPROTONOSUPPORT, EPERM where netlink is unavailable). */
int csystem_netlink_open(uint32_t groups, int receive_buffer, uint32_t *port);

/* Receives one netlink datagram into buffer (capacity bytes) without blocking. Returns its
   full length (more than capacity when it was cut off) or -1 with errno (EAGAIN when nothing is
   pending, ENOBUFS when the kernel dropped messages); *sender is the sending port (0: the
   kernel). */
long csystem_netlink_receive(int fd, void *buffer, size_t capacity, uint32_t *sender);

/* The size of the terminal open at fd (TIOCGWINSZ): its columns and rows; returns 0, or -1 with
   errno (ENOTTY when fd is no terminal). */
int csystem_terminal_size(int fd, int *columns, int *rows);

/* Asks the kernel to drop this program's read-only pages from memory (MADV_PAGEOUT on
   everything from the start of the executable to the end of its code: headers, read-only
   data, code). They are clean and file-backed: what is used again is read back from the
   page cache or the file. Returns the bytes advised, or -1 with errno (EINVAL before Linux 5.4). */
long csystem_page_out_program(void);

#endif
