"""What results.json holds from ../saturation.py: sheet 2's fixed row (section
`saturation`), random rows' Jacobian norms (`jacobian`) and softmax([10, 5]) (`two_scores`).

Read by sqrtdk.science.outputs (this package) with `ast`, never imported; see its docstring
for the form: section -> {path inside it: (unit, shape, what it is)}.
"""

RESULTS = {
    "saturation": {
        "labels": ("text", "[position]", "the positions' names"),
        "scores": ("score", "[position]", "the fixed row of scores"),
        "winner": ("text", "", "the position with the largest score"),
        "scales": ("scale", "[scale]", "the log grid of scales the row is multiplied by"),
        "shares": ("share", "[scale][position]", "softmax of scale · scores"),
        "p_winner": ("share", "[scale]", "the winner's share"),
        "sensitivity": ("", "[scale]", "the winner's p(1 − p)"),
        "max_offdiag": ("", "[scale]", "the largest cross term p_i p_j"),
        "row_sd": ("score", "", "SD of the row's scores (ddof = 0)"),
        "shown_scales": ("scale", "[panel]", "the scales of the bar chart's panels"),
        "first.scale": ("scale", "", "1: the row as given"),
        "first.p_winner": ("share", "", "the winner's share at scale 1"),
        "first.sensitivity": ("", "", "p(1 − p) at scale 1"),
        "quoted.scale": ("scale", "", "the scale the text quotes"),
        "quoted.p_winner": ("share", "", "the winner's share at the scale the text quotes"),
        "quoted.sensitivity": ("", "", "p(1 − p) at the scale the text quotes"),
        "quoted.max_offdiag": ("", "", "the largest cross term at the scale the text quotes"),
        "quoted.equivalent_dk": ("dimension", "", "(scale · row_sd)², the d of the same spread"),
        "peak.scale": ("scale", "", "the sensitivity's peak"),
        "peak.p_winner": ("share", "", "the winner's share at the sensitivity's peak"),
        "peak.sensitivity": ("", "", "p(1 − p) at the sensitivity's peak"),
        "peak.max_offdiag": ("", "", "the largest cross term at the sensitivity's peak"),
        "peak.equivalent_dk": ("dimension", "", "(scale · row_sd)², the d of the same spread"),
        "peak.half_scale": ("scale", "", "where the winner's share crosses ½"),
        "peak.half_equivalent_dk": ("dimension", "", "(half_scale · row_sd)²"),
        "scale_for.d_k": ("dimension", "[d_k]", "the grid of dimensions d"),
        "scale_for.{ruler}": ("scale", "[d_k]", "the scale giving this row the scores' SD"),
        "scale_index.{ruler}": ("index", "[d_k]", "the grid scale nearest to scale_for"),
    },
    "jacobian": {
        "length": ("count", "", "scores per row"),
        "n_rows": ("count", "", "rows drawn per variance"),
        "var_small": ("score²", "", "the small variance of the scores"),
        "var_large": ("score²", "", "the large variance of the scores"),
        "norm_small": ("", "", "mean Frobenius norm of the Jacobian, small variance"),
        "norm_large": ("", "", "mean Frobenius norm of the Jacobian, large variance"),
        "winner_small": ("share", "", "mean largest share, small variance"),
        "winner_large": ("share", "", "mean largest share, large variance"),
        "norm_max": ("", "", "the largest norm there is (½)"),
    },
    "two_scores": {
        "scores": ("score", "[2]", "the two scores"),
        "d_k": ("dimension", "", "the paper's d_k"),
        "divisor": ("", "", "√d_k"),
        "plain": ("share", "[2]", "softmax of the scores"),
        "scaled": ("share", "[2]", "softmax of the scores ÷ √d_k"),
        "sensitivity_plain": ("", "", "p₁p₂ unscaled"),
        "sensitivity_scaled": ("", "", "p₁p₂ scaled"),
    },
}
