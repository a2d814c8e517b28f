"""What figures/sweep.json holds, quoted as `sweep.*` beside results.json: the claims over
seeds 1…N, as sqrtdk/sweep.py's `summarise` builds it (`*` is each claim's name). Not a
section of results.json: the build reads the file (`sweep_for_build`) and hands it to the
pages, figures and the script as the section `sweep`; the sweep checks what it writes against
this declaration, and a build what it reads.

Read by sqrtdk.science.outputs (this package) with `ast`, never imported; see its docstring
for the form: section -> {path inside it: (unit, shape, what it is)}.
"""

RESULTS = {
    "sweep": {
        "n_seeds": ("count", "", "seeds the sweep ran (first_seed … last_seed)"),
        "first_seed": ("", "", "the first seed"),
        "last_seed": ("", "", "the last seed"),
        "n_claims": ("count", "", "claims evaluated on every seed"),
        "min_share": ("share", "", "the smallest claims.*.share: the least often held claim"),
        "all_held": ("", "", "whether every claim held in every seed"),
        "claims.*.held": ("count", "", "seeds in which the claim held"),
        "claims.*.share": ("share", "", "held ÷ n_seeds"),
        "claims.*.worst": ("", "", "the value furthest towards the bound over the seeds"),
        "claims.*.op": ("text", "", "'<=' or '>=' (claims.*.op in results.json)"),
        "claims.*.bound": ("", "", "what the value is compared with"),
        "claims.*.unit": ("text", "", "how the value reads"),
        "claims.*.statement": ("text", "", "the claim in words"),
        "claims.*.code": ("text", "", "digest of the code the entry depends on (claim_code)"),
    },
}
