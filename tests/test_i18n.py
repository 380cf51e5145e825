"""The gettext catalogues (BOT-I18N-1): complete in both languages, compiling, placeholders equal across
languages, every counted message right at 0, 1, 2 and 21, and no participle that assumes a player's gender."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.i18n import LOCALES, catalogue, t, tool
from bot.i18n import catalogues as cat
from bot.i18n import words as word_rules
from bot.i18n.tool import fields


def test_bot_i18n_1_the_catalogues_pass_the_check_ci_runs():
    assert tool.problems() == []


def test_bot_i18n_1_every_po_compiles_to_an_mo_gettext_reads(tmp_path: Path):
    for locale in ("en", *tool.TRANSLATIONS):
        for domain in cat.domains():
            data = cat.compile_catalog(cat.read_catalog(cat.po_path(locale, domain)))
            mo = tmp_path / f"{locale}-{domain}.mo"
            mo.write_bytes(data)
            with mo.open("rb") as handle:
                import gettext

                translations = gettext.GNUTranslations(handle)
            assert translations.info()["plural-forms"] == tool.PLURAL_FORMS


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogues the check is pointed at, to be broken on purpose."""
    shutil.copytree(cat.LOCALE_DIR, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo", "*.pot"))
    monkeypatch.setattr(cat, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "keys_in_code", lambda: {})
    return tmp_path / "locale"


def block(text: str, key: str) -> str:
    """The whole entry of ``key`` in a ``.po`` text (its lines up to the blank line)."""
    match = re.search(rf'(#[^\n]*\n)*msgctxt "{re.escape(key)}"\n.*?\n\n', text, re.DOTALL)
    assert match, key
    return match.group(0)


def change(path: Path, key: str, how) -> None:  # type: ignore[no-untyped-def]
    text = path.read_text(encoding="utf-8")
    entry = block(text, key)
    path.write_text(text.replace(entry, how(entry)), encoding="utf-8")


def test_the_check_refuses_a_placeholder_that_differs_between_languages(scratch: Path):
    assert tool.problems() == []
    change(scratch / "it/LC_MESSAGES/core.po", "error.field_too_long", lambda e: e.replace("{field}", "{campo}"))
    found = tool.problems()
    assert found and all("error.field_too_long" in line for line in found), found


def test_the_check_refuses_a_missing_an_untranslated_and_a_fuzzy_message(scratch: Path):
    po = scratch / "it/LC_MESSAGES/registration.po"
    change(po, "error.not_registered", lambda e: "")
    change(
        scratch / "it/LC_MESSAGES/core.po",
        "error.already_registered",
        lambda e: re.sub(r'msgstr ".*"(\n".*")*\n', 'msgstr ""\n', e),
    )
    change(scratch / "it/LC_MESSAGES/core.po", "error.cooldown", lambda e: "#, fuzzy\n" + e)
    found = "\n".join(tool.problems())
    assert "error.not_registered: missing" in found
    assert "error.already_registered: not translated" in found
    assert "error.cooldown: fuzzy" in found


def test_the_check_refuses_a_po_that_does_not_compile(scratch: Path):
    change(scratch / "it/LC_MESSAGES/core.po", "error.cooldown", lambda e: e.replace("msgstr", "nonsense\nmsgstr", 1))
    assert any("does not compile" in line for line in tool.problems())


def test_the_check_finds_a_key_the_code_names_and_no_catalogue_defines(monkeypatch: pytest.MonkeyPatch):
    real = tool.keys_in_code()
    assert "error.tournament_not_found" in real  # Babel's extractor over the code finds the keys
    monkeypatch.setattr(tool, "keys_in_code", lambda: {**real, "error.nowhere": [("bot/x.py", 3)]})
    assert "bot/x.py:3: key error.nowhere is in no catalogue" in tool.problems()


# --- counted messages ----------------------------------------------------------------------------------------

COUNTED = sorted(key for key, message in cat.index().items() if message.plural is not None)


def test_the_counted_messages_are_many_and_each_names_its_counter():
    assert len(COUNTED) > 60
    assert all(cat.index()[key].counter for key in COUNTED)


@pytest.mark.parametrize("key", COUNTED)
@pytest.mark.parametrize("locale", LOCALES)
def test_bot_i18n_1_every_counted_message_is_right_at_0_1_2_and_21(key: str, locale: str):
    message = cat.index()[key]
    counter = message.counter or "count"
    translations = cat.translations(locale, message.domain)
    singular = translations.npgettext(key, message.msgid, message.plural, 1)
    plural = translations.npgettext(key, message.msgid, message.plural, 2)
    params = {name: f"<{name}>" for name in fields(message.plural)}
    for n in (0, 1, 2, 21):
        text = t(key, locale, **{**params, counter: n})
        expected = (singular if n == 1 else plural).format(**{**params, counter: n})
        assert text == expected
        if n != 1:
            assert str(n) in text
    one = t(key, locale, **{**params, counter: 1})
    two = t(key, locale, **{**params, counter: 2})
    assert one != two.replace("2", "1") or key in INVARIANT.get(locale, ()), f"{locale} {key}: '1' reads {one!r}"


# Counted messages whose words do not change in one language ("pt" is the abbreviation of both "punto" and "punti").
# English "and 1 more" / "and 2 more" and the compound "the 1-minute limit" need no other form.
INVARIANT = {
    "it": {"standings.team_line"},
    "en": {"players.more", "schedule.and_more", "clock.line.ending_waits"},
}


def test_a_count_of_one_and_a_fraction_pick_the_right_form():
    assert t("round.more_tables", "it", count=1) == "…e un altro tavolo (vedi l'immagine)."
    assert t("round.more_tables", "it", count=21) == "…e altri 21 tavoli (vedi l'immagine)."
    assert t("checkin.late", "it", name="Giulia", round=2, tournament="Open", minutes=1, when="ora") == (
        "Arrivo di **Giulia** al turno 2 di **Open**: 1 minuto di ritardo (ora)."
    )
    assert "1,5 minuti" in t("checkin.consequence.cannot_play", "it", minutes=1.5, limit=10)
    assert "1 minute late" in t("checkin.consequence.cannot_play", "en", minutes=1, limit=10)


def words(text: str) -> list[str]:
    return text.split()


NUMBER_PARAMS = re.compile(r"\{(\w+)\}(?:\*\*)?\s+([A-Za-zàèéìòù]+)")
PLURAL_NOUNS = {
    *words("minuti giocatori tavoli turni carte mosse ore secondi posti tiri righe caratteri armate dadi colonne"),
    *words("partite squadre sanzioni iscrizioni referti richieste problemi volte coppie vincitori tentativi giri"),
    *words("giorni minutes players tables rounds cards moves hours seconds places rolls lines characters armies"),
    *words("dice columns games teams sanctions registrations reports pauses pause requests problems times seats"),
    *words("pairs winners rows attempts days"),
}
NOT_NUMBERS = {"round", "table", "number", "rank", "player", "who", "name", "tournament", "kind"}
# A number that cannot be 1 where it stands: the armies of a card set are at least 4 (RisiKo! rules).
NEVER_ONE = {"adjudicator.cards.set"}


def test_no_number_stands_before_a_plural_noun_outside_a_counted_message():
    """ "Ritardo di 1 minuti" cannot come back: a placeholder followed by a plural noun must be a counted message."""
    found = []
    for locale in LOCALES:
        for key, text in catalogue(locale).items():
            if key in COUNTED or key in NEVER_ONE:
                continue
            for name, word in NUMBER_PARAMS.findall(text):
                if word in PLURAL_NOUNS and name not in NOT_NUMBERS:
                    found.append(f"{locale} {key}: {{{name}}} {word}")
    assert found == []


# --- gender ---------------------------------------------------------------------------------------------------
# The scan lives in bot.i18n.words (what ``python -m bot.i18n check`` runs); tests/test_words.py feeds it the
# gendered nouns beside a name (issue 44). Here: the participles, on the real Italian catalogue.


def test_no_italian_participle_assumes_a_players_gender():
    """BOT-I18N-1: «{name} arrivato», «sei iscritto», a status «ritirato» never come back."""
    found = [
        f"{key}: {text}"
        for key, text in catalogue("it").items()
        if any(pattern.search(text) for pattern in word_rules.PARTICIPLE_PATTERNS)
        or (word_rules.STATUS_KEYS.match(key) and re.fullmatch(word_rules.PARTICIPLES, text.strip()))
    ]
    assert found == []


def test_the_gender_scan_finds_what_the_issue_reported():
    """BOT-I18N-1: the participles once reported are found by the check's scan."""
    reported = ["**{name}** arrivato al turno 2", "{name} si è iscritto", "Sei già iscritto a {tournament}.",
                "Non sei ancora stato assegnato a un tavolo."]  # fmt: skip
    assert all(any(p.search(text) for p in word_rules.PARTICIPLE_PATTERNS) for text in reported)
    assert re.fullmatch(word_rules.PARTICIPLES, "iscritto") and re.fullmatch(word_rules.PARTICIPLES, "ritirato")
    scan = word_rules.gendered()
    assert all(word_rules.gender_problems("it x", "x", text, scan) for text in reported)
    assert word_rules.gender_problems("it x", "status.withdrawn", "ritirato", scan)


def test_one_term_for_each_thing_in_italian():
    texts = "\n".join(catalogue("it").values())
    assert "capo arbitro" not in texts and "arbitro capo" in texts
    assert "ammonimento" not in texts and "ammonizione" in texts
    assert "tavolo dell'arbitro" not in texts


# --- commands named in messages -------------------------------------------------------------------------------

MENTION = re.compile(r"(?<![\w/{])/([a-zà-ù][a-zà-ù-]*)(?: ([a-zà-ù][a-zà-ù-]*))?")


def command_names(locale: str) -> dict[str, set[str]]:
    """Top-level command name → its subcommands' names, in ``locale``, from the catalogue's ``cmd.*.name`` keys."""
    words = catalogue(locale)
    names: dict[str, set[str]] = {}
    for key, text in words.items():
        if key.startswith("cmd.") and key.endswith(".name") and ".opt." not in key and " " not in key:
            names.setdefault(text, set())
    for key, text in words.items():
        if key.startswith("cmd.") and key.endswith(".name") and ".opt." not in key and " " in key:
            parent = key[len("cmd.") :].split(" ")[0]
            names.setdefault(words[f"cmd.{parent}.name"], set()).add(text)
    return names


@pytest.mark.parametrize("locale", LOCALES)
def test_every_command_a_message_names_exists_in_that_language(locale: str):
    """After a rename (``/finale`` → ``/fine-partita``) no message may still send people to the old name."""
    names = command_names(locale)
    assert len(names) > 30
    subcommands = set().union(*names.values())
    found = []
    for key, text in catalogue(locale).items():
        for top, sub in MENTION.findall(text):
            if top not in names:
                found.append(f"{key}: /{top}")
            elif sub in subcommands and names[top] and sub not in names[top]:  # "/setup or …": the group alone
                found.append(f"{key}: /{top} {sub}")
    assert found == []
