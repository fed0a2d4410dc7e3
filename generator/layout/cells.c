/* The compiled kernel of silhouette packing's search (generator/layout/cell_board.py):
 * Board.best's legal positions of a footprint and their crowding, computed in C on 64-bit
 * words instead of shifting the whole board as one Python integer per run of ink.
 *
 * It answers exactly what the Python code answers (tests/test_cell_kernel.py compares the two
 * on whole decks): the same legal positions, and the same crowding, which Python measures with
 * Pillow's 8-bit box blur; its rounding is reproduced here (ImagingLineBoxBlur8, Pillow's
 * src/libImaging/BoxBlur.c), so a build with or without this module draws the same cards.
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

/* Pillow's box blur of 8-bit pixels along one line (ImagingLineBoxBlur8 in its
 * src/libImaging/BoxBlur.c: pixels past the ends repeat the end ones, the two pixels just past
 * the window weigh the radius's fraction), only at pixels from..to-1 of the line's len (read
 * every `step` bytes), written every `ostep` bytes; 0 past the line's ends, as Pillow's crop
 * pads. The sums are Pillow's, so the rounded values are too. */
static void blur(uint8_t *out, int ostep, const uint8_t *in, int step, int len, int from,
                 int to, float radius_f, uint8_t *room)
{
    int r = (int)radius_f, last = len - 1;
    uint32_t ww = (uint32_t)((float)(1 << 24) / (radius_f * 2 + 1));
    uint32_t fw = ((1u << 24) - (uint32_t)(r * 2 + 1) * ww) / 2;
    uint8_t *at = room + r + 1;  /* at[k]: the line's pixel k, k from -r - 1 to len + r */
    for (int k = 0; k < len; k++)
        at[k] = in[(size_t)k * step];
    memset(at - r - 1, at[0], r + 1);
    memset(at + len, at[last], r + 1);
    for (int x = from; x < to && x < 0; x++, out += ostep)
        *out = 0;
    from = from < 0 ? 0 : from;
    uint32_t acc = 0;
    for (int k = from - r; k <= from + r; k++)
        acc += at[k];
    for (int x = from; x < to; x++, out += ostep) {
        if (x > last) { *out = 0; continue; }
        *out = (uint8_t)((acc * ww + (at[x - r - 1] + at[x + r + 1]) * fw + (1u << 23)) >> 24);
        acc += at[x + r + 1] - at[x - r];
    }
}

typedef struct { int row, col, len; } run_t;

static uint8_t spread8[256][8];  /* byte b's 8 bits as 8 bytes, 0 or 255, lowest first */

static int lowest(word x)  /* the lowest set bit's index (x not 0) */
{
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
}

static int highest(word x)  /* the highest set bit's index (x not 0) */
{
    int i = 0;
    while (x >>= 1) i++;
    return i;
}

/* best(blocked, n, footprint, stride, w, h, snug): blocked is the board's n x n bits (bit
 * i * n + j: cell (i, j)) as little-endian bytes; footprint is h rows of `stride` bytes, a
 * cell inked when not 0, its box w x h. None when the footprint fits nowhere, else (first
 * row, first column, width, scored, most) as Board.best computes them before its seeded
 * choice: scored holds the crowding of each legal position of the legal positions' box (0
 * where not legal), most its largest value (255 over the legal positions when no legal one
 * has a blocked cell near). */
static PyObject *best(PyObject *self, PyObject *args)
{
    Py_buffer board, fp;
    int n, stride, w, h, snug;
    PyObject *result = NULL;
    run_t *runs = NULL;
    word *powers = NULL, *free_rows = NULL;
    int *live = NULL;
    uint8_t *image = NULL, *across = NULL, *scored = NULL, *room = NULL;
    if (!PyArg_ParseTuple(args, "y*iy*iiii", &board, &n, &fp, &stride, &w, &h, &snug))
        return NULL;
    if (n <= 0 || n % 8 || board.len < (Py_ssize_t)n * n / 8 || w < 1 || h < 1
        || stride < w || fp.len < (Py_ssize_t)stride * h || snug < 0) {
        PyErr_SetString(PyExc_ValueError, "best: sizes do not match");
        goto done;
    }
    if (h > n || w > n) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int nw = (n + 63) / 64, rowbytes = n / 8, ph = n - h + 1;
    const uint8_t *bits = board.buf, *ink = fp.buf;
    runs = malloc(sizeof(run_t) * ((size_t)h * (w / 2 + 1)));
    live = malloc(sizeof(int) * (size_t)ph);
    if (!runs || !live) { PyErr_NoMemory(); goto done; }
    /* the runs of inked cells, every 8th row's first, then the rows halfway between, and so
     * on (as Footprint.plan orders them): a footprint that fits nowhere, nearly half the
     * tries, is most often found so from the first rows */
    int nruns = 0, maxlen = 0;
    static const int order[4][2] = {{0, 8}, {4, 8}, {2, 4}, {1, 2}};
    for (int o = 0; o < 4; o++)
        for (int r = order[o][0]; r < h; r += order[o][1]) {
            const uint8_t *line = ink + (size_t)r * stride;
            for (int c = 0; c < w;) {
                if (!line[c]) { c++; continue; }
                int a = c;
                while (c < w && line[c]) c++;
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
        int half = 1 << (l - 1);
        for (int i = 0; i < n; i++) {
            const word *prev = powers + plane * (l - 1) + (size_t)i * pitch;
            word *cur = powers + plane * l + (size_t)i * pitch;
            for (int k = 0; k < nw; k++) cur[k] = prev[k] | shifted(prev, k, half / 64, half % 64);
            for (int k = nw; k < pitch; k++) cur[k] = 0;
        }
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
        int s1 = runs[t].col, s2 = runs[t].col + runs[t].len - (1 << l), kept = 0;
        int q1 = s1 / 64, b1 = s1 % 64, q2 = s2 / 64, b2 = s2 % 64;
        for (int v = 0; v < nlive; v++) {
            int i = live[v];
            const word *from = level + (size_t)i * pitch;
            word *f = free_rows + (size_t)i * nw, left = 0;
            for (int k = 0; k < nw; k++)
                left |= (f[k] &= ~(shifted(from, k, q1, b1) | shifted(from, k, q2, b2)));
            if (left) live[kept++] = i;
        }
        nlive = kept;
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
    int iwide = (iw + 63) / 64 * 64;  /* whole words of cells */
    image = malloc((size_t)iwide * ih);
    across = malloc((size_t)lw * ih);
    scored = malloc((size_t)lw * lh);
    room = malloc((size_t)(iw > ih ? iw : ih) + bw + bh + 4);  /* a line and its ends */
    if (!image || !across || !scored || !room) { PyErr_NoMemory(); goto done; }
    for (int i = 0; i < ih; i++) {  /* 8 cells at a time, from a table of their bytes */
        const word *row = powers + (size_t)(r0 + i) * pitch;
        uint8_t *to = image + (size_t)i * iwide;
        for (int k = 0; k * 64 < iw; k++) {
            word cells = shifted(row, k, c0 / 64, c0 % 64);
            for (int m = 0; m < 8; m++)
                memcpy(to + 64 * k + 8 * m, spread8[(cells >> (8 * m)) & 255], 8);
        }
    }
    for (int i = 0; i < ih; i++)
        blur(across + (size_t)i * lw, 1, image + (size_t)i * iwide, 1, iw, left, left + lw,
             (float)(bw - 1) / 2, room);
    for (int j = 0; j < lw; j++)
        blur(scored + j, lw, across + j, lw, ih, top, top + lh, (float)(bh - 1) / 2, room);
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
    free(free_rows);
    free(image);
    free(across);
    free(scored);
    free(room);
    PyBuffer_Release(&board);
    PyBuffer_Release(&fp);
    return result;
}

static PyMethodDef methods[] = {
    {"best", best, METH_VARARGS,
     "best(blocked, n, footprint, stride, w, h, snug): the legal positions' box and crowding "
     "(see generator/layout/cell_board.py, Board.best)."},
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
