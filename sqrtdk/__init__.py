"""The sqrt(d_k) explainer: experiments, results, figures and the bilingual static site.

Pipeline (imports flow one way, see HOUSE_STYLE.md):
config -> experiments -> results -> figures;  content -> markdown extensions -> render -> site/.
"""
