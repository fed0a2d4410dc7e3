/* The compiled kernel of silhouette packing (generator/layout/cell_board.py): the search of a
 * footprint's legal positions and their crowding (best), the test of a few positions (fits),
 * and the marking of a placed symbol's cells (mark, union), on 64-bit words of the board's
 * rows instead of Python integers of the whole board, which it also never converts.
 *
 * It answers exactly what the Python code answers (tests/test_cell_kernel.py compares the two
 * on random boards and on whole cards): the same legal positions, and the same crowding, which
 * Python measures with Pillow's 8-bit box blur; its rounding is reproduced here
 * (ImagingLineBoxBlur8, Pillow's src/libImaging/BoxBlur.c), so a build with or without this
 * module draws the same cards.
 *
 * The module is optional (setup.py builds it where a C compiler is found): without it the
 * Python code runs, more slowly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

/* Word k of a row shifted right by q words and b bits (0 <= b < 64): rows are kept with as
 * many zero words after them as they have, so that no read needs a bounds test. */
static inline word shifted(const word *row, int k, int q, int b)
{
    return (row[k + q] >> b) | ((row[k + q + 1] << 1) << (63 - b));
}

static uint8_t spread8[256][8];  /* byte b's 8 bits as 8 bytes, 0 or 255, lowest first */

static inline int lowest(word x)  /* the lowest set bit's index (x not 0) */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
#endif
}

/* A footprint row's w cells (bytes, inked 255) as bits in mask's words, 8 cells at a time. */
static void row_bits(word *mask, const uint8_t *line, int w)
{
    memset(mask, 0, sizeof(word) * ((w + 63) / 64));
    int c = 0;
    for (; c + 8 <= w; c += 8) {
        word x;
        memcpy(&x, line + c, 8);
        x &= 0x8080808080808080ULL;  /* each byte's top bit, gathered into the low byte */
        if (x)
            mask[c / 64] |= (((x >> 7) * 0x0102040810204080ULL) >> 56) << (c % 64);
    }
    for (; c < w; c++)
        if (line[c] & 0x80)
            mask[c / 64] |= (word)1 << (c % 64);
}

/* The first cell from c on (before w) whose bit in mask is `set`, or w. */
static inline int next_cell(const word *mask, int c, int w, int set)
{
    int k = c / 64;
    word x = (set ? mask[k] : ~mask[k]) & (~(word)0 << (c % 64));
    while (!x) {
        if (++k * 64 >= w)
            return w;
        x = set ? mask[k] : ~mask[k];
    }
    c = 64 * k + lowest(x);
    return c < w ? c : w;
}

static int highest(word x)  /* the highest set bit's index (x not 0) */
{
    int i = 0;
    while (x >>= 1) i++;
    return i;
}

/* The 64 cells of a board's bits (`size` bytes, as for best) from cell `cell` on, as a word
 * (cells past the end read 0). */
static inline word bits_from(const uint8_t *bits, size_t size, size_t cell)
{
    size_t b = cell / 8;
    word x = 0;  /* bytes b .. b + 7, the first lowest; then a 9th, as the cells may start
                  * within the first */
    for (int m = 7; m >= 0; m--)
        x = (x << 8) | (b + m < size ? bits[b + m] : 0);
    word ninth = b + 8 < size ? bits[b + 8] : 0;
    unsigned s = (unsigned)(cell % 8);
    return s ? (x >> s) | (ninth << (64 - s)) : x;
}

/* Pillow's box blur of 8-bit pixels along one line (ImagingLineBoxBlur8 in its
 * src/libImaging/BoxBlur.c: pixels past the ends repeat the end ones, the two pixels just past
 * the window weigh the radius's fraction), only at pixels from..to-1 of the line's len pixels
 * at[0..len-1] (at[-r-1..-1] and at[len..len+r] are room for the repeated ends), written every
 * `ostep` bytes; 0 past the line's ends, as Pillow's crop pads. The sums are Pillow's, so the
 * rounded values are too. */
static void blur(uint8_t *out, int ostep, uint8_t *at, int len, int from, int to,
                 float radius_f)
{
    int r = (int)radius_f, last = len - 1;
    uint32_t ww = (uint32_t)((float)(1 << 24) / (radius_f * 2 + 1));
    uint32_t fw = ((1u << 24) - (uint32_t)(r * 2 + 1) * ww) / 2;
    memset(at - r - 1, at[0], r + 1);
    memset(at + len, at[last], r + 1);
    for (; from < to && from < 0; from++, out += ostep)
        *out = 0;
    int end = to < len ? to : len;
    uint32_t acc = 0;
    for (int k = from - r; k <= from + r && from < end; k++)
        acc += at[k];
    for (int x = from; x < end; x++, out += ostep) {
        *out = (uint8_t)((acc * ww + (at[x - r - 1] + at[x + r + 1]) * fw + (1u << 23)) >> 24);
        acc += at[x + r + 1] - at[x - r];
    }
    for (int x = end > from ? end : from; x < to; x++, out += ostep)
        *out = 0;
}

/* Level `cur` from `prev` (rows of 2 * nw words, the second half zero): a cell set where prev
 * has one set within `half` cells from it. */
static inline void next_level(word *cur, const word *prev, int n, const int nw, int half)
{
    for (int i = 0; i < n; i++, cur += 2 * nw, prev += 2 * nw) {
        for (int k = 0; k < nw; k++) cur[k] = prev[k] | shifted(prev, k, half / 64, half % 64);
        for (int k = nw; k < 2 * nw; k++) cur[k] = 0;
    }
}

/* One run's test on the rows still live: each row's free cells less those where the run,
 * read from the level's rows shifted by s1 and by s2, meets a blocked cell; the rows left
 * with a free cell stay live (their count is returned). */
static inline int strike(word *free_rows, int *live, int nlive, const word *level,
                         const int nw, int s1, int s2)
{
    int q1 = s1 / 64, b1 = s1 % 64, q2 = s2 / 64, b2 = s2 % 64, kept = 0;
    for (int v = 0; v < nlive; v++) {
        int i = live[v];
        const word *from = level + (size_t)i * 2 * nw;
        word *f = free_rows + (size_t)i * nw, left = 0;
        for (int k = 0; k < nw; k++)
            left |= (f[k] &= ~(shifted(from, k, q1, b1) | shifted(from, k, q2, b2)));
        if (left) live[kept++] = i;
    }
    return kept;
}

typedef struct { int row, col, len; } run_t;

static int sizes_match(const Py_buffer *board, int n, const Py_buffer *fp, Py_ssize_t start,
                       int stride, int w, int h)
{
    if (n > 0 && n % 8 == 0 && board->len >= (Py_ssize_t)n * n / 8 && w >= 1 && h >= 1
        && stride >= w && start >= 0 && fp->len >= start + (Py_ssize_t)stride * (h - 1) + w)
        return 1;
    PyErr_SetString(PyExc_ValueError, "_pnp_cells: the sizes do not match");
    return 0;
}

/* mark(blocked, n, footprint, start, stride, w, h, i, j): blocked (as for best) with the
 * footprint's inked cells set, its box's top-left at (i, j), and every cell next to one
 * (Board.place); cells past the board's edges are left out. */
static PyObject *mark(PyObject *self, PyObject *args)
{
    Py_buffer board, fp;
    int n, stride, w, h, i, j;
    Py_ssize_t start;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*iy*niiiii", &board, &n, &fp, &start, &stride, &w, &h, &i, &j))
        return NULL;
    if (!sizes_match(&board, n, &fp, start, stride, w, h))
        goto done;
    result = PyBytes_FromStringAndSize(board.buf, (Py_ssize_t)n * n / 8);
    if (!result)
        goto done;
    uint8_t *bits = (uint8_t *)PyBytes_AS_STRING(result);
    const uint8_t *ink = (const uint8_t *)fp.buf + start;
    /* each ink row as bits (bit c + 1: column c, a blank bit either side), grown a cell
     * along the row; a board row then takes the three ink rows around it, from column j - 1 */
    int mw = (w + 2 + 63) / 64;
    word *grown = calloc((size_t)(h + 2) * mw, sizeof(word));
    if (!grown) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    for (int r = 0; r < h; r++) {
        const uint8_t *line = ink + (size_t)r * stride;
        word *row = grown + (size_t)(r + 1) * mw;
        for (int c = 0; c < w; c++)
            if (line[c])
                row[(c + 1) / 64] |= (word)1 << ((c + 1) % 64);
        word before = 0;  /* row | row << 1 | row >> 1, across the words */
        for (int k = 0; k < mw; k++) {
            word v = row[k], next = k + 1 < mw ? row[k + 1] : 0;
            row[k] = v | (v << 1) | (v >> 1) | (before >> 63) | (next << 63);
            before = v;
        }
    }
    for (int r = 0; r < h + 2; r++) {  /* board row i - 1 + r */
        int y = i - 1 + r;
        if (y < 0 || y >= n)
            continue;
        for (int k = 0; k < mw; k++) {
            word v = grown[(size_t)r * mw + k];
            if (r > 0) v |= grown[(size_t)(r - 1) * mw + k];
            if (r + 1 < h + 2) v |= grown[(size_t)(r + 1) * mw + k];
            for (int b = 0; v; b++, v >>= 8) {  /* 8 columns at a time */
                if (!(v & 255))
                    continue;
                int x = j - 1 + 64 * k + 8 * b;  /* the byte's first column */
                unsigned byte = (unsigned)(v & 255);
                if (x >= 0 && x + 8 <= n) {  /* within the row: into one or two bytes */
                    size_t cell = (size_t)y * n + x;
                    bits[cell / 8] |= (uint8_t)(byte << (cell % 8));
                    if (cell % 8)
                        bits[cell / 8 + 1] |= (uint8_t)(byte >> (8 - cell % 8));
                    continue;
                }
                for (int m = 0; m < 8; m++)
                    if ((byte >> m) & 1 && x + m >= 0 && x + m < n) {
                        size_t cell = (size_t)y * n + x + m;
                        bits[cell / 8] |= (uint8_t)(1u << (cell % 8));
                    }
            }
        }
    }
    free(grown);
done:
    PyBuffer_Release(&board);
    PyBuffer_Release(&fp);
    return result;
}

/* union(first, others): the bytes of first OR-ed with each of others (all of one length). */
static PyObject *union_of(PyObject *self, PyObject *args)
{
    Py_buffer first;
    PyObject *others, *seq = NULL, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*O", &first, &others))
        return NULL;
    if (!(seq = PySequence_Fast(others, "union: others must be a sequence")))
        goto done;
    result = PyBytes_FromStringAndSize(first.buf, first.len);
    if (!result)
        goto done;
    uint8_t *to = (uint8_t *)PyBytes_AS_STRING(result);
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        Py_buffer part;
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(seq, k), &part, PyBUF_SIMPLE) < 0) {
            Py_CLEAR(result);
            goto done;
        }
        if (part.len != first.len) {
            PyBuffer_Release(&part);
            PyErr_SetString(PyExc_ValueError, "union: the boards' sizes differ");
            Py_CLEAR(result);
            goto done;
        }
        const uint8_t *from = part.buf;
        Py_ssize_t b = 0;
        for (; b + 8 <= first.len; b += 8) {  /* a word at a time */
            word x, y;
            memcpy(&x, to + b, 8);
            memcpy(&y, from + b, 8);
            x |= y;
            memcpy(to + b, &x, 8);
        }
        for (; b < first.len; b++)
            to[b] |= from[b];
        PyBuffer_Release(&part);
    }
done:
    Py_XDECREF(seq);
    PyBuffer_Release(&first);
    return result;
}

/* fits(blocked, n, footprint, start, stride, w, h, places): the index in places (a sequence
 * of (row, column) of the box's top-left cell) of the first where no inked cell of the
 * footprint (as for best) is on a blocked cell, or -1. A box not wholly inside the board's
 * first and last row and column fits nowhere (Board.fits_at). */
static PyObject *fits(PyObject *self, PyObject *args)
{
    Py_buffer board, fp;
    int n, stride, w, h;
    Py_ssize_t start;
    PyObject *places, *result = NULL;
    word *masks = NULL;
    if (!PyArg_ParseTuple(args, "y*iy*niiiO", &board, &n, &fp, &start, &stride, &w, &h, &places))
        return NULL;
    PyObject *seq = NULL;
    if (!sizes_match(&board, n, &fp, start, stride, w, h)
        || !(seq = PySequence_Fast(places, "fits: places must be a sequence")))
        goto done;
    const uint8_t *bits = board.buf, *ink = (const uint8_t *)fp.buf + start;
    size_t size = (size_t)n * n / 8;
    int mw = (w + 63) / 64;
    long found = -1;
    if (!(masks = malloc(sizeof(word) * (size_t)h * mw))) {
        PyErr_NoMemory();
        goto done;
    }
    for (int r = 0; r < h; r++)
        row_bits(masks + (size_t)r * mw, ink + (size_t)r * stride, w);
    for (Py_ssize_t p = 0; p < PySequence_Fast_GET_SIZE(seq) && found < 0; p++) {
        int i, j;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, p), "ii", &i, &j))
            goto done;
        if (i < 1 || j < 1 || i + h > n || j + w > n)
            continue;
        int clear = 1;
        for (int r = 0; r < h && clear; r++)
            for (int k = 0; k < mw && clear; k++) {
                word m = masks[(size_t)r * mw + k];
                clear = !m || !(m & bits_from(bits, size, (size_t)(i + r) * n + j + 64 * k));
            }
        if (clear)
            found = (long)p;
    }
    result = PyLong_FromLong(found);
done:
    free(masks);
    Py_XDECREF(seq);
    PyBuffer_Release(&board);
    PyBuffer_Release(&fp);
    return result;
}

/* best(blocked, n, footprint, start, stride, w, h, snug): blocked is the board's n x n bits
 * (bit i * n + j: cell (i, j)) as little-endian bytes; the footprint's w x h box is h rows of
 * w bytes in `footprint`, from byte `start`, every `stride` bytes (255 inked, 0 blank). None
 * when the footprint fits nowhere, else (first row, first column, width, scored, most) as
 * Board.best computes them before its seeded choice: scored holds the crowding of each legal
 * position of the legal positions' box (0 where not legal), most its largest value (255 over
 * the legal positions when no legal one has a blocked cell near). */
static PyObject *best(PyObject *self, PyObject *args)
{
    Py_buffer board, fp;
    int n, stride, w, h, snug;
    PyObject *result = NULL;
    run_t *runs = NULL;
    word *powers = NULL, *free_rows = NULL, *mask = NULL;
    int *live = NULL;
    uint8_t *across = NULL, *scored = NULL, *room = NULL;
    Py_ssize_t start;
    if (!PyArg_ParseTuple(args, "y*iy*niiii", &board, &n, &fp, &start, &stride, &w, &h, &snug))
        return NULL;
    if (!sizes_match(&board, n, &fp, start, stride, w, h))
        goto done;
    if (snug < 0) {
        PyErr_SetString(PyExc_ValueError, "best: snug must not be negative");
        goto done;
    }
    if (h > n || w > n) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int nw = (n + 63) / 64, rowbytes = n / 8, ph = n - h + 1;
    const uint8_t *bits = board.buf, *ink = (const uint8_t *)fp.buf + start;
    runs = malloc(sizeof(run_t) * ((size_t)h * (w / 2 + 1)));
    live = malloc(sizeof(int) * (size_t)ph);
    mask = malloc(sizeof(word) * ((w + 63) / 64));
    if (!runs || !live || !mask) { PyErr_NoMemory(); goto done; }
    /* the runs of inked cells, every 8th row's first, then the rows halfway between, and so
     * on (as Footprint.plan orders them): a footprint that fits nowhere, nearly half the
     * tries, is most often found so from the first rows */
    int nruns = 0, maxlen = 0;
    static const int order[4][2] = {{0, 8}, {4, 8}, {2, 4}, {1, 2}};
    for (int o = 0; o < 4; o++)
        for (int r = order[o][0]; r < h; r += order[o][1]) {
            row_bits(mask, ink + (size_t)r * stride, w);
            for (int c = next_cell(mask, 0, w, 1); c < w; c = next_cell(mask, c, w, 1)) {
                int a = c;
                c = next_cell(mask, c, w, 0);
                runs[nruns++] = (run_t){r, a, c - a};
                if (c - a > maxlen) maxlen = c - a;
            }
        }
    /* per power of two p up to the longest run, each board row's cells where any of the p
     * cells from it is blocked (level 0: the blocked cells); a run of length len at column a
     * hits where level p, shifted by a or by a + len - p, has a cell (p: the largest power
     * not above len) */
    int levels = 1;
    while ((1 << levels) <= maxlen) levels++;
    int pitch = 2 * nw;  /* a row's words, then as many zero words */
    size_t plane = (size_t)n * pitch;
    powers = malloc(plane * levels * sizeof(word));
    free_rows = malloc((size_t)ph * nw * sizeof(word));
    if (!powers || !free_rows) { PyErr_NoMemory(); goto done; }
    const uint16_t one = 1;
    int little = *(const uint8_t *)&one;  /* words are the bytes as they lie */
    for (int i = 0; i < n; i++) {
        word *row = powers + (size_t)i * pitch;
        const uint8_t *from = bits + (size_t)i * rowbytes;
        if (little && rowbytes % 8 == 0) {
            memcpy(row, from, rowbytes);
        } else {
            for (int k = 0; k < nw; k++) {
                word v = 0;
                for (int b = 8 * k; b < 8 * k + 8 && b < rowbytes; b++)
                    v |= (word)from[b] << (8 * (b - 8 * k));
                row[k] = v;
            }
        }
        for (int k = nw; k < pitch; k++)
            row[k] = 0;
    }
    for (int l = 1; l < levels; l++) {
        if (nw == 2)  /* boards up to 128 cells wide, most: the word loops unrolled */
            next_level(powers + plane * l, powers + plane * (l - 1), n, 2, 1 << (l - 1));
        else
            next_level(powers + plane * l, powers + plane * (l - 1), n, nw, 1 << (l - 1));
    }
    /* the legal top-left cells: columns 0 .. n - w of rows 0 .. n - h, less every run's
     * hits; a row with none left is dropped from the rows still tested */
    int nlive = 0;
    for (int i = 0; i < ph; i++) {
        word *f = free_rows + (size_t)i * nw;
        for (int k = 0; k < nw; k++) {
            int from = 64 * k, to = n - w + 1;  /* columns [from, to) of this word */
            f[k] = to <= from ? 0 : to - from >= 64 ? ~(word)0 : ((word)1 << (to - from)) - 1;
        }
        live[nlive++] = i;
    }
    for (int t = 0; t < nruns && nlive; t++) {
        int l = 0;
        while ((2 << l) <= runs[t].len) l++;
        const word *level = powers + plane * l + (size_t)runs[t].row * pitch;
        int s1 = runs[t].col, s2 = runs[t].col + runs[t].len - (1 << l);
        nlive = nw == 2 ? strike(free_rows, live, nlive, level, 2, s1, s2)
                        : strike(free_rows, live, nlive, level, nw, s1, s2);
    }
    int y0 = -1, y1 = 0, x0 = n, x1 = 0;
    for (int v = 0; v < nlive; v++) {  /* live rows are in order */
        int i = live[v];
        word *f = free_rows + (size_t)i * nw;
        for (int k = 0; k < nw; k++) {
            if (!f[k]) continue;
            int lo = 64 * k + lowest(f[k]), hi = 64 * k + highest(f[k]);
            if (lo < x0) x0 = lo;
            if (hi + 1 > x1) x1 = hi + 1;
        }
        if (y0 < 0) y0 = i;
        y1 = i + 1;
    }
    if (y0 < 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    /* crowding, as Board.best measures it with Pillow: the board's rows r0..r1 and columns
     * c0..c1 as 0 or 255, blurred along the rows, cropped to the legal columns' boxes,
     * blurred down the columns, cropped to the legal rows */
    int bw = w + 2 * snug, bh = h + 2 * snug;
    int r0 = y0 - snug > 0 ? y0 - snug : 0, r1 = y1 - snug + bh < n ? y1 - snug + bh : n;
    int c0 = x0 - snug > 0 ? x0 - snug : 0, c1 = x1 - snug + bw < n ? x1 - snug + bw : n;
    int iw = c1 - c0, ih = r1 - r0, lw = x1 - x0, lh = y1 - y0;
    int top = y0 - snug + (bh - 1) / 2 - r0, left = x0 - snug + (bw - 1) / 2 - c0;
    across = malloc((size_t)lw * ih);
    scored = malloc((size_t)lw * lh);
    /* a line and its ends: a row's cells are written 64 at a time */
    room = malloc((size_t)(iw > ih ? iw : ih) + 64 + bw + bh + 4);
    if (!across || !scored || !room) { PyErr_NoMemory(); goto done; }
    for (int i = 0; i < ih; i++) {  /* each row's cells 8 at a time, from a table of their bytes */
        const word *row = powers + (size_t)(r0 + i) * pitch;
        uint8_t *at = room + (bw - 1) / 2 + 1;
        for (int k = 0; k * 64 < iw; k++) {
            word cells = shifted(row, k, c0 / 64, c0 % 64);
            for (int m = 0; m < 8; m++)
                memcpy(at + 64 * k + 8 * m, spread8[(cells >> (8 * m)) & 255], 8);
        }
        blur(across + (size_t)i * lw, 1, at, iw, left, left + lw, (float)(bw - 1) / 2);
    }
    for (int j = 0; j < lw; j++) {
        uint8_t *at = room + (bh - 1) / 2 + 1;
        for (int i = 0; i < ih; i++)
            at[i] = across[(size_t)i * lw + j];
        blur(scored + j, lw, at, ih, top, top + lh, (float)(bh - 1) / 2);
    }
    int most = 0;
    for (int i = 0; i < lh; i++) {  /* 0 where not legal (Pillow's chop_darker) */
        const word *f = free_rows + (size_t)(y0 + i) * nw;
        for (int j = 0; j < lw; j++) {
            unsigned col = (unsigned)(x0 + j);
            uint8_t *v = scored + (size_t)i * lw + j;
            if (!((f[col / 64] >> (col % 64)) & 1)) *v = 0;
            if (*v > most) most = *v;
        }
    }
    if (most == 0) {  /* no legal place has a blocked cell near: any legal place will do */
        most = 255;
        for (int i = 0; i < lh; i++) {
            const word *f = free_rows + (size_t)(y0 + i) * nw;
            for (int j = 0; j < lw; j++) {
                unsigned col = (unsigned)(x0 + j);
                scored[(size_t)i * lw + j] = (f[col / 64] >> (col % 64)) & 1 ? 255 : 0;
            }
        }
    }
    result = Py_BuildValue("iiiy#i", y0, x0, lw, (const char *)scored, (Py_ssize_t)lw * lh, most);
done:
    free(runs);
    free(powers);
    free(live);
    free(mask);
    free(free_rows);
    free(across);
    free(scored);
    free(room);
    PyBuffer_Release(&board);
    PyBuffer_Release(&fp);
    return result;
}

static PyMethodDef methods[] = {
    {"best", best, METH_VARARGS,
     "best(blocked, n, footprint, start, stride, w, h, snug): the legal positions' box and "
     "crowding (see generator/layout/cell_board.py, Board.best)."},
    {"mark", mark, METH_VARARGS,
     "mark(blocked, n, footprint, start, stride, w, h, i, j): blocked with the footprint's "
     "cells and those next to them set (see Board.place)."},
    {"union", union_of, METH_VARARGS, "union(first, others): the boards' cells OR-ed."},
    {"fits", fits, METH_VARARGS,
     "fits(blocked, n, footprint, start, stride, w, h, places): the index of the first place "
     "where the footprint fits, or -1 (see Board.first_fit)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_pnp_cells",
    "The compiled search of silhouette packing (generator/layout/cell_board.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__pnp_cells(void)
{
    for (int b = 0; b < 256; b++)
        for (int m = 0; m < 8; m++)
            spread8[b][m] = (b >> m) & 1 ? 255 : 0;
    return PyModule_Create(&module);
}
