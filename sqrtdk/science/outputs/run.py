"""What results.json holds from ../run.py: the claims evaluated on the sections (`claims`;
`*` is each claim's name) and what produced the numbers (`meta`).

Read by sqrtdk.science.outputs (this package) with `ast`, never imported; see its docstring
for the form: section -> {path inside it: (unit, shape, what it is)}.
"""

RESULTS = {
    "claims": {
        "*.held": ("", "", "whether the claim holds"),
        "*.value": ("", "", "the number the claim computed, as stored"),
        "*.op": ("text", "", "'<=' or '>='"),
        "*.bound": ("", "", "what the value is compared with"),
        "*.statement": ("text", "", "the claim in words"),
        "*.unit": ("text", "", "how the value reads"),
        "*.section": ("text", "", "the section it reads"),
        "*.reads": ("text", "[read]", "the result paths it read"),
        "*.d_k": ("", "[d]", "each_dk: the dₖ of the page's bar it was checked at; else empty"),
        "*.values": ("", "[d]", "each_dk: its number at each of those dₖ (value: the worst)"),
    },
    "meta": {
        "schema": ("", "", "the version of results.json's layout (results.SCHEMA)"),
        "seed": ("", "", "the seed of every random stream"),
        "generator": ("text", "", "the random generator"),
        "python": ("text", "", "the Python version that ran the experiments"),
        "numpy": ("text", "", "the numpy version that ran them"),
        "bounds": ("", "{pattern}[2]", "per result pattern, the interval it cannot leave"),
        "evidence": ("text", "[path]", "results kept only to check others against"),
    },
}
