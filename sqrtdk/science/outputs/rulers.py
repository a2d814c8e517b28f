"""What results.json holds from ../rulers.py: sheet 3's three rulers (section `rulers`) and
the gradient reaching q (`gradient`).

Read by sqrtdk.science.outputs (this package) with `ast`, never imported; see its docstring
for the form: section -> {path inside it: (unit, shape, what it is)}.
"""

RESULTS = {
    "rulers": {
        "d_k": ("dimension", "[d_k]", "the grid of dimensions d"),
        "positions": ("count", "", "keys each query is scored against"),
        "n_rows": ("count", "", "rows of scores drawn at each d"),
        "names": ("text", "[ruler]", "the rulers: raw (1), sqrt (√d), linear (d)"),
        "sd.{ruler}": ("score", "[d_k]", "SD of the scores under the ruler"),
        "sd_theory.{ruler}": ("score", "[d_k]", "the SD footnote 4 predicts under the ruler"),
        "winner_share.{ruler}": ("share", "[d_k]", "mean largest softmax share"),
        "entropy_bits.{ruler}": ("bits", "[d_k]", "mean entropy of the softmax"),
        "uniform_share": ("share", "", "1 ÷ positions, every position equal"),
        "max_entropy_bits": ("bits", "", "log2(positions), the uniform row's entropy"),
        "quoted.d": ("dimension", "", "the d the text quotes"),
        "quoted.sd_{ruler}": ("score", "", "sd at quoted.d"),
        "quoted.winner_share_{ruler}": ("share", "", "winner_share at quoted.d"),
        "quoted.entropy_bits_{ruler}": ("bits", "", "entropy_bits at quoted.d"),
        "flat.share_range_sqrt": ("share", "", "range of winner_share.sqrt over the grid"),
        "flat.entropy_range_sqrt": ("bits", "", "range of entropy_bits.sqrt over the grid"),
        "flat.from_d": ("dimension", "", "the d from which on rows are compared with the "
                        "smallest d's (quoted_d, as built: quoted.d follows the page's bar)"),
        "example.scores": ("score", "[d_k][positions]", "row 0 at each d, unscaled"),
        "example.shares.{ruler}": ("share", "[d_k][positions]", "row 0's softmax shares"),
        "example.winner_share.{ruler}": ("share", "[d_k]", "row 0's largest share"),
        "example.entropy_bits.{ruler}": ("bits", "[d_k]", "row 0's entropy"),
    },
    "gradient": {
        "d_k": ("dimension", "[d_k]", "the grid of dimensions d"),
        "n_rows": ("count", "", "rows at each d"),
        "positions": ("count", "", "keys (and values) per row"),
        "d_v": ("dimension", "", "the values' dimension"),
        "threshold": ("gradient", "", "‖∂L/∂q‖ below this counts as vanished"),
        "band_lo": ("share", "", "the quantile level of the band's lower edge, p10"),
        "band_hi": ("share", "", "the quantile level of the band's upper edge, p90"),
        "p10.{ruler}": ("gradient", "[d_k]", "quantile of ‖∂L/∂q‖ at band_lo (10 % today)"),
        "median.{ruler}": ("gradient", "[d_k]", "median of ‖∂L/∂q‖"),
        "p90.{ruler}": ("gradient", "[d_k]", "quantile of ‖∂L/∂q‖ at band_hi (90 % today)"),
        "below.{ruler}": ("share", "[d_k]", "share of rows with ‖∂L/∂q‖ below threshold"),
        "d_first": ("dimension", "", "the smallest d"),
        "d_last": ("dimension", "", "the largest d"),
        "raw_drop": ("", "", "raw median at d_first ÷ at d_last"),
        "sqrt_drift": ("", "", "largest ÷ smallest sqrt median over d"),
        "raw_below_last": ("share", "", "below.raw at d_last"),
        "sqrt_below_last": ("share", "", "below.sqrt at d_last"),
        "raw_median_last": ("gradient", "", "median.raw at d_last"),
        "sqrt_median_last": ("gradient", "", "median.sqrt at d_last"),
        "raw_median_first": ("gradient", "", "median.raw at d_first"),
        "sqrt_median_first": ("gradient", "", "median.sqrt at d_first"),
        "quoted.d": ("dimension", "", "the d the text quotes (the paper's d_k)"),
        "quoted.raw_below": ("share", "", "below.raw at quoted.d"),
    },
}
