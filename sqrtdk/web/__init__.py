"""The site half: the articles converted, checked and put together into pages, the site
written, and `--serve`. A package of its own (this file), so that the server's import check
(serve_code), which walks the package's packages, imports its modules too."""
