"""What results.json holds from ../spread.py: sheet 1's dot products (section `spread`)
and footnote 2's random walk (`walk`).

Read by sqrtdk.science.outputs (this package) with `ast`, never imported; see its docstring
for the form: section -> {path inside it: (unit, shape, what it is)}.
"""

RESULTS = {
    "spread": {
        "d_k": ("dimension", "[d_k]", "the grid of dimensions d"),
        "n_pairs": ("count", "", "pairs (q, k) drawn at each d, all batches"),
        "batch_pairs": ("count", "", "pairs in one batch"),
        "sd": ("score", "[d_k]", "sample SD of q·k at each d, batches pooled"),
        "sd_theory": ("score", "[d_k]", "√d, the SD footnote 4 predicts"),
        "slope": ("", "", "least-squares slope of log SD against log d (√d: ½)"),
        "mean_max": ("", "", "largest |pooled mean of q·k| ÷ √d over d"),
        "sd_max_rel_dev": ("", "", "largest |pooled SD ÷ √d − 1| over d"),
        "d_small": ("dimension", "", "the smaller d the text compares"),
        "d_large": ("dimension", "", "the larger d the text compares"),
        "d_ratio": ("", "", "d_large ÷ d_small"),
        "sd_small": ("score", "", "pooled SD at d_small"),
        "sd_large": ("score", "", "pooled SD at d_large"),
        "ratio": ("", "", "pooled SD at d_large ÷ SD at d_small"),
        "ratio_theory": ("", "", "√(d_large ÷ d_small)"),
        "batches.n": ("count", "", "independent batches at each d"),
        "batches.ratio": ("", "[batch]", "per batch: SD at d_large ÷ SD at d_small"),
        "batches.ratio_min": ("", "", "the smallest batch ratio"),
        "batches.ratio_max": ("", "", "the largest batch ratio"),
        "grid.sd.{ruler}": ("score", "[d_k][batch+1]",
                            "SD of the scaled scores per d; index 0 pooled, then per batch"),
        "grid.ratio.{ruler}": ("", "[d_k][batch+1]", "grid.sd ÷ its value at the first d"),
        "grid.hist": ("count", "[d_k][batch+1][bin]",
                      "histogram of q·k ÷ √d per d; index 0 pooled, then per batch"),
        "grid.z_edges": ("√d", "[edge]", "the histogram's bin edges, in units of √d"),
        "grid.ratio_theory.{ruler}": ("", "[d_k]", "the theory SD ÷ its value at the first d"),
        "grid.scale.{ruler}": ("", "[d_k]", "√d ÷ the ruler's divisor (z units to scores)"),
        "grid.d_ratio": ("", "[d_k]", "d ÷ the first d"),
        "grid.batch_ratio_min": ("", "[d_k]", "the smallest batch's SD ratio to the first d"),
        "grid.batch_ratio_max": ("", "[d_k]", "the largest batch's SD ratio to the first d"),
    },
    "walk": {
        "steps": ("count", "", "steps of ±1 in one walk"),
        "n_walks": ("count", "", "walks simulated"),
        "sd": ("steps", "", "sample SD of the final displacement"),
        "sd_theory": ("steps", "", "√steps"),
        "mean_distance": ("steps", "", "mean distance of the final position from the start"),
        "within_band": ("share", "", "share of walks whose final position is within ±√steps"),
        "paths": ("steps", "[path][step]", "a few whole walks, positions 0…steps"),
    },
}
