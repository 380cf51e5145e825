"""The words people read (issue 44): what ``python -m bot.i18n check`` refuses beyond the catalogues' form.

Four rules, each a function of plain data so a test can feed it a bad example:

1. **internal ids and codes** (:func:`id_problems`): no catalogue value, in either language, shows a requirement
   id (``TOUR-FIN-1``), an identifier of the code (``late_tolerance_minutes``), an engine's error code
   (``bad_table_size``: every code the rules engine raises) or a preset id (``risiko-ufficiali-2018``). People
   read the rulebook's article and plain words; the only words with an underscore they may read are those they
   type themselves (a command option's name in their language, a field of the situation documents).
2. **gendered words beside a name** (:func:`gender_problems`): Italian never gives a named player a gender.
   Refused: a participle after a person placeholder («{name} arrivato», «sei iscritto»), a word of the
   glossary's ``[gendered]`` list after a person placeholder or as the label before one («{name} — Campione»,
   «finalista diretto: {direct}»), and such a word as the whole value of an image label (``img.*``: images put
   their labels beside names). Say the act or the role: «ha vinto», «accede alla finale».
3. **the glossary** (:func:`glossary_problems`, :func:`variant_problems`): ``bot/i18n/glossary.toml`` names one
   term for each thing (the rulebook's, where it has one) and the variants to avoid; a variant in a catalogue
   value of its language is refused, but in the keys its entry lists under ``except``.
4. **hard-coded user text** (:func:`hard_coded_text`): the code of the cogs, the present modules and the venue
   pages passes people no literal words — a button's label, an embed's title, a message sent — but through the
   catalogues. Allowed: a key (``report.sign``), a format without words (``"{a} · {b}"``, ``"—"``, emoji), the
   commands' own English names and descriptions (the ``Translator`` replaces them by their ``cmd.*`` keys), and
   :data:`ALLOWED_TEXT`, each with its reason.

This module reads files and the rules engine only: no discord, no database (``bot.i18n`` sits above ``bot.rules``).
"""

from __future__ import annotations

import ast
import fnmatch
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = Path(__file__).resolve().parent / "glossary.toml"

# --- 1. internal ids and codes --------------------------------------------------------------------------------

# The rulebooks' short names of the requirements catalogue (docs/requirements.md), then "-" and a code.
REQUIREMENT_ID = re.compile(r"\b(?:BOT|RR|NP|UFF|ARB|FIRK|TOUR|RK)-[A-Z0-9]+(?:-[A-Z0-9*]+)*")
IDENTIFIER = re.compile(r"[^\W_]+(?:_[^\W_]+)+")  # snake_case: a word with an underscore inside
PLACEHOLDER = re.compile(r"\{[^{}]*\}")  # {final_size}: filled in before anyone reads it


def internal_ids(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The requirement ids and code identifiers in ``text`` (``allowed``: words people type themselves)."""
    text = PLACEHOLDER.sub("", text)
    return REQUIREMENT_ID.findall(text) + [w for w in IDENTIFIER.findall(text) if w not in allowed]


def typed_by_people(values: Mapping[str, str]) -> frozenset[str]:
    """The words with an underscore people type themselves, given one language's key → text: the command
    options' names in that language and the fields of the situation documents (``in_mano``)."""
    from bot.rules.risiko.scoring import PLAYER_FIELDS

    options = {v for k, v in values.items() if k.startswith("cmd.") and ".opt." in k and k.endswith(".name")}
    return frozenset(options | set(PLAYER_FIELDS))


def _is_error_call(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name.endswith("Error")


@cache
def engine_codes(root: Path = ROOT) -> frozenset[str]:
    """Every code the rules engine raises (the literal first argument of an ``…Error(…)`` under ``bot/rules``)
    that has an underscore (``bad_table_size``; a one-word code is an ordinary word)."""
    codes: set[str] = set()
    for path in sorted((root / "bot" / "rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call) and _is_error_call(node) and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and "_" in first.value:
                    codes.add(first.value)
    return frozenset(codes)


def preset_ids() -> tuple[str, ...]:
    from bot.rules.presets import PRESET_NAMES

    return PRESET_NAMES


def _word_re(words: Iterable[str]) -> re.Pattern[str] | None:
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE) if alternatives else None


def codes_in(text: str, codes: Iterable[str] = (), presets: Iterable[str] = ()) -> list[str]:
    """The engine codes and preset ids ``text`` shows (placeholders aside)."""
    text = PLACEHOLDER.sub("", text)
    found: list[str] = []
    for words in (codes, presets):
        pattern = _word_re(words)
        if pattern is not None:
            found += pattern.findall(text)
    return found


def id_problems(where: str, key: str, text: str, allowed: frozenset[str], codes: frozenset[str],
                presets: Sequence[str]) -> list[str]:  # fmt: skip
    """Rule 1 on one catalogue value (``where``: how a line names it, ``it/core.po error.x``)."""
    found: list[str] = []
    engine = codes_in(text, codes, ())
    for code in engine:
        found.append(f"{where}: engine code «{code}» (say what went wrong in words)")
    for preset in codes_in(text, (), presets):
        found.append(f"{where}: preset id «{preset}» (name the rulebook)")
    if not (key.startswith("cmd.") and key.endswith(".name")):  # a command's or option's own name
        for word in internal_ids(text, allowed):
            if word not in engine:
                found.append(f"{where}: internal id «{word}» (cite the rulebook's article, use plain words)")
    return found


# --- 2. gendered words beside a name --------------------------------------------------------------------------

# The placeholders that stand for a person (or people) in a message ({winners}, {waitlisted}: counts).
PERSONS = (
    "name", "names", "player", "players", "who", "winner", "champion", "substitute", "replaced", "replaces",
    "qualified", "direct", "referee", "caller", "attacker", "defender", "defenders", "surname", "first_name",
    "organiser", "opponents", "tied", "value",
)  # fmt: skip
PERSON = r"\{(?:" + "|".join(PERSONS) + r")\}"
PARTICIPLES = (
    r"(iscritt|arrivat|ritirat|squalificat|sostituit|eliminat|qualificat|ammess|escluss|assegnat|sedut|rimoss|"
    r"promoss|convocat|sanzionat|ammonit|espuls|registrat|benvenut|pronto|pronta)[oaie]?\b"
)
PARTICIPLE_PATTERNS = (
    # a player's name followed by a participle: «Giulia arrivato», «**Giulia** iscritto»
    re.compile(
        r"(?<!di )(?<!di \*\*)\{(name|player|who|substitute|replaced|value)\}\**\s+"
        r"(è\s+|era\s+|viene\s+|stat[oa]\s+|già\s+)*" + PARTICIPLES
    ),
    # the reader: «sei iscritto», «ti sei ritirato», «sei stato assegnato»
    re.compile(r"\b([Ss]ei|[Tt]i sei|[Ss]ei stat[oa])\s+(già\s+|ancora\s+|stat[oa]\s+)*" + PARTICIPLES),
    re.compile(r"\bsi è\s+(già\s+)?" + PARTICIPLES),
)
# A player's status is a noun («ritiro», «squalifica»), never «ritirato».
STATUS_KEYS = re.compile(r"^(status\.|standings\.standing\.|report\.outcome\.|choice\.withdrawn)")
# The words issue 44 found on named players (and «vincitrice»); the glossary's [gendered] list adds to them.
GENDERED_WORDS: tuple[str, ...] = (
    "campione", "vincitore", "vincitrice", "finalista diretto", "ripescato", "diretto in finale",
)  # fmt: skip
# Between a name and the word: markup, punctuation, spaces, «è» («**{name}** — Campione», «{name}: vincitore»).
BETWEEN = r"(?:\*\*|__|[\s:—–\-,·(]|\bè\b|\bcome\b){0,8}"


def _inflected(phrase: str) -> str:
    """«ripescato» → ``ripescat[oaie]``: a word of the list in any gender and number."""
    parts = []
    for word in phrase.split():
        stem = re.escape(word[:-1]) + "[oaie]" if word[-1:] in "oaie" and len(word) > 3 else re.escape(word)
        parts.append(stem)
    return r"\s+".join(parts)


@dataclass(frozen=True)
class Gendered:
    """The compiled scan of one list of gendered words."""

    words: tuple[str, ...]
    after: re.Pattern[str] = field(init=False)
    before: re.Pattern[str] = field(init=False)
    whole: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        words = "(?:" + "|".join(_inflected(w) for w in sorted(self.words, key=len, reverse=True)) + ")"
        flags = re.IGNORECASE
        object.__setattr__(self, "after", re.compile(rf"{PERSON}{BETWEEN}(?<!\w)({words})(?!\w)", flags))
        object.__setattr__(self, "before", re.compile(rf"(?<!\w)({words})\**\s*:\s*\**{PERSON}", flags))
        object.__setattr__(self, "whole", re.compile(rf"[\s*_:—·-]*({words}|{PARTICIPLES})[\s*_:.—·-]*", flags))


def gendered(words: Iterable[str] = ()) -> Gendered:
    return Gendered(tuple(dict.fromkeys(w.strip().lower() for w in (*GENDERED_WORDS, *words) if w.strip())))


def gender_problems(where: str, key: str, text: str, scan: Gendered) -> list[str]:
    """Rule 2 on one Italian catalogue value."""
    found: list[str] = []
    hint = "say the act or the role: «ha vinto», «accede alla finale»"
    for pattern in PARTICIPLE_PATTERNS:
        for match in pattern.finditer(text):
            found.append(f"{where}: «{match.group(0).strip()}» gives a player a gender ({hint})")
    if STATUS_KEYS.match(key) and re.fullmatch(PARTICIPLES, text.strip()):
        found.append(f"{where}: the status «{text.strip()}» is a participle (a noun: «ritiro», «squalifica»)")
    for pattern in (scan.after, scan.before):
        for match in pattern.finditer(text):
            found.append(f"{where}: «{match.group(1)}» beside a name gives a player a gender ({hint})")
    if key.startswith("img.") and scan.whole.fullmatch(text):
        found.append(f"{where}: the image label «{text.strip()}» sits beside a name and gives it a gender ({hint})")
    return found


# --- 3. the glossary ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    locale: str
    use: str
    avoid: tuple[str, ...]
    source: str
    exceptions: tuple[str, ...] = ()

    def patterns(self) -> Iterator[re.Pattern[str]]:
        """Each variant: a whole word or phrase in any case; a sign without letters (“) anywhere."""
        for variant in self.avoid:
            if re.search(r"\w", variant):
                yield re.compile(rf"(?<!\w){re.escape(variant)}(?!\w)", re.IGNORECASE)
            else:
                yield re.compile(re.escape(variant))

    def excepts(self, key: str) -> bool:
        return any(fnmatch.fnmatchcase(key, pattern) for pattern in self.exceptions)


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...] = ()
    gendered: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # what is wrong with the file itself


LANGUAGES = ("it", "en")
TERM_FIELDS = {"use", "avoid", "source", "except"}


def parse_glossary(data: Mapping[str, Any], name: str = "glossary.toml") -> Glossary:
    """The glossary from its TOML data, with a line for each thing wrong in it."""
    problems: list[str] = []
    terms: list[Term] = []
    for section in data:
        if section not in (*LANGUAGES, "gendered"):
            problems.append(f"{name}: unknown section [{section}]")
    for locale in LANGUAGES:
        entries = data.get(locale, [])
        if not isinstance(entries, list):
            problems.append(f"{name}: [{locale}] must be a list of [[{locale}]] entries")
            continue
        for n, entry in enumerate(entries, 1):
            where = f"{name}: [[{locale}]] #{n}"
            if not isinstance(entry, dict):
                problems.append(f"{where}: not a table")
                continue
            where += f" «{entry.get('use', '?')}»"
            for missing in sorted({"use", "avoid", "source"} - set(entry)):
                problems.append(f"{where}: no {missing}")
            for unknown in sorted(set(entry) - TERM_FIELDS):
                problems.append(f"{where}: unknown field {unknown}")
            use, avoid, source = entry.get("use", ""), entry.get("avoid", []), entry.get("source", "")
            exceptions = entry.get("except", [])
            if not isinstance(use, str) or ("use" in entry and not use.strip()):
                problems.append(f"{where}: use must be a word or phrase")
                use = str(use)
            if not isinstance(source, str) or ("source" in entry and not source.strip()):
                problems.append(f"{where}: source must say where the term comes from")
                source = str(source)
            if not isinstance(avoid, list) or not all(isinstance(v, str) and v for v in avoid):
                problems.append(f"{where}: avoid must be a list of variants")
                avoid = [v for v in avoid if isinstance(v, str) and v] if isinstance(avoid, list) else []
            elif "avoid" in entry and not avoid:
                problems.append(f"{where}: avoid lists no variant")
            if not isinstance(exceptions, list) or not all(isinstance(k, str) for k in exceptions):
                problems.append(f"{where}: except must be a list of keys")
                exceptions = []
            terms.append(Term(locale, use, tuple(avoid), source, tuple(exceptions)))
    for locale in LANGUAGES:
        uses = {t.use.strip().lower(): t for t in terms if t.locale == locale}
        for term in (t for t in terms if t.locale == locale):
            for variant in term.avoid:
                if variant.strip().lower() in uses:
                    problems.append(f"{name}: {locale} «{term.use}» avoids «{variant}», the term another entry uses")
    gendered_words: dict[str, tuple[str, ...]] = {}
    table = data.get("gendered", {})
    if not isinstance(table, dict):
        problems.append(f"{name}: [gendered] must be a table of lists (it = [...])")
        table = {}
    for locale, words in table.items():
        if locale not in LANGUAGES or not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            problems.append(f"{name}: [gendered] {locale} must be a list of words of it or en")
            continue
        gendered_words[locale] = tuple(words)
    return Glossary(tuple(terms), gendered_words, tuple(problems))


def load_glossary(path: Path = GLOSSARY) -> Glossary:
    name = path.name
    if not path.exists():
        return Glossary(problems=(f"{name}: missing",))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        return Glossary(problems=(f"{name}: does not parse: {exc}",))
    return parse_glossary(data, name)


def variant_problems(locale: str, key: str, text: str, glossary: Glossary) -> list[str]:
    """Rule 3 on one catalogue value: the glossary's variants of ``locale`` it says."""
    found: list[str] = []
    text = PLACEHOLDER.sub("", text)  # «{preset}», «{seed}»: names in the code, filled in before anyone reads them
    for term in glossary.terms:
        if term.locale != locale or term.excepts(key):
            continue
        for pattern in term.patterns():
            match = pattern.search(text)
            if match:
                found.append(f"{locale} glossary: key {key} says «{match.group(0)}»: use «{term.use}» ({term.source})")
    return found


def glossary_problems(glossary: Glossary, keys: Iterable[str] = ()) -> list[str]:
    """What is wrong with the glossary itself, and the ``except`` keys that no catalogue defines."""
    known = set(keys)
    found = list(glossary.problems)
    if known:
        for term in glossary.terms:
            for pattern in term.exceptions:
                if not any(fnmatch.fnmatchcase(k, pattern) for k in known):
                    found.append(f"glossary.toml: {term.locale} «{term.use}» excepts {pattern}, which is no key")
    return found


# --- 4. hard-coded user text ----------------------------------------------------------------------------------

SCANNED = ("bot/cogs", "bot/present", "bot/web")
# Keyword arguments whose value people read: a button's or a select's label, an embed's title, a message.
TEXT_KEYWORDS = frozenset({"label", "placeholder", "content", "title", "description", "text", "reason"})
# Calls whose ``name=``/``value=`` people read (an embed's field, a thread's name).
NAMED_CALLS = frozenset({"add_field", "set_author", "insert_field_at", "set_field_at", "create_thread",
                         "create_text_channel", "create_category", "create_forum", "create_role"})  # fmt: skip
# Calls whose positional arguments people read: a method (``channel.send("…")``, ``TextDisplay("…")``) …
METHOD_TEXT_ARGS: dict[str, tuple[int, ...]] = {
    "send": (0,), "send_message": (0,), "reply": (0,), "respond": (0,), "edit_message": (0,),
    "TextDisplay": (0,), "Embed": (0, 1),
}  # fmt: skip
# … and the cogs' helpers (``bot.cogs._common``): ``send(interaction, "…")``, ``embed("title", "description")``.
HELPER_TEXT_ARGS: dict[str, tuple[int, ...]] = {"send": (1,), "embed": (0, 1), "TextDisplay": (0,), "Embed": (0, 1)}
# The commands' own English texts: the Translator replaces them by their ``cmd.*``/``choice.*`` keys.
TRANSLATED_CALLS = frozenset({"command", "describe", "Group", "Choice", "rename", "choices", "context_menu"})
# Literals people may meet as they are: (file, text) → why it needs no catalogue.
ALLOWED_TEXT: dict[tuple[str, str], str] = {
    ("bot/web/app.py", "ok"): "the body of /healthz, read by the container's health check, never by people",
}
KEY_SHAPE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z0-9_-]+)+")
MARKUP = re.compile(r"<[^<>]*>")  # an HTML tag, a mention <@{}>: no words of their own
A_WORD = re.compile(r"[^\W\d_]{2,}")  # two letters in a row: "T{n}" is an abbreviation beside a number


def shows_words(text: str, filename: str = "") -> bool:
    """Whether a literal carries words people read (not a key, not a format of placeholders and signs)."""
    if (filename, text) in ALLOWED_TEXT or KEY_SHAPE.fullmatch(text):
        return False
    return bool(A_WORD.search(MARKUP.sub("", PLACEHOLDER.sub("", text))))


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


Scope = Mapping[str, Sequence[ast.expr]]


def _literals(node: ast.expr, scope: Scope) -> Iterator[tuple[int, str]]:
    """The literal texts an expression passes on (``f"Sign {x}"`` → ``'Sign {}'``), through the names of its
    function (``label = "…"``, a parameter's default ``label: str = "…"``) but not into other calls."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.lineno, node.value
    elif isinstance(node, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
        yield node.lineno, "".join(str(p) for p in parts)
    elif isinstance(node, ast.Name) and node.id in scope:
        inner = {name: values for name, values in scope.items() if name != node.id}  # no loop through a name
        for value in scope[node.id]:
            yield from _literals(value, inner)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body, scope)
        yield from _literals(node.orelse, scope)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _literals(value, scope)
    elif isinstance(node, ast.BinOp):
        yield from _literals(node.left, scope)
        yield from _literals(node.right, scope)
    elif isinstance(node, ast.Subscript):  # label[:80]
        yield from _literals(node.value, scope)
    elif isinstance(node, ast.List | ast.Tuple):
        for element in node.elts:
            yield from _literals(element, scope)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        owner = node.func.value
        if isinstance(owner, ast.Constant | ast.JoinedStr):  # "{} words".format(…), " · ".join([…])
            yield from _literals(owner, scope)
            for arg in node.args:
                yield from _literals(arg, scope)


def _assigned(body: Iterable[ast.AST], scope: dict[str, list[ast.expr]]) -> dict[str, list[ast.expr]]:
    """``scope`` plus the names these statements (and those nested in them) assign."""
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign):
                targets = [t for t in node.targets if isinstance(t, ast.Name)]
                for target in targets:
                    scope.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                scope.setdefault(node.target.id, []).append(node.value)
    return scope


def _scope_of(function: ast.FunctionDef | ast.AsyncFunctionDef, module: Scope) -> Scope:
    scope: dict[str, list[ast.expr]] = {name: list(values) for name, values in module.items()}
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
             *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)]  # fmt: skip
    for arg, default in pairs:
        scope[arg.arg] = [default]  # a parameter is its default (or what callers pass, scanned where they call)
    return _assigned(function.body, scope)


def _sinks(tree: ast.AST) -> Iterator[ast.expr]:
    """The expressions whose value reaches people."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):  # class Ask(discord.ui.Modal, title="…")
            yield from (k.value for k in node.keywords if k.arg in TEXT_KEYWORDS)
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in TRANSLATED_CALLS or name.endswith("Error") or name in {"t", "tr"}:
            continue
        for keyword in node.keywords:
            if keyword.arg in TEXT_KEYWORDS or (name in NAMED_CALLS and keyword.arg in {"name", "value"}):
                yield keyword.value
        positions = (METHOD_TEXT_ARGS if isinstance(node.func, ast.Attribute) else HELPER_TEXT_ARGS).get(name, ())
        yield from (node.args[i] for i in positions if i < len(node.args))


def hard_coded_in(source: str, filename: str) -> list[str]:
    """Rule 4 on one module's source: a line per literal with words passed where people read it."""
    tree = ast.parse(source, filename)
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    module = _assigned((n for n in tree.body if not isinstance(n, functions | ast.ClassDef)), {})
    scopes: list[tuple[ast.AST, Scope]] = [(tree, module)]
    scopes += [
        (f, _scope_of(f, module)) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    found: dict[tuple[int, str], None] = {}
    for node, scope in scopes:
        for sink in _sinks(node):
            for lineno, text in _literals(sink, scope):
                if shows_words(text, filename):
                    found[lineno, text] = None
    return [f"{filename}:{lineno}: hard-coded text {text!r}" for lineno, text in sorted(found)]


def hard_coded_text(root: Path = ROOT, folders: Sequence[str] = SCANNED) -> list[str]:
    """Rule 4 over the code people's words come from (``bot/cogs``, ``bot/present``, ``bot/web``)."""
    found: list[str] = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            found += hard_coded_in(path.read_text(encoding="utf-8"), relative)
    return found


# --- all four -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """One catalogue value as the check reads it: every form of one message in one language."""

    locale: str
    domain: str
    key: str
    forms: tuple[str, ...]


def catalogue_problems(values: Iterable[Value], glossary: Glossary | None = None, root: Path = ROOT) -> list[str]:
    """Rules 1-3 over the catalogues' values, and the glossary itself (one line per refusal)."""
    values = list(values)
    glossary = load_glossary() if glossary is None else glossary
    found = glossary_problems(glossary, {v.key for v in values})
    codes, presets = engine_codes(root), preset_ids()
    allowed = {
        locale: typed_by_people({v.key: v.forms[-1] for v in values if v.locale == locale and v.forms})
        for locale in LANGUAGES
    }
    scans = {locale: gendered(glossary.gendered.get(locale, ())) for locale in ("it",)}
    for value in values:
        where = f"{value.locale}/{value.domain}.po {value.key}"
        seen: set[str] = set()
        for text in value.forms:
            lines = id_problems(where, value.key, text, allowed.get(value.locale, frozenset()), codes, presets)
            if value.locale in scans:
                lines += gender_problems(where, value.key, text, scans[value.locale])
            lines += variant_problems(value.locale, value.key, text, glossary)
            for line in lines:
                if line not in seen:
                    seen.add(line)
                    found.append(line)
    return found
