"""The science half: pure numpy experiments, the results sections built from them, the claims
the articles rely on and the snippets they show, each registered next to its code
(`registry`). Nothing here reads or writes a file, prints, or plots; the pipeline runs the
jobs and saves `figures/results.json`, the contract with the site half.

Sources (the modules cite them as "source note N", never "seed": a seed is a random seed
here): source note 000 (the three experiments, footnote 2's random walk), 002 (softmax
Jacobian norms), 003 (softmax([10, 5]), d_k = 64), 004 (the scaling-factor table); the
question is Vaswani et al. 2017, "Attention Is All You Need", section 3.2.1 and footnote 4.
"""
