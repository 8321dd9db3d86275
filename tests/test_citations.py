"""Every rule id and every document the repository cites resolves inside it.

The code, the tests and the documents cite the unit's rules by id (B1-B18, `test_b8_...`) and
point at documents (`docs/storage.md`, `README, "Performance"`, `docs/rules.md#b8-no-overdraft`).
A reader must find each: the rule as a heading of docs/rules.md, the document in the repository,
the section as a heading of it. docs/rules.md's quotes of the rulebooks must be their words.
"""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = "docs/rules.md"
THIS = "tests/test_citations.py"  # names the forms it looks for, so it is not scanned itself
# The upstream specification lives outside the repository; these two say so, and nothing else
# may cite it: its content is in docs/rules.md and docs/protocol.md.
UPSTREAM = "SPEC"
MAY_NAME_UPSTREAM = ("README.md", RULES)
# Files whose B-numbers are not rule ids: lint configuration names flake8-bugbear's codes.
NOT_RULE_IDS = ("ruff.toml", "pyproject.toml")

RULE_ID = re.compile(r"(?<![\w<])B(\d+)(?![\w])")  # <B1-Motion> is a Tk event, not a rule
TEST_NAME = re.compile(r"\btest_b(\d+)_")
NOQA = re.compile(r"noqa:?[\s\w,]*")  # noqa: B008 names a lint code
MD_PATH = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)*[\w.-]+\.md)(?:#([\w-]+))?")
SECTION = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.md|\bREADME)[,:]?\s+\"([^\"]+)\"")
UNQUOTED_README = re.compile(r"\bREADME: [a-z]")
IN_PAGE_LINK = re.compile(r"\]\(#([\w-]+)\)")
SEED_PATH = re.compile(r"seeds/\d{3}_[0-9a-f]+\.txt")
RULE_QUOTE = re.compile(r"\bB(\d+): \"([^\"]+)\"")  # B16: "the unit boots on"


def tracked_files():
    """The repository's tracked text files (git ls-files), as repository-relative paths."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    paths = []
    for rel in out.splitlines():
        if rel == THIS or rel.startswith("seeds/"):  # the rulebooks cite nothing of ours
            continue
        try:
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # pictures, and files deleted in the work tree
        if "\0" in text:
            continue
        paths.append((rel, text))
    return paths


def lines(text):
    return enumerate(text.splitlines(), 1)


def headings(rel):
    """The headings of a markdown file, without their #s."""
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        text = f.read()
    out = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            out.append(line.lstrip("#").strip())
    return out


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def section_text(rel, heading):
    """The words of the section of a markdown file whose heading starts with heading."""
    out = []
    inside = False
    for line in _read(rel).splitlines():
        if re.match(r"#{1,6} ", line):
            inside = line.lstrip("#").strip().startswith(heading)
        elif inside:
            out.append(line)
    return _words("\n".join(out)).lower()


def rule_headings():
    """{n: heading} for docs/rules.md's `## B<n> <name>` headings."""
    out = {}
    for h in headings(RULES):
        m = re.match(r"B(\d+) \S", h)
        if m:
            out[int(m.group(1))] = h
    return out


def resolve(rel, path):
    """The repository-relative path a document mention names, or None if there is none: from
    the repository's root, or from the citing file's folder (a markdown link)."""
    for base in ("", os.path.dirname(rel)):
        cand = os.path.normpath(os.path.join(base, path))
        if os.path.isfile(os.path.join(ROOT, cand)):
            return cand.replace(os.sep, "/")
    return None


def rule_id_problems(files, rules):
    bad = []
    for rel, text in files:
        if os.path.basename(rel) in NOT_RULE_IDS:
            continue
        for no, line in lines(text):
            line = NOQA.sub("", line)
            ids = [int(m.group(1)) for m in RULE_ID.finditer(line)]
            ids += [int(m.group(1)) for m in TEST_NAME.finditer(line)]
            for n in ids:
                if n not in rules:
                    bad.append("%s:%d: B%d is not a rule of %s" % (rel, no, n, RULES))
    return bad


def document_problems(files):
    bad = []
    for rel, text in files:
        for no, line in lines(text):
            where = "%s:%d: " % (rel, no)
            for m in MD_PATH.finditer(line):
                path, anchor = m.group(1), m.group(2)
                if path == UPSTREAM + ".md":
                    if rel not in MAY_NAME_UPSTREAM:
                        bad.append(where + "%s is outside the repository: cite %s or "
                                   "docs/protocol.md" % (path, RULES))
                    continue
                target = resolve(rel, path)
                if target is None:
                    bad.append(where + "%s does not exist" % path)
                elif anchor and anchor not in [slug(h) for h in headings(target)]:
                    bad.append(where + "%s has no heading #%s" % (target, anchor))
            if re.search(r"\b%s\b(?!\.md)" % UPSTREAM, line):
                if rel not in MAY_NAME_UPSTREAM:
                    bad.append(where + "%s is outside the repository: cite %s or "
                               "docs/protocol.md" % (UPSTREAM, RULES))
            for m in SECTION.finditer(line):
                doc, section = m.group(1), m.group(2)
                target = "README.md" if doc == "README" else resolve(rel, doc)
                if target is None or not target.endswith(".md"):
                    continue  # reported above
                if not any(h.startswith(section) for h in headings(target)):
                    bad.append(where + '%s has no section "%s"' % (target, section))
                    continue
                quoted = re.match(r': "([^"]+)"', line[m.end():])
                if quoted and _words(quoted.group(1)).lower() not in section_text(target,
                                                                                   section):
                    bad.append(where + '%s, "%s" does not say "%s"' % (target, section,
                                                                     quoted.group(1)))
            for m in RULE_QUOTE.finditer(line):
                rule = "B%s " % m.group(1)
                if _words(m.group(2)).lower() not in section_text(RULES, rule):
                    bad.append(where + '%s of %s does not say "%s"' % (rule.strip(), RULES,
                                                                      m.group(2)))
            if UNQUOTED_README.search(line):
                bad.append(where + 'a README section is cited as README, "<its heading>"')
            if rel.endswith(".md"):
                for m in IN_PAGE_LINK.finditer(line):
                    if m.group(1) not in [slug(h) for h in headings(rel)]:
                        bad.append(where + "no heading #%s on this page" % m.group(1))
    return bad


def test_rules_b1_to_b22_are_headings_of_rules_md_in_order():
    found = [int(m.group(1)) for m in re.finditer(r"^## B(\d+) \S", _read(RULES), re.M)]
    assert found == list(range(1, 23)), found


def test_every_rule_id_cited_is_a_rule_of_rules_md():
    bad = rule_id_problems(tracked_files(), rule_headings())
    assert not bad, "\n".join(bad)


def test_every_document_and_section_cited_exists():
    bad = document_problems(tracked_files())
    assert not bad, "\n".join(bad)


def test_rules_md_quotes_the_rulebooks_word_for_word():
    """Each quoted line (`> ...`) is in the seed file named last before it."""
    seed = None
    bad = []
    quotes = 0
    for no, line in lines(_read(RULES)):
        named = SEED_PATH.findall(line)
        if named:
            seed = named[-1]
        if not line.startswith("> "):
            continue
        quotes += 1
        if seed is None:
            bad.append("%s:%d: a quote with no seed file named before it" % (RULES, no))
        elif _words(line[2:]) not in _words(_read(seed)):
            bad.append("%s:%d: not the words of %s: %s" % (RULES, no, seed, line[2:60]))
    assert quotes >= 18 and not bad, "\n".join(bad)


# -- the checks themselves catch what they are for -------------------------------------------

def test_a_rule_id_that_is_no_rule_is_caught():
    files = [("firmware/x.py", "# B99: no such rule\n"), ("tests/t.py", "def test_b0_x():\n")]
    bad = rule_id_problems(files, rule_headings())
    assert [b.split(":")[0] for b in bad] == ["firmware/x.py", "tests/t.py"]
    assert rule_id_problems([("x.py", "B8's refusal (B18), <B1-Motion>\n")],
                            rule_headings()) == []


def test_a_broken_document_citation_is_caught():
    text = "\n".join([
        'see docs/nowhere.md',  # no such document
        '(README, "Deploying")',  # no such section
        '(README: error codes)',  # a section cited without its heading
        '(%s: "Serial protocol")' % UPSTREAM,  # outside the repository
        'docs/rules.md#b8-overdraft',  # no such anchor
        'B16: "the unit never wakes"',  # not what the rule says
        '(docs/rules.md, "The unit": "cards are read by magic")',  # not what the section says
        'docs/rules.md#b8-no-overdraft and README, "Performance"',  # fine
        'B16: "the unit boots on", (docs/rules.md, "The unit": "reads as none")',  # fine
    ])
    bad = document_problems([("firmware/x.py", text)])
    assert [int(b.split(":")[1]) for b in bad] == [1, 2, 3, 4, 5, 6, 7], bad


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def _words(text):
    return " ".join(text.split())
