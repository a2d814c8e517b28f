"""Where a chart's axis starts when it shows less than its results hold, read by the chart
and by its table of numbers (sqrtdk.web.fig_tables), so that the two show the same range.

Plain numbers, outside the figures package: the page stage imports this module on a text edit,
which imports neither matplotlib nor sqrtdk.figures.
"""
from __future__ import annotations

# saturation_sensitivity: the scale axis starts at ×1/8, though the grid (and the Try-it
# slider) starts at ×1/32. Below ×1/8 the row's softmax hardly changes, and on a desktop the
# tick labels 1/32 and 1/16 would run into each other.
SCALE_FROM = 1 / 8
