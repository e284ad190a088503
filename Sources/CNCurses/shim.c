#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNCurses.h"

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
    if (setcchar(&cell, text, attrs, pair, NULL) == ERR) return ERR;
    return mvadd_wch(row, col, &cell);
}
