"""The page's fixtures (browserpage.py has them and says why)."""

from browserpage import browser, origin, page, site  # noqa: F401  (pytest finds them here)
