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

#endif
