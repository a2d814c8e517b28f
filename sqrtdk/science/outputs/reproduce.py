"""What results.json holds from ../reproduce.py: the reproduce boxes' snippets as they ran
(section `reproduce`; `*` is each snippet's name).

Read by sqrtdk.science.outputs (this package) with `ast`, never imported; see its docstring
for the form: section -> {path inside it: (unit, shape, what it is)}.
"""

RESULTS = {
    "reproduce": {
        "*.code": ("text", "", "the snippet's code as it ran (the build's seed on SEED =)"),
        "*.stdout": ("text", "", "what it printed"),
        "*.file": ("text", "", "its file, relative to sqrtdk/science/"),
        "*.source": ("text", "", "the experiment module it reproduces"),
    },
}
