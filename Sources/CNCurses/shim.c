#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNCurses.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

attr_t cncurses_attr_bold(void) { return A_BOLD; }
attr_t cncurses_attr_reverse(void) { return A_REVERSE; }
attr_t cncurses_attr_dim(void) { return A_DIM; }
attr_t cncurses_attr_underline(void) { return A_UNDERLINE; }
attr_t cncurses_attr_normal(void) { return A_NORMAL; }

WINDOW *cncurses_stdscr(void) { return stdscr; }
int cncurses_lines(void) { return LINES; }
int cncurses_cols(void) { return COLS; }

int cncurses_wcwidth(unsigned int codepoint) { return wcwidth((wchar_t)codepoint); }

int cncurses_put_cell(int row, int col, const unsigned int *codepoints, int count, attr_t attrs, short pair) {
    wchar_t text[CCHARW_MAX + 1];
    int n = count < CCHARW_MAX ? count : CCHARW_MAX;
    for (int i = 0; i < n; i++) text[i] = (wchar_t)codepoints[i];
    text[n] = 0;
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) == ERR) {
        /* A cluster ncurses refuses (e.g. joined emoji): draw its first code point alone. */
        text[1] = 0;
        if (setcchar(&cell, text, attrs, pair, NULL) == ERR) return ERR;
    }
    return mvadd_wch(row, col, &cell);
}

SCREEN *cncurses_newterm(void) { return newterm(NULL, stdout, stdin); }

void cncurses_clear_screen(void) { clearok(curscr, TRUE); }

void cncurses_set_escdelay(int milliseconds) { set_escdelay(milliseconds); }

/* Key codes given to the paste markers with define_key: far above KEY_MAX, where ncurses
   numbers the extended keys it finds in terminfo, and below the trie's 16-bit limit. */
#define CNCURSES_CODE_PASTE_START 0x7E00
#define CNCURSES_CODE_PASTE_END 0x7E01

int cncurses_read_input(unsigned int *value) {
    wint_t ch = 0;
    int rc = wget_wch(stdscr, &ch);
    if (rc == ERR) return CNCURSES_INPUT_NONE;
    if (rc != KEY_CODE_YES) {
        *value = (unsigned int)ch;
        return CNCURSES_INPUT_CHAR;
    }
    switch (ch) {
    case KEY_UP: *value = CNCURSES_KEY_UP; break;
    case KEY_DOWN: *value = CNCURSES_KEY_DOWN; break;
    case KEY_LEFT: *value = CNCURSES_KEY_LEFT; break;
    case KEY_RIGHT: *value = CNCURSES_KEY_RIGHT; break;
    case KEY_HOME: *value = CNCURSES_KEY_HOME; break;
    case KEY_END: *value = CNCURSES_KEY_END; break;
    case KEY_PPAGE: *value = CNCURSES_KEY_PAGE_UP; break;
    case KEY_NPAGE: *value = CNCURSES_KEY_PAGE_DOWN; break;
    case KEY_IC: *value = CNCURSES_KEY_INSERT; break;
    case KEY_DC: *value = CNCURSES_KEY_DELETE; break;
    case KEY_BACKSPACE: *value = CNCURSES_KEY_BACKSPACE; break;
    case KEY_ENTER: *value = CNCURSES_KEY_ENTER; break;
    case KEY_BTAB: *value = CNCURSES_KEY_BACK_TAB; break;
    case KEY_RESIZE: *value = CNCURSES_KEY_RESIZE; break;
    case CNCURSES_CODE_PASTE_START: *value = CNCURSES_KEY_PASTE_START; break;
    case CNCURSES_CODE_PASTE_END: *value = CNCURSES_KEY_PASTE_END; break;
    default:
        if (ch >= KEY_F(1) && ch <= KEY_F(24)) *value = CNCURSES_KEY_F1 + (unsigned int)(ch - KEY_F(1));
        else *value = CNCURSES_KEY_UNKNOWN;
    }
    return CNCURSES_INPUT_KEY;
}

/* ---- Terminal restoration (see the header for why these globals exist). ---- */

static const int cncurses_crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define CNCURSES_HANDLED 9
static const int cncurses_all_signals[CNCURSES_HANDLED] = {
    SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGWINCH
};
static struct sigaction cncurses_previous[CNCURSES_HANDLED];
static volatile sig_atomic_t cncurses_active = 0;
static volatile sig_atomic_t cncurses_interrupted = 0;
static volatile sig_atomic_t cncurses_wake_fd = -1;
static volatile sig_atomic_t cncurses_paste_on = 0;
static int cncurses_atexit_registered = 0;

static int cncurses_slot(int sig) {
    for (int i = 0; i < CNCURSES_HANDLED; i++) if (cncurses_all_signals[i] == sig) return i;
    return -1;
}

static void cncurses_wake(void) {
    int fd = cncurses_wake_fd;
    if (fd < 0) return;
    int saved = errno;
    char byte = 1;
    ssize_t ignored = write(fd, &byte, 1);
    (void)ignored;
    errno = saved;
}

static void cncurses_write_all(const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, text, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text += n;
        left -= (size_t)n;
    }
}

static void cncurses_leave_curses(void) {
    if (cncurses_active) {
        cncurses_active = 0;
        endwin();
    }
    if (cncurses_paste_on) {
        int saved = errno;
        cncurses_paste_on = 0;
        cncurses_write_all("\033[?2004l");
        errno = saved;
    }
}

void cncurses_enable_paste(void) {
    define_key("\033[200~", CNCURSES_CODE_PASTE_START);
    define_key("\033[201~", CNCURSES_CODE_PASTE_END);
    fflush(stdout);
    cncurses_paste_on = 1;
    cncurses_write_all("\033[?2004h");
}

static void cncurses_reraise(int sig) {
    int slot = cncurses_slot(sig);
    if (slot >= 0) sigaction(sig, &cncurses_previous[slot], NULL);
    raise(sig);
}

static void cncurses_on_quit(int sig) {
    if (!cncurses_interrupted) {
        cncurses_interrupted = 1;
        cncurses_wake();
        return;
    }
    cncurses_leave_curses();
    cncurses_reraise(sig);
}

static void cncurses_on_crash(int sig) {
    cncurses_leave_curses();
    cncurses_reraise(sig);
}

static void cncurses_on_winch(int sig, siginfo_t *info, void *context) {
    int slot = cncurses_slot(sig);
    if (slot >= 0) {
        struct sigaction *previous = &cncurses_previous[slot];
        if (previous->sa_flags & SA_SIGINFO) {
            if (previous->sa_sigaction) previous->sa_sigaction(sig, info, context);
        } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN && previous->sa_handler) {
            previous->sa_handler(sig);
        }
    }
    cncurses_wake();
}

static void cncurses_at_exit(void) { cncurses_leave_curses(); }

int cncurses_install_handlers(int wake_fd) {
    cncurses_wake_fd = wake_fd;
    cncurses_interrupted = 0;
    cncurses_active = 1;
    if (!cncurses_atexit_registered) {
        if (atexit(cncurses_at_exit) != 0) return -1;
        cncurses_atexit_registered = 1;
    }
    struct sigaction action;
    for (int i = 0; i < CNCURSES_HANDLED; i++) {
        int sig = cncurses_all_signals[i];
        memset(&action, 0, sizeof action);
        sigemptyset(&action.sa_mask);
        if (sig == SIGWINCH) {
            action.sa_sigaction = cncurses_on_winch;
            action.sa_flags = SA_SIGINFO | SA_RESTART;
        } else {
            int crash = 0;
            for (unsigned j = 0; j < sizeof cncurses_crash_signals / sizeof *cncurses_crash_signals; j++)
                if (cncurses_crash_signals[j] == sig) crash = 1;
            action.sa_handler = crash ? cncurses_on_crash : cncurses_on_quit;
            action.sa_flags = SA_RESTART;
        }
        if (sigaction(sig, &action, &cncurses_previous[i]) != 0) return -1;
    }
    return 0;
}

int cncurses_was_interrupted(void) { return cncurses_interrupted ? 1 : 0; }

void cncurses_end(void) {
    if (cncurses_wake_fd >= 0) {
        for (int i = 0; i < CNCURSES_HANDLED; i++) sigaction(cncurses_all_signals[i], &cncurses_previous[i], NULL);
        cncurses_wake_fd = -1;
    }
    cncurses_leave_curses();
}
