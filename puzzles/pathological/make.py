#!/usr/bin/env python3
"""Writes pathological.json and pathological.md: puzzles that stress the grader's
time and memory bounds (whole-line cages, giant cages, huge products, long chains of
two-cell cages, 16x16 grids).

Every puzzle is built around a Latin square, so its clues are consistent (most are
ambiguous: a whole-row + cage says nothing about the order of its digits); the last
ones break a clue on purpose (impossible). The output is deterministic: run
`python3 puzzles/pathological/make.py` from the repository root to rewrite both
files.
"""

import json
import os
import random

OPS = {"+": "+", "*": "*", "-": "-", "/": "/", "!": "!"}


def latin(n, rng):
    """A random Latin square of order n (a shuffled cyclic one)."""
    rows = list(range(n))
    cols = list(range(n))
    digits = list(range(1, n + 1))
    rng.shuffle(rows)
    rng.shuffle(cols)
    rng.shuffle(digits)
    return [[digits[(rows[r] + cols[c]) % n] for c in range(n)] for r in range(n)]


def name(r, c):
    return f"{chr(ord('A') + r)}{c + 1}"


def clue(op, values):
    if op == "+":
        return sum(values)
    if op == "*":
        p = 1
        for v in values:
            p *= v
        return p
    if op == "-":
        big = max(values)
        return big - (sum(values) - big)
    if op == "/":
        big = max(values)
        rest = 1
        for v in values:
            rest *= v
        rest //= big
        return big // rest if big % rest == 0 else None
    raise ValueError(op)


def text(n, cages, grid, override=None):
    """The text format of a puzzle whose cages are (op, cells) on `grid`."""
    lines = [f"# {n}"]
    for i, (op, cells) in enumerate(cages):
        cells = sorted(cells)
        values = [grid[r][c] for r, c in cells]
        if len(cells) == 1:
            value = values[0]
            op = "!"
        else:
            value = clue(op, values)
        if override and i in override:
            value = override[i]
        lines.append(f"{op} {value} " + " ".join(name(r, c) for r, c in cells))
    return "\n".join(lines) + "\n"


def rows(n, op="+", only=None):
    only = range(n) if only is None else only
    return [(op, [(r, c) for c in range(n)]) for r in only]


def cols(n, op="+", only=None):
    only = range(n) if only is None else only
    return [(op, [(r, c) for r in range(n)]) for c in only]


def singles(n, taken):
    return [("!", [(r, c)]) for r in range(n) for c in range(n) if (r, c) not in taken]


def covered(cages):
    return {cell for _, cells in cages for cell in cells}


def dominoes(n, op_of, rng, vertical_bias=0.5):
    """Tiles the grid with 2-cell cages (and a single where one is left)."""
    taken = set()
    cages = []
    for r in range(n):
        for c in range(n):
            if (r, c) in taken:
                continue
            options = []
            if c + 1 < n and (r, c + 1) not in taken:
                options.append((r, c + 1))
            if r + 1 < n and (r + 1, c) not in taken:
                options.append((r + 1, c))
            if not options:
                cages.append(("!", [(r, c)]))
                taken.add((r, c))
                continue
            if len(options) == 2:
                other = options[1] if rng.random() < vertical_bias else options[0]
            else:
                other = options[0]
            taken.update([(r, c), other])
            cages.append((op_of(rng), [(r, c), other]))
    return cages


def random_cages(n, grid, rng, max_size, ops="+*-/", big_product=False):
    """Random edge-connected cages of up to max_size cells, Tatham's style."""
    owner = {}
    cages = []
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    for start in cells:
        if start in owner:
            continue
        size = rng.randint(1, max_size)
        group = [start]
        owner[start] = len(cages)
        while len(group) < size:
            frontier = [
                (r + dr, c + dc)
                for r, c in group
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in owner
            ]
            if not frontier:
                break
            nxt = rng.choice(frontier)
            owner[nxt] = len(cages)
            group.append(nxt)
        if len(group) == 1:
            cages.append(("!", group))
            continue
        if big_product:
            op = "*"
        elif len(group) == 2:
            op = rng.choice(ops)
            values = [grid[r][c] for r, c in group]
            if op == "/" and max(values) % min(values) != 0:
                op = "-"
        else:
            op = rng.choice([o for o in ops if o in "+*"] or ["+"])
        cages.append((op, group))
    return cages


def snake(n, length, rng):
    """Cages that follow the grid in a boustrophedon, `length` cells each."""
    order = [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    return [order[i : i + length] for i in range(0, n * n, length)]


def main():
    rng = random.Random(20261124)
    out = []

    def add(what, n, cages, grid, override=None):
        assert covered(cages) == {(r, c) for r in range(n) for c in range(n)}
        assert sum(len(cells) for _, cells in cages) == n * n
        out.append((what, text(n, cages, grid, override)))

    # Whole-row and whole-column cages.
    for n in (4, 6, 7, 8, 9, 12, 16):
        g = latin(n, rng)
        add(f"{n}x{n}, one + cage per row", n, rows(n), g)
    for n in (8, 9):
        g = latin(n, rng)
        add(f"{n}x{n}, one + cage per column", n, cols(n), g)
    for n in (7, 9, 16):
        g = latin(n, rng)
        add(f"{n}x{n}, one x cage per row (n! each)", n, rows(n, "*"), g)
    g = latin(9, rng)
    add("9x9, x cages on the columns", 9, cols(9, "*"), g)
    g = latin(9, rng)
    cages = rows(9, "+", only=range(0, 9, 2)) + [
        ("!", [(r, c)]) for r in range(1, 9, 2) for c in range(9)
    ]
    add("9x9, + cages on every other row, the rest given", 9, cages, g)
    g = latin(9, rng)
    top = rows(9, "+", only=range(4))
    add("9x9, four whole-row + cages above small cages", 9, top + mixed_below(9, g, rng, 4), g)

    # One cage over most of the grid.
    for n, keep in ((6, 6), (9, 9), (12, 12), (16, 16)):
        g = latin(n, rng)
        big = [(r, c) for r in range(n) for c in range(n) if r < n - 1]
        cages = [("+", big)] + [("!", [(n - 1, c)]) for c in range(n)]
        add(f"{n}x{n}, one + cage over all rows but the last, the last row given", n, cages, g)
    g = latin(9, rng)
    # Holes at the centres of the 3x3 blocks: the rest stays edge-connected.
    big = [(r, c) for r in range(9) for c in range(9) if r % 3 != 1 or c % 3 != 1]
    cages = [("+", big)] + singles(9, set(big))
    add("9x9, one + cage over most cells, the rest given", 9, cages, g)
    g = latin(8, rng)
    big = [(r, c) for r in range(8) for c in range(8) if r < 4]
    cages = [("*", big)] + rows(8, "+", only=range(4, 8))
    add("8x8, one x cage over the top half, + rows below", 8, cages, g)

    # Huge products.
    g = latin(9, rng)
    add("9x9, snake of 9-cell x cages", 9, [("*", s) for s in snake(9, 9, rng)], g)
    g = latin(9, rng)
    add("9x9, snake of 6-cell x cages (and a 3-cell end)", 9, [("*", s) for s in snake(9, 6, rng)], g)
    g = latin(9, rng)
    add("9x9, random x cages of up to 6 cells", 9, random_cages(9, g, rng, 6, big_product=True), g)
    g = latin(16, rng)
    add("16x16, snake of 8-cell x cages", 16, [("*", s) for s in snake(16, 8, rng)], g)

    # Chains of two-cell cages through the whole grid.
    g = latin(9, rng)
    add("9x9, dominoes, each + or -", 9, dominoes(9, lambda r: r.choice("+-"), rng), g)
    g = latin(12, rng)
    add("12x12, + dominoes", 12, dominoes(12, lambda r: "+", rng), g)
    g = latin(16, rng)
    add("16x16, + dominoes", 16, dominoes(16, lambda r: "+", rng), g)
    g = latin(16, rng)
    add("16x16, - dominoes", 16, dominoes(16, lambda r: "-", rng), g)
    g = latin(16, rng)
    add("16x16, x dominoes, horizontal", 16, dominoes(16, lambda r: "*", rng, 0.0), g)

    # 16x16 giants with Tatham-like cages.
    for size in (3, 4, 6):
        g = latin(16, rng)
        add(f"16x16, random cages of up to {size} cells", 16, random_cages(16, g, rng, size), g)
    g = latin(16, rng)
    add("16x16, snake of 16-cell + cages", 16, [("+", s) for s in snake(16, 16, rng)], g)
    g = latin(16, rng)
    add("16x16, 4x4 blocks as + cages", 16, blocks(16, 4, "+"), g)
    g = latin(9, rng)
    add("9x9, 3x3 blocks as + cages (sudoku-like boxes)", 9, blocks(9, 3, "+"), g)
    g = latin(9, rng)
    add("9x9, 3x3 blocks as x cages", 9, blocks(9, 3, "*"), g)

    # Impossible on purpose: a whole-row + cage one over its sum.
    g = latin(9, rng)
    add("9x9, one + cage per row, the first one 46 (impossible)", 9, rows(9), g, {0: 46})
    g = latin(16, rng)
    add("16x16, one + cage per row, the last one 137 (impossible)", 16, rows(16), g, {15: 137})

    # The issue's own reproductions, as Tatham game IDs: one + cage per row.
    out.append(("9x9, one + cage per row (Tatham game ID)", "9:zzv_72,a45a45a45a45a45a45a45a45a45"))
    out.append(("8x8, one + cage per row (Tatham game ID)", "8:zzf_56,a36a36a36a36a36a36a36a36"))

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "pathological.json"), "w") as f:
        json.dump([t for _, t in out], f, indent=1)
        f.write("\n")
    with open(os.path.join(here, "pathological.md"), "w") as f:
        f.write(
            "# Pathological puzzles (`pathological.json`)\n\n"
            "Puzzles made to push the grader's time and memory bounds, written by\n"
            "`make.py` (deterministic; every clue is read off a Latin square unless\n"
            "the line says otherwise). `crates/grader/tests/cli/bounds.rs` grades the\n"
            "file with `batch --timeout 1 --jobs 2` under a 2 GiB address-space limit\n"
            "and checks that every row comes out, in order, in time.\n\n"
            "| # | what |\n|---:|---|\n"
        )
        for i, (what, _) in enumerate(out, 1):
            f.write(f"| {i} | {what} |\n")
    print(f"{len(out)} puzzles")


def mixed_below(n, grid, rng, first_row):
    """Random small cages over rows first_row..n (a domino tiling with some singles)."""
    cages = []
    taken = set()
    for r in range(first_row, n):
        for c in range(n):
            if (r, c) in taken:
                continue
            if c + 1 < n and (r, c + 1) not in taken and rng.random() < 0.6:
                cages.append((rng.choice("+*"), [(r, c), (r, c + 1)]))
                taken.update([(r, c), (r, c + 1)])
            elif r + 1 < n and (r + 1, c) not in taken and rng.random() < 0.6:
                cages.append((rng.choice("+*"), [(r, c), (r + 1, c)]))
                taken.update([(r, c), (r + 1, c)])
            else:
                cages.append(("!", [(r, c)]))
                taken.add((r, c))
    return cages


def blocks(n, b, op):
    return [
        (op, [(r, c) for r in range(br, br + b) for c in range(bc, bc + b)])
        for br in range(0, n, b)
        for bc in range(0, n, b)
    ]


if __name__ == "__main__":
    main()
