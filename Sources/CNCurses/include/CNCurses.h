#ifndef CNCURSES_H
#define CNCURSES_H

/* Wide-character ncurses: must be defined before the header (SwiftPM drops the pkg-config flags). */
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncurses.h>

/* Attribute and colour macros Swift cannot import. */
attr_t cncurses_attr_bold(void);
attr_t cncurses_attr_reverse(void);
attr_t cncurses_attr_dim(void);
attr_t cncurses_attr_underline(void);
attr_t cncurses_attr_normal(void);

/* Globals Swift 6 treats as unsafe shared state. */
WINDOW *cncurses_stdscr(void);
int cncurses_lines(void);
int cncurses_cols(void);

/* Glibc's wcwidth for one code point (depends on the LC_CTYPE locale). */
int cncurses_wcwidth(unsigned int codepoint);

/* Draw one cell: a code point (plus up to 4 combining marks) with attributes and a colour pair. */
int cncurses_put_cell(int row, int col, const unsigned int *codepoints, int count, attr_t attrs, short pair);

/* Start curses on stdin/stdout without exiting on failure (initscr would). NULL on failure. */
SCREEN *cncurses_newterm(void);

/* Repaint the whole terminal at the next refresh (Ctrl-L). */
void cncurses_clear_screen(void);

/* Set the delay that tells a lone Escape from an escape sequence, in milliseconds. */
void cncurses_set_escdelay(int milliseconds);

/* Input: cncurses_read_input reads one pending key without waiting (stdscr must be in
   nodelay mode). It returns CNCURSES_INPUT_NONE when nothing is pending,
   CNCURSES_INPUT_CHAR with a Unicode code point in *value, or CNCURSES_INPUT_KEY with one
   of the CNCURSES_KEY_* codes in *value. */
#define CNCURSES_INPUT_NONE 0
#define CNCURSES_INPUT_CHAR 1
#define CNCURSES_INPUT_KEY 2

#define CNCURSES_KEY_UNKNOWN 0
#define CNCURSES_KEY_UP 1
#define CNCURSES_KEY_DOWN 2
#define CNCURSES_KEY_LEFT 3
#define CNCURSES_KEY_RIGHT 4
#define CNCURSES_KEY_HOME 5
#define CNCURSES_KEY_END 6
#define CNCURSES_KEY_PAGE_UP 7
#define CNCURSES_KEY_PAGE_DOWN 8
#define CNCURSES_KEY_INSERT 9
#define CNCURSES_KEY_DELETE 10
#define CNCURSES_KEY_BACKSPACE 11
#define CNCURSES_KEY_ENTER 12
#define CNCURSES_KEY_BACK_TAB 13
#define CNCURSES_KEY_RESIZE 14
#define CNCURSES_KEY_PASTE_START 15 /* ESC [ 200 ~ (bracketed paste begins) */
#define CNCURSES_KEY_PASTE_END 16 /* ESC [ 201 ~ (bracketed paste ends) */
#define CNCURSES_KEY_F1 101 /* F1..F24 are CNCURSES_KEY_F1 + 0..23 */

int cncurses_read_input(unsigned int *value);

/* Bracketed paste: teaches ncurses the paste markers (ESC [ 200 ~ and ESC [ 201 ~, read as
   CNCURSES_KEY_PASTE_START/END) and asks the terminal to send them around pasted text
   (ESC [ ? 2004 h). cncurses_end, the crash-signal handlers and the atexit hook switch it
   off again (ESC [ ? 2004 l) after leaving curses. Call once curses is active. */
void cncurses_enable_paste(void);

/* Terminal restoration on signals and at exit.

   A signal handler cannot be given context, so this is the one place with mutable global
   state: the wake-up descriptor, an "interrupted" flag and the handlers that were in place
   before. cncurses_install_handlers (called once curses is active) installs:
   - SIGINT, SIGTERM, SIGHUP: set the interrupted flag and write one byte to wake_fd so the
     run loop quits and restores the terminal; a second such signal before that happens
     restores the terminal itself and re-raises with the previous disposition;
   - SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: call endwin, put the previous handler back
     and re-raise, so the crash report lands on a sane terminal;
   - SIGWINCH: call the previous handler (ncurses' own) and write one byte to wake_fd, so a
     resize wakes the loop whichever thread received the signal;
   and an atexit hook that calls endwin if curses is still active.
   Returns 0, or -1 with errno set. */
int cncurses_install_handlers(int wake_fd);

/* Returns 1 once SIGINT, SIGTERM or SIGHUP has arrived since cncurses_install_handlers. */
int cncurses_was_interrupted(void);

/* Puts the previous signal handlers back and ends curses mode. Safe to call twice. */
void cncurses_end(void);

#endif
