"""The science half: pure numpy experiments, the results sections built from them, the claims
the articles rely on and the snippets they show, each registered next to its code
(`registry`). Nothing here reads or writes a file, prints, or plots; the pipeline runs the
jobs and saves `figures/results.json`, the contract with the site half.

Sources: seed 000 (the three "sheets of paper", footnote 2), seed 002 (softmax Jacobian
norms), seed 003 (softmax([10, 5]), d_k = 64), seed 004 (the scaling-factor table); the
question is Vaswani et al. 2017, "Attention Is All You Need", section 3.2.1 and footnote 4.
"""
