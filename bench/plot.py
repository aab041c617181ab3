#!/usr/bin/env python3
"""Plots the JSON of `clatomics bench --json` as one SVG.

Usage: plot.py RESULTS.json OUT.svg

Atomics rows: throughput against the number of addresses (log-log), one panel per type and
memory space, a colour per op and a line style per path (the native path, the CAS loop, CAS with
backoff, the naive CAS loop). Every other suite: one bar chart per (suite, yardstick) of each
row's ratio to that yardstick, measured in the same run (against the read-only pass it is the
fraction of the bandwidth reached); a red line marks 1.

Exit codes: 0 written, 1 bad input, 2 usage, 3 matplotlib missing.
"""
import json
import math
import sys

OP_COLORS = {"add": "#1f77b4", "sub": "#aec7e8", "mul": "#d62728", "div": "#ff9896",
             "mad": "#9467bd", "min": "#2ca02c", "max": "#98df8a", "xchg": "#7f7f7f"}
# The line of a figure: the measured path, or one of its yardsticks.
LINE_STYLES = {"native path": "-", "cas loop": "--", "cas+backoff": ":", "naive cas loop": "-."}


def label(row):
    """'add float global agg', 'histogram uchar 256 bins', 'scatter_reduce sum float 256 bins rows of 32'
    and its case: '32 addr spread', '1 MiB uniform'."""
    bins = f"{row['bins']} bins" if row.get("bins") else None
    width = f"rows of {row['width']}" if (row.get("width") or 0) > 1 else None
    what = [row.get(k) for k in ("op", "type", "space", "form")] + [bins, width]
    size = None
    if row.get("bytes"):
        size, unit = float(row["bytes"]), 0
        while size >= 1024 and unit < 4:
            size, unit = size / 1024, unit + 1
        size = f"{size:g} {['B', 'KiB', 'MiB', 'GiB', 'TiB'][unit]}"
    case = [f"{row['addresses']} addr" if row.get("addresses") else None, size, row.get("distribution")]
    if row.get("path"):
        case.append(row["path"])
    return " ".join(w for w in what if w) + " (" + ", ".join(c for c in case if c) + ")"


def atomics_lines(rows):
    """{(type, space): {(op, line): {addresses: M ops/s}}} from the atomics rows."""
    panels = {}
    for row in rows:
        if row["suite"] != "atomics" or not row.get("value"):
            continue
        panel = panels.setdefault((row["type"], row["space"]), {})
        backoff = row.get("path") == "cas+backoff"
        panel.setdefault((row["op"], "cas+backoff" if backoff else "native path"), {})[row["addresses"]] = row["value"]
        if row.get("yardstick_value") and not backoff:
            panel.setdefault((row["op"], row["yardstick"]), {})[row["addresses"]] = row["yardstick_value"]
    return panels


def ratio_groups(rows):
    """{(suite, yardstick): [rows]} for the rows of the other suites that have a ratio, in order."""
    groups = {}
    for row in rows:
        if row["suite"] != "atomics" and row.get("ratio"):
            groups.setdefault((row["suite"], row["yardstick"]), []).append(row)
    return groups


def plain_numbers(axis, minor=True):
    """Tick labels as 1024 and 600, not 2^10 and 6x10^2; minor ticks labelled at 2x and 5x only
    where the axis spans a decade or more."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    def label(value, _):
        low, high = axis.get_view_interval()
        few = high < 10 * low or round(value / 10 ** math.floor(math.log10(value))) in (1, 2, 5)
        return f"{value:g}" if value > 0 and few else ""

    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(FuncFormatter(label) if minor else NullFormatter())


def draw_atomics(ax, title, lines):
    for (op, line), points in sorted(lines.items()):
        xs = sorted(points)
        ax.plot(xs, [points[x] for x in xs], LINE_STYLES.get(line, (0, (3, 1, 1, 1))), marker="o", markersize=3,
                color=OP_COLORS.get(op, "black"), label=f"{op}, {line}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sorted({x for points in lines.values() for x in points}))  # the measured levels
    plain_numbers(ax.xaxis)
    plain_numbers(ax.yaxis)
    ax.set_title(f"atomics: {title}")
    ax.set_xlabel("addresses (contention falls to the right)")
    ax.set_ylabel("M ops/s")
    ax.grid(True, which="both", color="#eeeeee")
    ax.legend(fontsize=6, ncol=2)


def draw_ratios(ax, suite, yardstick, rows):
    ratios = [r["ratio"] for r in rows]
    labels = [label(r) for r in rows]
    ax.barh(range(len(rows)), ratios, color="#4c78a8")
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    if max(ratios) / min(ratios) > 20:  # a GPU against a 2-thread host loop next to fractions below 1
        ax.set_xscale("log")
        ax.set_xlim(min(ratios) / 2, max(ratios) * 4)  # room for the labels
        plain_numbers(ax.xaxis, minor=False)
    else:
        ax.set_xlim(0, max(max(ratios), 1) * 1.3)
    ax.axvline(1, color="#cc0000", linestyle="--", linewidth=1)
    for y, (ratio, row) in enumerate(zip(ratios, rows)):
        ax.annotate(f" {ratio:.2f}x ({row['value']:.3g} {row['unit']})", (ratio, y), va="center", fontsize=6)
    # torch's and cupy's figures come from bench/scatter_torch.py, run just before in the same job.
    same = "same job" if yardstick.startswith(("torch", "cupyx", "CUB")) else "same run"
    ax.set_title(f"{suite}: ratio to {yardstick} ({rows[0]['unit']}, {same})")
    ax.set_xlabel(f"{rows[0]['unit']} / {yardstick}'s; red line: as fast as the yardstick")


def plot(doc, out):
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, small

    rows = doc.get("rows", [])
    panels = sorted(atomics_lines(rows).items())
    groups = list(ratio_groups(rows).items())
    heights = [4.0] * ((len(panels) + 1) // 2) + [1.0 + 0.22 * len(g) for _, g in groups]
    fig = plt.figure(figsize=(13, max(2.0, sum(heights) + 1)), layout="constrained")
    device = doc.get("device", {})
    fig.suptitle(f"clatomics bench {doc.get('version', '')}: {device.get('name', '?')} "
                 f"({device.get('platform', '?')}), {doc.get('date', '')}")
    if not heights:
        fig.text(0.5, 0.5, "no rows to plot", ha="center")
    else:
        grid = fig.add_gridspec(len(heights), 2, height_ratios=heights)
        for i, ((type_, space), lines) in enumerate(panels):
            draw_atomics(fig.add_subplot(grid[i // 2, i % 2]), f"{type_} {space}", lines)
        first = (len(panels) + 1) // 2
        for i, ((suite, yardstick), group) in enumerate(groups):
            draw_ratios(fig.add_subplot(grid[first + i, :]), suite, yardstick, group)
    fig.savefig(out, format="svg", metadata={"Date": None})


def main(argv):
    if len(argv) != 3 or argv[1].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("plot.py: needs matplotlib (Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return 3
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = json.load(f)
        plot(doc, argv[2])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"plot.py: {argv[1]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
